import type { ActionFunctionArgs } from "@remix-run/node";
import { requestDeploymentSchema } from "~/services/deployments.schema";
import { requestDeployment } from "~/services/deployments.server";
import { handleApi, parseInput, readJson } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

const notAllowed = () =>
  Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });

export function loader() {
  return notAllowed();
}

/**
 * POST /api/app/deployments {id}: deploys the project (its _id or studioId) now. 202: the
 * deployment is queued and follows on the dashboard. 404 for non-members, 409 while the site is
 * still being created or after a failure (retry instead).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return notAllowed();
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const input = parseInput(requestDeploymentSchema, await readJson(request, 16 * 1024));
    return Response.json(await requestDeployment(user, input.id), { status: 202 });
  });
}
