import type { ActionFunctionArgs } from "@remix-run/node";
import { NotFoundError } from "~/services/errors";
import { formSettingsApiSchema, formSettingsSchema } from "~/services/forms.schema";
import { listForms, saveFormSettings, studioIdOfForm } from "~/services/forms.server";
import { methodNotAllowed } from "~/web/api.server";
import { handleApi, parseInput, readJson } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/**
 * POST /api/app/forms/settings {formId, enabled?, notificationEmails?, redirectUrl?}: changes
 * what is given and keeps the rest. The owner, admins and platform admins.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method.toUpperCase() !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const input = parseInput(formSettingsApiSchema, await readJson(request, 16 * 1024));
    const studioId = await studioIdOfForm(input.formId);
    if (!studioId) throw new NotFoundError("Form not found");
    const current = (await listForms(user, studioId)).forms.find((f) => f.id === input.formId)!;
    const merged = parseInput(formSettingsSchema, {
      formId: input.formId,
      enabled: input.enabled ?? current.enabled,
      notificationEmails: (input.notificationEmails ?? current.notificationEmails).join(","),
      redirectUrl:
        input.redirectUrl === undefined ? (current.redirectUrl ?? "") : (input.redirectUrl ?? ""),
    });
    await saveFormSettings(user, studioId, merged);
    const form = (await listForms(user, studioId)).forms.find((f) => f.id === input.formId);
    return Response.json({ ok: true, form });
  });
}

export const loader = () => methodNotAllowed("POST");
