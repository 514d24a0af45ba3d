import { requestDeploymentSchema } from "~/services/deployments";
import { requestDeployment } from "~/services/deployments/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/**
 * POST /api/app/deployments {id}: deploys the project (its _id or studioId) now. 202: the
 * deployment is queued and follows on the dashboard. 404 for non-members, 409 while the site is
 * still being created or after a failure (retry instead).
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    const input = await jsonBody(request, requestDeploymentSchema);
    return Response.json(await requestDeployment(user, input.id), { status: 202 });
  },
});

export const loader = api.loader;
export const action = api.action;
