import type { ReactNode } from "react";
import { PROJECT_SECTIONS, ProjectNav, type ProjectSection } from "./project-nav";
import { ProjectFacts } from "./project-sections";
import type { ProjectView } from "./project-view";
import { StatusBadges } from "./status-badges";

export function sectionLabel(section: ProjectSection) {
  return PROJECT_SECTIONS.find((s) => s.section === section)?.label ?? section;
}

/**
 * A project navigation page (/sites/{section}/{studioId}) laid out like the others: the project
 * navigation, the page's own sections, then what the project knows.
 */
export function ProjectSectionPage({
  section,
  project,
  children,
}: {
  section: ProjectSection;
  project: ProjectView;
  /** The page's own sections. */
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
      <ProjectFacts project={project} />
    </article>
  );
}
