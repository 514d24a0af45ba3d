import { listSubmissions, studioIdOfForm } from "~/services/forms/index.server";
import { NotFoundError } from "~/services/core";
import { apiRoute } from "~/web/api.server";
import { listParams } from "~/web/list-query";

/**
 * GET /api/app/forms/{id}[?q=&after=]: the form (settings and submission count) and a page of
 * its submissions, newest first, with the cursor of the next. Everyone who sees the project.
 */
const api = apiRoute({
  GET: async ({ request, params, user }) => {
    const formId = params.id ?? "";
    const studioId = await studioIdOfForm(formId);
    if (!studioId) throw new NotFoundError("Form not found");
    // The search and cursor as the Forms page reads them (the same list).
    const { query, cursor } = listParams(new URL(request.url).searchParams, { cursor: "after" });
    const view = await listSubmissions(user, studioId, {
      formId,
      q: query,
      after: cursor ?? undefined,
    });
    return Response.json({
      form: view.form,
      submissions: view.rows,
      nextCursor: view.nextCursor,
    });
  },
});

export const loader = api.loader;
export const action = api.action;
