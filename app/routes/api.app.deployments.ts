import type { ActionFunctionArgs } from "@remix-run/node";
import { requestDeploymentSchema } from "~/services/deployments.schema";
import { requestDeployment } from "~/services/deployments.server";
import { apiPost, methodNotAllowed } from "~/web/api.server";

export const loader = () => methodNotAllowed("POST");

/**
 * POST /api/app/deployments {id}: deploys the project (its _id or studioId) now. 202: the
 * deployment is queued and follows on the dashboard. 404 for non-members, 409 while the site is
 * still being created or after a failure (retry instead).
 */
export function action({ request }: ActionFunctionArgs) {
  return apiPost(request, requestDeploymentSchema, async (user, input) => {
    return Response.json(await requestDeployment(user, input.id), { status: 202 });
  });
}
