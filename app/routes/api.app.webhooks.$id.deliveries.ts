import { listDeliveries, projectOfWebhook } from "~/services/webhooks/index.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/app/webhooks/{id}/deliveries: the webhook's delivery log, newest first ({data}). */
const api = apiRoute({
  GET: async ({ params, user }) => {
    const id = params.id ?? "";
    return Response.json({ data: await listDeliveries(user, await projectOfWebhook(id), id) });
  },
});

export const loader = api.loader;
export const action = api.action;
