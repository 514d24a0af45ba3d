import type { LoaderFunctionArgs } from "@remix-run/node";
import { NotFoundError } from "~/services/core";
import { exportSubmissionsCsv, studioIdOfForm } from "~/services/forms/index.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";

/**
 * GET /resources/forms-export/{formId}: the form's submissions as CSV, streamed as the
 * database hands them over (memory stays flat at any size). Everyone who sees the project.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const studioId = await studioIdOfForm(params.formId ?? "");
    const { filename, stream } = await exportSubmissionsCsv(user, studioId, params.formId ?? "");
    return new Response(stream, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}
