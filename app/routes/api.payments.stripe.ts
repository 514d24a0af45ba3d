import type { ActionFunctionArgs } from "@remix-run/node";
import { stripeListBodySchema, stripeListQuerySchema } from "~/services/payments.schema";
import { listAccountResource } from "~/services/payments.server";
import { methodNotAllowed } from "~/web/api.server";
import { handleApi, parseInput, readJson } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/**
 * POST /api/payments/stripe?resource=products|prices&action=list {accountId, active?, limit?,
 * startingAfter?, product?} -> {statusCode: 200, data: [...], hasMore}. The account's stored key
 * reads Stripe (decision 016: no key in the body); 404 for an account the caller cannot see,
 * 502/503 when Stripe refuses or does not answer.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method.toUpperCase() !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const search = new URL(request.url).searchParams;
    const query = parseInput(stripeListQuerySchema, {
      resource: search.get("resource") ?? undefined,
      action: search.get("action") ?? undefined,
    });
    const input = parseInput(stripeListBodySchema, await readJson(request, 8 * 1024));
    const page = await listAccountResource(user, query.resource, input);
    return Response.json({ statusCode: 200, ...page });
  });
}

export const loader = () => methodNotAllowed("POST");
