import { listDeliveries, onWebhooksProject } from "~/services/webhooks/index.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/app/webhooks/{id}/deliveries: the webhook's delivery log, newest first ({data}). */
const api = apiRoute({
  GET: async ({ params, user }) => {
    const id = params.id ?? "";
    const data = await onWebhooksProject(id, (projectId) => listDeliveries(user, projectId, id));
    return Response.json({ data });
  },
});

export const loader = api.loader;
export const action = api.action;
