import { NotFoundError } from "~/services/core";
import { formSettingsApiSchema, formSettingsSchema } from "~/services/forms";
import { listForms, saveFormSettings, studioIdOfForm } from "~/services/forms/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";
import { parseInput } from "~/web/http.server";

/**
 * POST /api/app/forms/settings {formId, enabled?, notificationEmails?, redirectUrl?}: changes
 * what is given and keeps the rest. The owner, admins and platform admins.
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    const input = await jsonBody(request, formSettingsApiSchema);
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
  },
});

export const loader = api.loader;
export const action = api.action;
