import type { LoaderFunctionArgs } from "@remix-run/node";
import { listProjects } from "~/services/projects.server";
import { listProjectsSchema } from "~/services/projects.schema";
import { handleApi, parseInput } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/**
 * GET /api/app?cursor&limit&query[&scope=all] -> { data, nextCursor } (the project list, read
 * page by page as it scrolls; scope=all lists every project for platform admins).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const params = new URL(request.url).searchParams;
    // An empty parameter means "not given", as an HTML form would send it.
    const input = parseInput(listProjectsSchema, {
      cursor: params.get("cursor") || undefined,
      limit: params.get("limit") || undefined,
      query: params.get("query") || undefined,
      scope: params.get("scope") || undefined,
    });
    return Response.json(await listProjects(user, input));
  });
}
