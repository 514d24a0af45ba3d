import type { MetaDescriptor } from "@remix-run/node";
import { useParams, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { isNotFound, RouteError } from "~/components/route-error";
import { ProjectNav } from "./project-nav";
import type { ProjectView } from "./project-view";

/**
 * The route every project page lives under (app/routes/_app._project.tsx): it has no path of its
 * own, so the pages keep their addresses, and it loads the project once for all of them.
 */
export const PROJECT_ROUTE_ID = "routes/_app._project";

/** What the project route hands its pages: the project, or null for its invitee (dashboard). */
export type ProjectFrameData = { project: ProjectView | null; now: string };

/**
 * The project of the page being shown, from the project route. A project page renders only for
 * people who see the project (its own loader checks that too), so the project is always there;
 * an invitee reaches only the dashboard's invitation card, which does not call this.
 */
export function useProject(): ProjectView {
  const frame = useRouteLoaderData<ProjectFrameData>(PROJECT_ROUTE_ID);
  if (!frame?.project) throw new Error("useProject outside a project page");
  return frame.project;
}

/**
 * A project page's title: '{label} | {project} | StackShift', the project's name read from the
 * project route's data (the page's own data does not repeat it). Without the project (an error
 * before it loaded) the name is left out.
 */
export function projectTitle(
  matches: readonly { id: string; data: unknown }[],
  label: string | null,
): MetaDescriptor[] {
  const frame = matches.find((match) => match.id === PROJECT_ROUTE_ID)?.data as
    ProjectFrameData | undefined;
  const parts = [label, frame?.project?.name, "StackShift"].filter(Boolean);
  return [{ title: parts.length > 1 ? parts.join(" | ") : "Project | StackShift" }];
}

/**
 * The frame around every project page: the project navigation above the page. The invitee's
 * invitation card has no frame: nothing of the project is theirs to navigate yet.
 */
export function ProjectFrame({
  project,
  children,
}: {
  project: Pick<ProjectView, "studioId" | "publishedUrl"> | null;
  children: ReactNode;
}) {
  if (!project) return <>{children}</>;
  return (
    <div className="space-y-8">
      <ProjectNav studioId={project.studioId} publishedUrl={project.publishedUrl} />
      {children}
    </div>
  );
}

/**
 * The one error boundary of the project pages: the error in place of the page, under the project
 * navigation, so the way to the project's other pages stays (the shell's boundary keeps the top
 * bar). A 404 is a project this person cannot see: 'Not found', without the navigation of a
 * project that is not theirs. The published site's link comes with the project's data, when
 * that loaded.
 */
export function ProjectErrorBoundary() {
  const error = useRouteError();
  const { studioId } = useParams();
  const frame = useRouteLoaderData<ProjectFrameData>(PROJECT_ROUTE_ID);
  const project =
    frame?.project ?? (studioId ? { studioId, publishedUrl: null as string | null } : null);
  return (
    <ProjectFrame project={isNotFound(error) ? null : project}>
      <article>
        <RouteError error={error} />
      </article>
    </ProjectFrame>
  );
}
