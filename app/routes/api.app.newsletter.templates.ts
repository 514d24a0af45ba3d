import { saveTemplateApiSchema, TEMPLATE_BODY_MAX_BYTES } from "~/services/newsletter";
import { saveTemplate } from "~/services/newsletter/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/**
 * POST /api/app/newsletter/templates {studioId, name, subject, body}: saves a newsletter
 * template (201 with it). The owner, admins and platform admins; 409 when the name is taken in
 * the project or it keeps the most templates already (decision 045).
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    // The body at its limit, escaped as JSON, with room for the other fields.
    const input = await jsonBody(request, saveTemplateApiSchema, 2 * TEMPLATE_BODY_MAX_BYTES);
    const { studioId, ...template } = input;
    return Response.json(await saveTemplate(user, studioId, template), { status: 201 });
  },
});

export const loader = api.loader;
export const action = api.action;
