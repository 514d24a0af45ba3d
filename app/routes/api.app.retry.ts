import type { ActionFunctionArgs } from "@remix-run/node";
import { retryDeploymentSchema } from "~/services/deployments.schema";
import { retryDeployment } from "~/services/deployments.server";
import { apiPost, methodNotAllowed } from "~/web/api.server";

export const loader = () => methodNotAllowed("POST");

/**
 * POST /api/app/retry {name, idempotencyKey}: retries a failed deployment. 202 with the
 * retry count; 404 for projects the caller cannot see; 409 when it has not failed, or after 3
 * failed retries (a permanent 'Deployment Error', handled manually).
 */
export function action({ request }: ActionFunctionArgs) {
  return apiPost(request, retryDeploymentSchema, async (user, input) => {
    return Response.json(await retryDeployment(user, input), { status: 202 });
  });
}
