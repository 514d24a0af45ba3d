import { NotFoundError } from "~/services/core";
import { submissionsDeleteApiSchema } from "~/services/forms";
import { deleteSubmission, studioIdOfForm } from "~/services/forms/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/** POST /api/app/forms/submissions/delete/{submissionId} {formId}: deletes one submission. */
const api = apiRoute({
  POST: async ({ request, params, user }) => {
    const input = await jsonBody(request, submissionsDeleteApiSchema);
    const studioId = await studioIdOfForm(input.formId);
    if (!studioId) throw new NotFoundError("Form not found");
    const submissionId = params.id ?? "";
    if (!/^[0-9a-f-]{36}$/i.test(submissionId)) throw new NotFoundError("Submission not found");
    await deleteSubmission(user, studioId, input.formId, submissionId);
    return Response.json({ ok: true });
  },
});

export const loader = api.loader;
export const action = api.action;
