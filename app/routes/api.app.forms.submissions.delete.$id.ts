import type { ActionFunctionArgs } from "@remix-run/node";
import { NotFoundError } from "~/services/errors";
import { submissionsDeleteApiSchema } from "~/services/forms.schema";
import { deleteSubmission, studioIdOfForm } from "~/services/forms.server";
import { methodNotAllowed } from "~/web/api.server";
import { handleApi, parseInput, readJson } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/** POST /api/app/forms/submissions/delete/{submissionId} {formId}: deletes one submission. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method.toUpperCase() !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const input = parseInput(submissionsDeleteApiSchema, await readJson(request, 16 * 1024));
    const studioId = await studioIdOfForm(input.formId);
    if (!studioId) throw new NotFoundError("Form not found");
    if (!/^[0-9a-f-]{36}$/i.test(params.id ?? "")) throw new NotFoundError("Submission not found");
    await deleteSubmission(user, studioId, input.formId, params.id!);
    return Response.json({ ok: true });
  });
}

export const loader = () => methodNotAllowed("POST");
