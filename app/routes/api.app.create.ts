import type { ActionFunctionArgs } from "@remix-run/node";
import { createProjectSchema } from "~/services/projects.schema";
import { createProjectAndProvision } from "~/services/provisioning.server";
import { handleApi, parseInput, readJson } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

const notAllowed = () =>
  Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });

export function loader() {
  return notAllowed();
}

/**
 * POST /api/app/create {name, siteType, idempotencyKey}: 201 with the new project, or 200 with
 * the same project when the key was used before.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return notAllowed();
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const input = parseInput(createProjectSchema, await readJson(request, 16 * 1024));
    const { project, created } = await createProjectAndProvision(user, input);
    return Response.json(project, { status: created ? 201 : 200 });
  });
}
