import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AnalyticsSections } from "~/components/analytics/analytics-sections";
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { toProjectView } from "~/components/project-dashboard/project-view";
import { parseRange } from "~/services/analytics.schema";
import { getAnalytics } from "~/services/analytics.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Analytics | ${data.project.name} | StackShift` : "Analytics | StackShift" },
];

/**
 * /sites/analytics/{studioId}: the hosted site's page views for a period (?days=7|30|90, or
 * ?from=&to=; the last 30 days by default), counted without cookies or personal data.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  const now = new Date();
  const choice = parseRange(new URL(request.url).searchParams, now);
  return {
    project: toProjectView(project, now),
    choice,
    analytics: await getAnalytics(user, project.studioId, choice.range),
  };
}

export { ProjectErrorBoundary as ErrorBoundary } from "~/components/project-dashboard/section-page";

export default function AnalyticsPage() {
  const { project, choice, analytics } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage section="analytics" project={project}>
      <AnalyticsSections view={analytics} choice={choice} />
    </ProjectSectionPage>
  );
}
