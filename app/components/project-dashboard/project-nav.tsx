import { NavLink } from "@remix-run/react";

/** The project navigation pages, in the order the navigation shows them. */
export const PROJECT_SECTIONS = [
  { section: "website", label: "Website" },
  { section: "analytics", label: "Analytics" },
  { section: "forms", label: "Forms" },
  { section: "newsletter", label: "Newsletter" },
  { section: "social-media", label: "Social Media" },
  { section: "settings", label: "Settings" },
] as const;

export type ProjectSection = (typeof PROJECT_SECTIONS)[number]["section"];

export function sectionPath(section: ProjectSection, studioId: string) {
  return `/sites/${section}/${encodeURIComponent(studioId)}`;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium ${
    isActive
      ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
      : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
  }`;

/**
 * Dashboard, the sections, the published site (external, new tab, before Settings, only when
 * the project has a publish address) and Settings. NavLink marks the current page with
 * aria-current="page".
 */
export function ProjectNav({
  studioId,
  publishedUrl,
}: {
  studioId: string;
  publishedUrl: string | null;
}) {
  const sections = PROJECT_SECTIONS.filter((s) => s.section !== "settings");
  return (
    <nav aria-label="Project" className="overflow-x-auto">
      {/* Wraps onto a second line in a narrow window rather than scrolling sideways. */}
      <ul className="flex flex-wrap gap-1 border-b border-slate-200 pb-2 dark:border-slate-800">
        <li>
          <NavLink to={`/sites/${encodeURIComponent(studioId)}`} end className={linkClass}>
            Dashboard
          </NavLink>
        </li>
        {sections.map((s) => (
          <li key={s.section}>
            <NavLink to={sectionPath(s.section, studioId)} className={linkClass}>
              {s.label}
            </NavLink>
          </li>
        ))}
        {publishedUrl ? (
          <li>
            <a
              href={publishedUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={linkClass({ isActive: false })}
            >
              Published site <span aria-hidden="true">↗</span>
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ) : null}
        <li>
          <NavLink to={sectionPath("settings", studioId)} className={linkClass}>
            Settings
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
