import { getProjectEntity } from "~/services/projects/index.server";
import { apiRoute } from "~/web/api.server";

/**
 * GET /api/app/{id}: one project by _id or studioId, as the full project entity with members[],
 * eventLogs[] (the latest 20; ?eventLogsCursor= for older ones) and integrations[]. 404 for anyone
 * who cannot see the project.
 */
const api = apiRoute({
  GET: async ({ request, params, user }) => {
    const cursor = new URL(request.url).searchParams.get("eventLogsCursor") || undefined;
    return Response.json(
      await getProjectEntity(user, params.id ?? "", { eventLogsCursor: cursor }),
    );
  },
});

export const loader = api.loader;
export const action = api.action;
