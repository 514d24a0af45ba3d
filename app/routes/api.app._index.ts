import { listProjects } from "~/services/projects.server";
import { listProjectsSchema } from "~/services/projects.schema";
import { apiRoute, queryInput } from "~/web/api.server";

/**
 * GET /api/app?cursor&limit&query[&scope=all] -> { data, nextCursor } (the project list, read
 * page by page as it scrolls; scope=all lists every project for platform admins).
 */
const api = apiRoute({
  GET: async ({ request, user }) => {
    const input = queryInput(request, listProjectsSchema, ["cursor", "limit", "query", "scope"]);
    return Response.json(await listProjects(user, input));
  },
});

export const loader = api.loader;
export const action = api.action;
