import { stripeListBodySchema, stripeListQuerySchema } from "~/services/integrations";
import { listAccountResource } from "~/services/integrations/index.server";
import { apiRoute, jsonBody, queryInput } from "~/web/api.server";

/**
 * POST /api/payments/stripe?resource=products|prices&action=list {accountId, active?, limit?,
 * startingAfter?, product?} -> {statusCode: 200, data: [...], hasMore}. The account's stored key
 * reads Stripe (decision 016: no key in the body); 404 for an account the caller cannot see,
 * 502/503 when Stripe refuses or does not answer.
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    const query = queryInput(request, stripeListQuerySchema, ["resource", "action"]);
    const input = await jsonBody(request, stripeListBodySchema, 8 * 1024);
    const page = await listAccountResource(user, query.resource, input);
    return Response.json({ statusCode: 200, ...page });
  },
});

export const loader = api.loader;
export const action = api.action;
