import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ActivityLogSection } from "~/components/activity/activity-log";
import { ACTIVITY_ANCHOR } from "~/components/activity/activity-query";
import { requireProjectMember } from "~/web/project-loader.server";
import { projectTitle, useProject } from "~/components/project-dashboard/project-frame";
import { ACTIVITY_MAX_LIMIT, listActivity } from "~/services/activity/index.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  projectTitle(matches, "Activity Log");

/**
 * /sites/{studioId}/activity: the project's whole activity log (up to 1000 events), for the
 * owner and members (others 404). The dashboard's 'Show more' loads this once JavaScript runs.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  const { entries, total } = await listActivity(user, project.studioId, {
    limit: ACTIVITY_MAX_LIMIT,
  });
  return {
    entries,
    total,
    now: new Date().toISOString(),
  };
}

export default function ActivityPage() {
  const { entries, total, now } = useLoaderData<typeof loader>();
  const project = useProject();
  const dashboard = `/sites/${encodeURIComponent(project.studioId)}`;
  return (
    <article className="space-y-6">
      <header className="space-y-1">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Link to={`${dashboard}#${ACTIVITY_ANCHOR}`} className="text-brand underline">
            {project.name}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Everything that happened</h1>
      </header>
      <ActivityLogSection
        entries={entries}
        total={total}
        expanded
        studioId={project.studioId}
        now={now}
        collapseHref={`${dashboard}#${ACTIVITY_ANCHOR}`}
      />
    </article>
  );
}
