import { listProjectEntities } from "~/services/projects/index.server";
import { listProjectsSchema } from "~/services/projects";
import { apiRoute, queryInput } from "~/web/api.server";

/**
 * GET /api/app?cursor&limit&query[&scope=all] -> { data, nextCursor } (the project list, read
 * page by page as it scrolls; scope=all lists every project for platform admins). Each row is the
 * Project entity (`_id`, `_createdAt`, `_updatedAt`, ...) with the list's badge.
 */
const api = apiRoute({
  GET: async ({ request, user }) => {
    const input = queryInput(request, listProjectsSchema, ["cursor", "limit", "query", "scope"]);
    return Response.json(await listProjectEntities(user, input));
  },
});

export const loader = api.loader;
export const action = api.action;
