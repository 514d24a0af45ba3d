import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { toProjectView } from "~/components/project-dashboard/project-view";
import {
  REDEPLOY_INTENT,
  ROLLBACK_INTENT,
  WebsiteSections,
} from "~/components/website/website-sections";
import { ServiceError } from "~/services/errors";
import { getWebsite, redeploy, rollBack } from "~/services/website.server";
import { formReply, readForm } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { ProjectNotFoundError } from "~/services/permissions.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Website | ${data.project.name} | StackShift` : "Website | StackShift" },
];

/** /sites/website/{studioId}: the site's addresses, published deployment, Redeploy, Roll back. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  return {
    project: toProjectView(project, new Date()),
    website: await getWebsite(user, project.studioId),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const page = `/sites/website/${encodeURIComponent(studioId)}`;
  const formData = await readForm(request, 4 * 1024);
  const intent = formData.get("intent");
  try {
    if (intent === REDEPLOY_INTENT) {
      await redeploy(user, studioId);
      return redirectWithToast(page, {
        type: "success",
        title: "Redeploy started",
        description: "The new deployment shows in Site Builds and is published when ready.",
      });
    }
    if (intent === ROLLBACK_INTENT) {
      const deployId = String(formData.get("deployId") ?? "").slice(0, 200);
      const restored = await rollBack(user, studioId, deployId);
      return redirectWithToast(page, {
        type: "success",
        title: "Website rolled back",
        description: `Deployment ${restored.title || restored.id} is published again.`,
      });
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error instanceof ProjectNotFoundError) notFound();
    return redirectWithToast(page, {
      type: "error",
      title: intent === REDEPLOY_INTENT ? "Redeploy failed" : "Roll back failed",
      description: error.message,
    });
  }
  return formReply({ result: { status: "error", error: { "": ["Unknown form"] } } }, 400);
}

export { ProjectErrorBoundary as ErrorBoundary } from "~/components/project-dashboard/section-page";

export default function WebsitePage() {
  const { project, website } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage section="website" project={project}>
      <WebsiteSections view={website} />
    </ProjectSectionPage>
  );
}
