import { InvalidError, NotFoundError } from "~/services/core";
import { submissionsDeleteApiSchema } from "~/services/forms";
import { deleteAllSubmissions, studioIdOfForm } from "~/services/forms/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/** POST /api/app/forms/submissions/deleteAll/{formId} {formId}: deletes every submission. */
const api = apiRoute({
  POST: async ({ request, params, user }) => {
    const input = await jsonBody(request, submissionsDeleteApiSchema);
    if (input.formId !== params.id) throw new InvalidError("formId must be the form of the path");
    const studioId = await studioIdOfForm(input.formId);
    if (!studioId) throw new NotFoundError("Form not found");
    const deleted = await deleteAllSubmissions(user, studioId, input.formId);
    return Response.json({ ok: true, deleted });
  },
});

export const loader = api.loader;
export const action = api.action;
