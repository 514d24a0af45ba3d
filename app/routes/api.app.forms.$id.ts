import type { LoaderFunctionArgs } from "@remix-run/node";
import { listSubmissions, studioIdOfForm } from "~/services/forms.server";
import { NotFoundError } from "~/services/errors";
import { handleApi } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/**
 * GET /api/app/forms/{id}[?q=&after=]: the form (settings and submission count) and a page of
 * its submissions, newest first, with the cursor of the next. Everyone who sees the project.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const formId = params.id ?? "";
    const studioId = await studioIdOfForm(formId);
    if (!studioId) throw new NotFoundError("Form not found");
    const search = new URL(request.url).searchParams;
    const view = await listSubmissions(user, studioId, {
      formId,
      q: search.get("q") ?? undefined,
      after: search.get("after") ?? undefined,
    });
    return Response.json({
      form: view.form,
      submissions: view.rows,
      nextCursor: view.nextCursor,
    });
  });
}
