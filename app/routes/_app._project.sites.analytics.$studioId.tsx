import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AnalyticsSections } from "~/components/analytics/analytics-sections";
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { projectTitle } from "~/components/project-dashboard/project-frame";
import { parseRange } from "~/services/analytics";
import { getAnalytics } from "~/services/analytics/index.server";
import { projectDataDigest } from "~/services/projects/index.server";
import { sectionVersion } from "~/web/section-version.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  projectTitle(matches, "Analytics");

/**
 * /sites/analytics/{studioId}: the hosted site's page views for a period (?days=7|30|90, or
 * ?from=&to=; the last 30 days by default), counted without cookies or personal data.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  const now = new Date();
  const choice = parseRange(new URL(request.url).searchParams, now);
  // Read before the counts: a view counted meanwhile makes the next version check differ.
  const digest = await projectDataDigest(project._id, "analytics");
  return {
    choice,
    analytics: await getAnalytics(user, project.studioId, choice.range),
    dataVersion: sectionVersion(digest),
  };
}

export default function AnalyticsPage() {
  const { choice, analytics, dataVersion } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage section="analytics" dataVersion={dataVersion}>
      <AnalyticsSections view={analytics} choice={choice} />
    </ProjectSectionPage>
  );
}
