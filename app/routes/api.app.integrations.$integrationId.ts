import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { InvalidError, NotFoundError } from "~/services/errors";
import { InvalidLinkStateError } from "~/services/oauth-links.server";
import { completeStripeConnect } from "~/services/payments.server";
import { socialExchangeApiSchema, socialUnlinkApiSchema } from "~/services/social-accounts.schema";
import { completeInstagramLink, unlinkSocialAccount } from "~/services/social-accounts.server";
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
import { methodNotAllowed } from "~/web/api.server";
import { handleApi, parseInput, readJson } from "~/web/http.server";
import { getSession, requireApiUser } from "~/web/session.server";

/** The integration of the path: payments or social-accounts; anything else is 404. */
function integrationOf(integrationId: string | undefined) {
  const entry = integrationBySlug(integrationId);
  if (!entry) throw new NotFoundError("Integration not found");
  return entry.slug;
}

function requirePayments(integrationId: string | undefined) {
  if (integrationOf(integrationId) !== "payments") throw new NotFoundError("Integration not found");
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
 * Stripe refuses the key; `connect-account` {studio, authorizationCode, state} -> 201 (the Stripe
 * Connect return page's exchange; 409 when that account is linked already); `remove-account`
 * {studio, account: {id}} -> 200 {ok}. The owner, member admins and platform admins; 403 for
 * other members, 404 for everyone else.
 *
 * POST /api/app/integrations/social-accounts: `exchange_token` {integration: {platform:
 * instagram}, pageBuilderId, authorizationCode, state} -> 201 {ok, account} (409 when that user
 * name is linked already, 400 when the state is not one this session started for the project).
 * PATCH: `unlink_account` {pageBuilderId} -> 200 {ok}: the account `integration.account.userName`
 * names, else the project's only one; `accountId` or `userName` when it has several (else 400).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const method = request.method.toUpperCase();
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const integration = integrationOf(params.integrationId);
    if (integration === "social-accounts") {
      if (method === "PATCH") {
        const input = parseInput(socialUnlinkApiSchema, await readJson(request, 16 * 1024));
        const studioId = await resolveStudioRef({
          studioId: input.pageBuilderId,
          studioSanityId: input.sanityProjectId,
        });
        await unlinkSocialAccount(user, studioId, input);
        return Response.json({ ok: true });
      }
      if (method !== "POST") return methodNotAllowed("POST, PATCH");
      const input = parseInput(socialExchangeApiSchema, await readJson(request, 16 * 1024));
      const studioId = await resolveStudioRef({
        studioId: input.pageBuilderId,
        studioSanityId: input.sanityProjectId,
      });
      const sessionId = (await getSession(request)).id ?? "";
      const linked = await completeInstagramLink(user, sessionId, {
        code: input.authorizationCode,
        state: stateFor(studioId, input.state),
      });
      return Response.json({ ok: true, account: linked.account }, { status: 201 });
    }
    if (method !== "POST") return methodNotAllowed("GET, POST");
    const input = parseInput(paymentsApiSchema, await readJson(request, 16 * 1024));
    const studioId = await resolveStudioRef({
      studioId: input.studio.pagebuilderId,
      studioSanityId: input.studio.projectId,
    });
    if (input.action === "remove-account") {
      await removePaymentAccount(user, studioId, input.account.id);
      return Response.json({ ok: true });
    }
    if (input.action === "connect-account") {
      const sessionId = (await getSession(request)).id ?? "";
      const connected = await completeStripeConnect(user, sessionId, {
        code: input.authorizationCode,
        state: stateFor(studioId, input.state),
      });
      return Response.json({ ok: true, account: accountBody(connected.account) }, { status: 201 });
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

/**
 * The body names the project and the state separately; a state must be for that project (it
 * starts with its id), so one of another project is refused like a forged one.
 */
function stateFor(studioId: string, state: string) {
  if (!studioId || !state.startsWith(`${studioId}.`)) throw new InvalidLinkStateError();
  return state;
}
