import { retryDeploymentSchema } from "~/services/deployments";
import { retryDeployment } from "~/services/deployments/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/**
 * POST /api/app/retry {name, idempotencyKey}: retries a failed deployment. 202 with the
 * retry count; 404 for projects the caller cannot see; 409 when it has not failed, or after 3
 * failed retries (a permanent 'Deployment Error', handled manually).
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    const input = await jsonBody(request, retryDeploymentSchema);
    return Response.json(await retryDeployment(user, input), { status: 202 });
  },
});

export const loader = api.loader;
export const action = api.action;
