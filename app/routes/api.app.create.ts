import { createProjectSchema } from "~/services/projects";
import { createProjectAndProvision } from "~/services/lifecycle/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/**
 * POST /api/app/create {name, siteType, idempotencyKey}: 201 with the new project, or 200 with
 * the same project when the key was used before.
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    const input = await jsonBody(request, createProjectSchema);
    const { project, created } = await createProjectAndProvision(user, input);
    return Response.json(project, { status: created ? 201 : 200 });
  },
});

export const loader = api.loader;
export const action = api.action;
