import { redirect } from "@remix-run/node";
import { getDeploymentStatus } from "~/services/deployments/index.server";
import { NotFoundError } from "~/services/core";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";

/** The two deployment pages under /sites/{studioId}/. */
export type DeploymentPage = "failed-deployment" | "deployment-error";

const sitePath = (studioId: string) => `/sites/${encodeURIComponent(studioId)}`;

/**
 * The check both deployment pages start with: a session, the project for its viewers (else 404),
 * and the page that fits its state. A failed project belongs on 'failed-deployment', one with a
 * permanent error (the retries used up) on 'deployment-error', any other on its dashboard; a
 * request for another page is redirected there.
 */
export async function requireDeploymentPage(
  request: Request,
  studioId: string | undefined,
  page: DeploymentPage,
) {
  const user = await requireUser(request);
  let status;
  try {
    status = await getDeploymentStatus(user, studioId ?? "");
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const belongs: DeploymentPage | null = status.permanent
    ? "deployment-error"
    : status.failed
      ? "failed-deployment"
      : null;
  if (belongs !== page) {
    const site = sitePath(status.studioId);
    throw redirect(belongs ? `${site}/${belongs}` : site);
  }
  return { user, status };
}
