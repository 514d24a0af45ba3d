import { useParams, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { isNotFound, RouteError } from "~/components/route-error";
import { PROJECT_SECTIONS, ProjectNav, type ProjectSection } from "./project-nav";
import { ProjectFacts } from "./project-sections";
import type { ProjectView } from "./project-view";
import { PAGE_REFRESH_INTERVAL_MS } from "./refresh";
import { StatusBadges } from "./status-badges";
import { useSmartRefresh } from "./use-smart-refresh";

export function sectionLabel(section: ProjectSection) {
  return PROJECT_SECTIONS.find((s) => s.section === section)?.label ?? section;
}

/**
 * The frame of every project navigation page (/sites/{section}/{studioId}): the project
 * navigation, a header with the project's name, the section's title and what the page is for,
 * then the page's own sections. `status` adds the project's badges to the header and what the
 * project knows below the sections (the Settings page's summary).
 *
 * The page keeps itself current: every 60 s (while visible and someone is there) it asks
 * GET /sites/{id}/version?section= whether its data version is still `dataVersion`, and
 * reloads its data only when not (useSmartRefresh; app/web/section-version.server.ts).
 */
export function ProjectSectionPage({
  section,
  project,
  dataVersion,
  description,
  status = false,
  children,
}: {
  section: ProjectSection;
  project: ProjectView;
  /** The page's data version, from its loader (sectionVersion). */
  dataVersion: string;
  description?: ReactNode;
  status?: boolean;
  /** The page's own sections. */
  children?: ReactNode;
}) {
  useSmartRefresh(
    {
      url: `/sites/${encodeURIComponent(project.studioId)}/version?section=${section}`,
      version: dataVersion,
    },
    { intervalMs: PAGE_REFRESH_INTERVAL_MS },
  );
  return (
    <article className="space-y-8">
      <ProjectNav studioId={project.studioId} publishedUrl={project.publishedUrl} />
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

/**
 * The error boundary of the project dashboard and of every project navigation page: the error
 * in place of the page, under the project navigation, so the way to the project's other pages
 * stays (the shell's boundary keeps the top bar). A 404 is a project this person cannot see:
 * 'Not found', without the navigation of a project that is not theirs. The published site's
 * link is left out: its address came with the data that failed to load.
 */
export function ProjectErrorBoundary() {
  const error = useRouteError();
  const { studioId } = useParams();
  return (
    <article className="space-y-8">
      {studioId && !isNotFound(error) ? (
        <ProjectNav studioId={studioId} publishedUrl={null} />
      ) : null}
      <RouteError error={error} />
    </article>
  );
}
