import type { LoaderFunctionArgs } from "@remix-run/node";
import { listDeploymentsSchema } from "~/services/deployments.schema";
import {
  HostingUnavailableError,
  listProjectDeployments,
  toDeploymentListEntity,
} from "~/services/deployments.server";
import { handleApi, parseInput } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

export function action() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "GET" } });
}

/**
 * GET /api/deployments/{studioId}?page={n} (first hosting provider) or ?next= / ?prev= (second):
 * `{results, latestDeployment, pagination: {prev, next}, isSiteOnVercel}`, deployments with the field
 * names of spec section 3. 400 for a bad page or
 * cursor, 404 for non-members, 502/503 when the hosting provider fails.
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
    try {
      const list = await listProjectDeployments(user, params.studioId ?? "", query);
      return Response.json(toDeploymentListEntity(list));
    } catch (error) {
      if (!(error instanceof HostingUnavailableError)) throw error;
      const retryAfter = error.retryAfterSeconds;
      return Response.json(
        { error: error.message },
        {
          status: error.retryable ? 503 : 502,
          headers: retryAfter === undefined ? undefined : { "Retry-After": String(retryAfter) },
        },
      );
    }
  });
}
