import type { LoaderFunctionArgs } from "@remix-run/node";
import { getProjectEntity } from "~/services/project-entity.server";
import { handleApi } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/**
 * GET /api/app/{id}: one project by _id or studioId, as the full project entity with members[],
 * eventLogs[] (the latest 20; ?eventLogsCursor= for older ones) and integrations[]. 404 for anyone
 * who cannot see the project.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const cursor = new URL(request.url).searchParams.get("eventLogsCursor") ?? undefined;
    return Response.json(
      await getProjectEntity(user, params.id ?? "", { eventLogsCursor: cursor || undefined }),
    );
  });
}
