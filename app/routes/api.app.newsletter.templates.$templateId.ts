import { renameTemplateApiSchema } from "~/services/newsletter";
import { deleteTemplate, renameTemplate } from "~/services/newsletter/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/**
 * PATCH /api/app/newsletter/templates/{templateId} {name}: renames a saved template (409 when
 * the name is taken); DELETE removes it ({ok: true}). The owner, admins and platform admins of
 * its project; a template of a project the caller does not see is 404.
 */
const api = apiRoute({
  PATCH: async ({ request, params, user }) => {
    const { name } = await jsonBody(request, renameTemplateApiSchema);
    return Response.json(await renameTemplate(user, params.templateId ?? "", name));
  },
  DELETE: async ({ params, user }) => {
    await deleteTemplate(user, params.templateId ?? "");
    return Response.json({ ok: true });
  },
});

export const loader = api.loader;
export const action = api.action;
