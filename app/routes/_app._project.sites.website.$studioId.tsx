import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { projectTitle } from "~/components/project-dashboard/project-frame";
import {
  REDEPLOY_INTENT,
  ROLLBACK_INTENT,
  WebsiteSections,
} from "~/components/website/website-sections";
import { projectDataDigest } from "~/services/projects/index.server";
import { getWebsite, redeploy, rollBack } from "~/services/deployments/index.server";
import { sectionVersion } from "~/web/section-version.server";
import { dispatchIntent } from "~/web/intents.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) => projectTitle(matches, "Website");

/** /sites/website/{studioId}: the site's addresses, published deployment, Redeploy, Roll back. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  // Read before the sections: a change landing meanwhile makes the next version check differ.
  const digest = await projectDataDigest(project._id, "website");
  const website = await getWebsite(user, project.studioId);
  return {
    website,
    // What the 60 s refresh compares with /sites/{id}/version?section=website.
    dataVersion: sectionVersion(digest, website),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const page = `/sites/website/${encodeURIComponent(studioId)}`;
  return dispatchIntent(
    request,
    {
      [REDEPLOY_INTENT]: async () => {
        await redeploy(user, studioId);
        return redirectWithToast(page, {
          type: "success",
          title: "Redeploy started",
          description: "The new deployment shows in Site Builds and is published when ready.",
        });
      },
      [ROLLBACK_INTENT]: async ({ formData }) => {
        const deployId = String(formData.get("deployId") ?? "").slice(0, 200);
        const restored = await rollBack(user, studioId, deployId);
        return redirectWithToast(page, {
          type: "success",
          title: "Website rolled back",
          description: `Deployment ${restored.title || restored.id} is published again.`,
        });
      },
    },
    {
      maxBytes: 4 * 1024,
      onError: (error, { intent }) =>
        redirectWithToast(page, {
          type: "error",
          title: intent === REDEPLOY_INTENT ? "Redeploy failed" : "Roll back failed",
          description: error.message,
        }),
    },
  );
}

export default function WebsitePage() {
  const { website, dataVersion } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage section="website" dataVersion={dataVersion}>
      <WebsiteSections view={website} />
    </ProjectSectionPage>
  );
}
