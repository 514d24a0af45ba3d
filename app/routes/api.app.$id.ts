import type { LoaderFunctionArgs } from "@remix-run/node";
import { getProject } from "~/services/projects.server";
import { handleApi } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

/** GET /api/app/{id}: one project by _id or studioId; 404 for anyone but its owner and members. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    return Response.json(await getProject(user, params.id ?? ""));
  });
}
