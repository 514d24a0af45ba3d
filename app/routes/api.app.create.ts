import type { ActionFunctionArgs } from "@remix-run/node";
import { createProjectSchema } from "~/services/projects.schema";
import { createProjectAndProvision } from "~/services/lifecycle/provision.server";
import { apiPost, methodNotAllowed } from "~/web/api.server";

export const loader = () => methodNotAllowed("POST");

/**
 * POST /api/app/create {name, siteType, idempotencyKey}: 201 with the new project, or 200 with
 * the same project when the key was used before.
 */
export function action({ request }: ActionFunctionArgs) {
  return apiPost(request, createProjectSchema, async (user, input) => {
    const { project, created } = await createProjectAndProvision(user, input);
    return Response.json(project, { status: created ? 201 : 200 });
  });
}
