import { onWebhooksProject, removeWebhook } from "~/services/webhooks/index.server";
import { apiRoute } from "~/web/api.server";

/** DELETE /api/app/webhooks/{id}: removes a webhook and its delivery log ({ok: true}). */
const api = apiRoute({
  DELETE: async ({ params, user }) => {
    const id = params.id ?? "";
    await onWebhooksProject(id, (projectId) => removeWebhook(user, projectId, id));
    return Response.json({ ok: true });
  },
});

export const loader = api.loader;
export const action = api.action;
