import { listDeploymentsSchema } from "~/services/deployments";
import {
  listProjectDeployments,
  toDeploymentListEntity,
} from "~/services/deployments/index.server";
import { apiRoute, queryInput } from "~/web/api.server";

/**
 * GET /api/deployments/{studioId}?page={n} (first hosting provider) or ?next= / ?prev= (second):
 * `{results, latestDeployment, pagination: {prev, next}, isSiteOnVercel}`, deployments as
 * `DeploymentEntity` (deployments.server.ts) names their fields. 400 for a bad page or cursor, 404
 * for non-members, 502/503 when the hosting provider fails.
 */
const api = apiRoute({
  GET: async ({ request, params, user }) => {
    const query = queryInput(request, listDeploymentsSchema, ["page", "next", "prev"]);
    // A hosting provider failure is an UpstreamError: apiRoute answers 502/503 with Retry-After.
    const list = await listProjectDeployments(user, params.studioId ?? "", query);
    return Response.json(toDeploymentListEntity(list));
  },
});

export const loader = api.loader;
export const action = api.action;
