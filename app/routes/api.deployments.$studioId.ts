import type { LoaderFunctionArgs } from "@remix-run/node";
import { listDeploymentsSchema } from "~/services/deployments.schema";
import { listProjectDeployments, toDeploymentListEntity } from "~/services/deployments.server";
import { handleApi, parseInput } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

export function action() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "GET" } });
}

/**
 * GET /api/deployments/{studioId}?page={n} (first hosting provider) or ?next= / ?prev= (second):
 * `{results, latestDeployment, pagination: {prev, next}, isSiteOnVercel}`, deployments as
 * `DeploymentEntity` (deployments.server.ts) names their fields. 400 for a bad page or cursor, 404
 * for non-members, 502/503 when the hosting provider fails.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const search = new URL(request.url).searchParams;
    const raw: Record<string, string> = {};
    for (const key of ["page", "next", "prev"]) {
      const value = search.get(key);
      if (value !== null && value.trim() !== "") raw[key] = value;
    }
    const query = parseInput(listDeploymentsSchema, raw);
    // A hosting provider failure is an UpstreamError: handleApi answers 502/503 with Retry-After.
    const list = await listProjectDeployments(user, params.studioId ?? "", query);
    return Response.json(toDeploymentListEntity(list));
  });
}
