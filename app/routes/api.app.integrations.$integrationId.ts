import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { InvalidError, NotFoundError } from "~/services/errors";
import { integrationBySlug } from "~/services/integration-catalog";
import {
  addPaymentAccountSchema,
  paymentsApiSchema,
  paymentsQuerySchema,
} from "~/services/payments.schema";
import {
  addPaymentAccount,
  listPaymentAccounts,
  removePaymentAccount,
  resolveStudioRef,
  type PaymentAccountView,
} from "~/services/payments.server";
import { methodNotAllowed } from "~/utils/api.server";
import { handleApi, parseInput, readJson } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

/** Only the payments integration has API calls here so far; anything else is 404. */
function requirePayments(integrationId: string | undefined) {
  if (integrationBySlug(integrationId)?.slug !== "payments") {
    throw new NotFoundError("Integration not found");
  }
}

/** The form's field names as this API's body names them. */
const API_FIELDS: Record<string, string> = {
  publishableKey: "stripeAccounts.stripePKey",
  secretKey: "stripeAccounts.stripeSKey",
  accountName: "stripeAccounts.accountName",
  apiVersion: "stripeAccounts.apiVersion",
};

function renamed(error: InvalidError): InvalidError {
  const fields = Object.fromEntries(
    Object.entries(error.fieldErrors).map(([key, messages]) => [API_FIELDS[key] ?? key, messages]),
  );
  return new InvalidError(error.message, fields);
}

/** The account as the API shows it: never the secret key, only its last four characters. */
const accountBody = (a: PaymentAccountView) => ({
  id: a.id,
  accountName: a.accountName,
  stripePKey: a.publishableKey,
  secretKeyLast4: a.secretKeyLast4,
  apiVersion: a.apiVersion,
  createdAt: a.createdAt,
});

/**
 * GET /api/app/integrations/payments?action=get-accounts&studioSanityId= (or &studioId=): the
 * project's Stripe accounts, for everyone who sees the project.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    requirePayments(params.integrationId);
    const search = new URL(request.url).searchParams;
    const query = parseInput(paymentsQuerySchema, {
      action: search.get("action") ?? undefined,
      studioSanityId: search.get("studioSanityId") || undefined,
      studioId: search.get("studioId") || undefined,
    });
    const view = await listPaymentAccounts(user, await resolveStudioRef(query));
    return Response.json({ accounts: view.accounts.map(accountBody) });
  });
}

/**
 * POST /api/app/integrations/payments: `add-account` {studio, stripeAccounts: {accountName,
 * stripePKey, stripeSKey, apiVersion}} -> 201 {ok, account}, 400 with the field's message when
 * Stripe refuses the key; `remove-account` {studio, account: {id}} -> 200 {ok}. The owner,
 * member admins and platform admins; 403 for other members, 404 for everyone else.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method.toUpperCase() !== "POST") return methodNotAllowed("GET, POST");
  return handleApi(async () => {
    const user = await requireApiUser(request);
    requirePayments(params.integrationId);
    const input = parseInput(paymentsApiSchema, await readJson(request, 16 * 1024));
    const studioId = await resolveStudioRef({
      studioId: input.studio.pagebuilderId,
      studioSanityId: input.studio.projectId,
    });
    if (input.action === "remove-account") {
      await removePaymentAccount(user, studioId, input.account.id);
      return Response.json({ ok: true });
    }
    try {
      const fields = parseInput(addPaymentAccountSchema, {
        accountName: input.stripeAccounts.accountName,
        publishableKey: input.stripeAccounts.stripePKey,
        secretKey: input.stripeAccounts.stripeSKey,
        apiVersion: input.stripeAccounts.apiVersion,
      });
      const account = await addPaymentAccount(user, studioId, fields);
      return Response.json({ ok: true, account: accountBody(account) }, { status: 201 });
    } catch (error) {
      throw error instanceof InvalidError ? renamed(error) : error;
    }
  });
}
