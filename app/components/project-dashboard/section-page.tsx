import type { ReactNode } from "react";
import { PROJECT_SECTIONS, ProjectNav, type ProjectSection } from "./project-nav";
import { ProjectFacts } from "./project-sections";
import type { ProjectView } from "./project-view";
import { StatusBadges } from "./status-badges";

/** What each navigation page will hold; shown until a later release fills the page. */
const COMING: Record<ProjectSection, string> = {
  website: "Managing the website's pages and theme",
  analytics: "The site's visitor analytics",
  forms: "Form settings and submissions",
  newsletter: "Newsletter sender settings and domains",
  "social-media": "Linked social accounts and their feeds",
  settings: "Project settings",
};

export function sectionLabel(section: ProjectSection) {
  return PROJECT_SECTIONS.find((s) => s.section === section)?.label ?? section;
}

/**
 * A project navigation page (/sites/{section}/{studioId}): the project navigation, what the
 * project already knows, and an honest note that the section comes in a later release.
 */
export function ProjectSectionPage({
  section,
  project,
  children,
}: {
  section: ProjectSection;
  project: ProjectView;
  /** What the page already has, above the note about the rest. */
  children?: ReactNode;
}) {
  const label = sectionLabel(section);
  return (
    <article className="space-y-6">
      <ProjectNav studioId={project.studioId} publishedUrl={project.publishedUrl} />
      <header className="space-y-2">
        <p className="text-sm text-slate-600 dark:text-slate-300">{project.name}</p>
        <h1 className="text-2xl font-semibold">{label}</h1>
        <StatusBadges badge={project.badge} live={project.live} upgradeTo={project.upgradeTo} />
      </header>
      {children}
      <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700 dark:bg-slate-900 dark:text-slate-200">
        {COMING[section]} will be here in a later release. Meanwhile, this is what the project
        knows.
      </p>
      <ProjectFacts project={project} />
    </article>
  );
}
