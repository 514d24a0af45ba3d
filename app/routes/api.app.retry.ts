import type { ActionFunctionArgs } from "@remix-run/node";
import { retryDeploymentSchema } from "~/services/deployments.schema";
import { retryDeployment } from "~/services/deployments.server";
import { handleApi, parseInput, readJson } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

const notAllowed = () =>
  Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });

export function loader() {
  return notAllowed();
}

/**
 * POST /api/app/retry {name, idempotencyKey}: retries a failed deployment. 202 with the
 * retry count; 404 for projects the caller cannot see; 409 when it has not failed, or after 3
 * failed retries (a permanent 'Deployment Error', handled manually).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return notAllowed();
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const input = parseInput(retryDeploymentSchema, await readJson(request, 16 * 1024));
    return Response.json(await retryDeployment(user, input), { status: 202 });
  });
}
