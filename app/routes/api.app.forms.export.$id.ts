import { NotFoundError } from "~/services/core";
import { exportSubmissionsCsv, studioIdOfForm } from "~/services/forms/index.server";
import { apiRoute } from "~/web/api.server";

/**
 * GET /api/app/forms/export/{id}: every submission of the form as CSV, streamed as the database
 * hands the rows over (the Forms page's Export, for scripts: `stackshift forms export`).
 * Everyone who sees the project; 404 for a form that is not there or hidden.
 */
const api = apiRoute({
  GET: async ({ params, user }) => {
    const formId = params.id ?? "";
    const studioId = await studioIdOfForm(formId);
    if (!studioId) throw new NotFoundError("Form not found");
    const { filename, stream } = await exportSubmissionsCsv(user, studioId, formId);
    return new Response(stream, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Cache-Control": "private, no-store",
      },
    });
  },
});

export const loader = api.loader;
export const action = api.action;
