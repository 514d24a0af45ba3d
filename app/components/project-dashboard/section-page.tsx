import type { ReactNode } from "react";
import { useProject } from "./project-frame";
import { PROJECT_SECTIONS, type ProjectSection } from "./project-nav";
import { ProjectFacts } from "./project-sections";
import { PAGE_REFRESH_INTERVAL_MS } from "./refresh";
import { StatusBadges } from "./status-badges";
import { useSmartRefresh } from "./use-smart-refresh";

export function sectionLabel(section: ProjectSection) {
  return PROJECT_SECTIONS.find((s) => s.section === section)?.label ?? section;
}

/**
 * The page of every project navigation section (/sites/{section}/{studioId}), inside the project
 * frame (its navigation, app/routes/_app._project.tsx): a header with the project's name, the section's title and what the page is for,
 * then the page's own sections. `status` adds the project's badges to the header and what the
 * project knows below the sections (the Settings page's summary).
 *
 * The page keeps itself current: every 60 s (while visible and someone is there) it asks
 * GET /sites/{id}/version?section= whether its data version is still `dataVersion`, and
 * reloads its data only when not (useSmartRefresh; app/web/section-version.server.ts).
 */
export function ProjectSectionPage({
  section,
  dataVersion,
  description,
  status = false,
  children,
}: {
  section: ProjectSection;
  /** The page's data version, from its loader (sectionVersion). */
  dataVersion: string;
  description?: ReactNode;
  status?: boolean;
  /** The page's own sections. */
  children?: ReactNode;
}) {
  const project = useProject();
  useSmartRefresh(
    {
      url: `/sites/${encodeURIComponent(project.studioId)}/version?section=${section}`,
      version: dataVersion,
    },
    { intervalMs: PAGE_REFRESH_INTERVAL_MS },
  );
  return (
    <article className="space-y-8">
      <header className="space-y-1">
        <p className="text-sm text-slate-600 dark:text-slate-300">{project.name}</p>
        <h1 className="text-2xl font-semibold">{sectionLabel(section)}</h1>
        {description ? <p className="text-slate-600 dark:text-slate-300">{description}</p> : null}
        {status ? (
          <StatusBadges badge={project.badge} live={project.live} upgradeTo={project.upgradeTo} />
        ) : null}
      </header>
      {children}
      {status ? <ProjectFacts project={project} /> : null}
    </article>
  );
}
