import { addWebhook, listWebhooks } from "~/services/webhooks/index.server";
import { webhookApiInputSchema, webhookQuerySchema } from "~/services/webhooks";
import { apiRoute, jsonBody, queryInput } from "~/web/api.server";
import { requireRecentProof } from "~/web/proof.server";

/**
 * GET /api/app/webhooks?studioId=: the project's webhooks ({data}); POST {studioId, url, events,
 * format}: adds one (201 with its `whsec_` secret, the only time it is shown). The owner and
 * admins; a bad or non-public address is a 400 naming `url`. With a session cookie it needs a
 * recent proof (403 otherwise, decision 039); a personal access token does not.
 */
const api = apiRoute({
  GET: async ({ request, user }) => {
    const { studioId } = queryInput(request, webhookQuerySchema, ["studioId"]);
    return Response.json({ data: await listWebhooks(user, studioId) });
  },
  POST: async ({ request, user }) => {
    const { studioId, ...input } = await jsonBody(request, webhookApiInputSchema);
    await requireRecentProof(request, user);
    return Response.json(await addWebhook(user, studioId, input), { status: 201 });
  },
});

export const loader = api.loader;
export const action = api.action;
