import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { ProjectFrame, type ProjectFrameData } from "~/components/project-dashboard/project-frame";
import { toProjectView } from "~/components/project-dashboard/project-view";
import { overlayShouldRevalidate } from "~/components/shell/shell-helpers";
import { requireProjectMemberOrInvitee } from "~/web/project-loader.server";

/**
 * The parent of every project page (the routes named `_app._project.*`): no address of its own,
 * so /sites/{studioId}, /sites/{section}/{studioId} and the rest keep theirs. It checks who may
 * see the project and loads it once per page view: the pages' own loaders ask again for their
 * own data, and the request's memo (request-memo.server.ts) answers them from this read. Its
 * owner, members and support see the project; its invitee gets null here and the invitation
 * card from the dashboard (every other page answers them 404); everyone else 404, so project
 * ids cannot be probed.
 */
export async function loader({ request, params }: LoaderFunctionArgs): Promise<ProjectFrameData> {
  const access = await requireProjectMemberOrInvitee(request, params.studioId);
  const now = new Date();
  return {
    project: access.invitation ? null : toProjectView(access.project, now),
    now: now.toISOString(),
  };
}

/**
 * Having no address, this route counts as the same one on every project page: another project
 * must reload it (the default would not). Opening a dialog reloads nothing, as on the pages.
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  args.currentParams.studioId !== args.nextParams.studioId || overlayShouldRevalidate(args);

export { ProjectErrorBoundary as ErrorBoundary } from "~/components/project-dashboard/project-frame";

export default function ProjectLayout() {
  const { project } = useLoaderData<typeof loader>();
  return (
    <ProjectFrame project={project}>
      <Outlet />
    </ProjectFrame>
  );
}
