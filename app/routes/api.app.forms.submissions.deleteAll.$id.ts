import type { ActionFunctionArgs } from "@remix-run/node";
import { InvalidError, NotFoundError } from "~/services/errors";
import { submissionsDeleteApiSchema } from "~/services/forms.schema";
import { deleteAllSubmissions, studioIdOfForm } from "~/services/forms.server";
import { methodNotAllowed } from "~/web/api.server";
import { handleApi, parseInput, readJson } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/** POST /api/app/forms/submissions/deleteAll/{formId} {formId}: deletes every submission. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method.toUpperCase() !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const input = parseInput(submissionsDeleteApiSchema, await readJson(request, 16 * 1024));
    if (input.formId !== params.id) throw new InvalidError("formId must be the form of the path");
    const studioId = await studioIdOfForm(input.formId);
    if (!studioId) throw new NotFoundError("Form not found");
    const deleted = await deleteAllSubmissions(user, studioId, input.formId);
    return Response.json({ ok: true, deleted });
  });
}

export const loader = () => methodNotAllowed("POST");
