import { onWebhooksProject, redeliver } from "~/services/webhooks/index.server";
import { apiRoute } from "~/web/api.server";

/**
 * POST /api/app/webhooks/{id}/deliveries/{deliveryId}/redeliver: sends the delivery again now,
 * with the same webhook-id (202 {ok: true}: queued; its log shows the outcome).
 */
const api = apiRoute({
  POST: async ({ params, user }) => {
    const id = params.id ?? "";
    await onWebhooksProject(id, (projectId) =>
      redeliver(user, projectId, params.deliveryId ?? "", id),
    );
    return Response.json({ ok: true }, { status: 202 });
  },
});

export const loader = api.loader;
export const action = api.action;
