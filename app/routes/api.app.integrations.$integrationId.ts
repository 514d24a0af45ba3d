import { InvalidError, NotFoundError } from "~/services/core";
import { InvalidLinkStateError } from "~/services/integrations/index.server";
import { completeStripeConnect } from "~/services/integrations/index.server";
import { socialExchangeApiSchema, socialUnlinkApiSchema } from "~/services/integrations";
import { completeInstagramLink, unlinkSocialAccount } from "~/services/integrations/index.server";
import { integrationBySlug } from "~/services/integrations";
import {
  addPaymentAccountSchema,
  paymentsApiSchema,
  paymentsQuerySchema,
} from "~/services/integrations";
import {
  addPaymentAccount,
  listPaymentAccounts,
  removePaymentAccount,
  resolveStudioRef,
  type PaymentAccountView,
} from "~/services/integrations/index.server";
import { apiRoute, jsonBody, methodNotAllowed, queryInput, type ApiArgs } from "~/web/api.server";
import { parseInput } from "~/web/http.server";
import { getSession } from "~/web/session.server";

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
async function getAccounts({ request, params, user }: ApiArgs) {
  requirePayments(params.integrationId);
  const query = queryInput(request, paymentsQuerySchema, ["action", "studioSanityId", "studioId"]);
  const view = await listPaymentAccounts(user, await resolveStudioRef(query));
  return Response.json({ accounts: view.accounts.map(accountBody) });
}

/**
 * POST /api/app/integrations/payments: `add-account` {studio, stripeAccounts: {accountName,
 * stripePKey, stripeSKey, apiVersion}} -> 201 {ok, account}, 400 with the field's message when
 * Stripe refuses the key; `connect-account` {studio, authorizationCode, state} -> 201 (the Stripe
 * Connect return page's exchange; 409 when that account is linked already); `remove-account`
 * {studio, account: {stripePKey | accountName | id}} -> 200 {ok} (404 when no account fits, 400
 * when several share the name). The owner, member admins and platform admins; 403 for
 * other members, 404 for everyone else.
 *
 * POST /api/app/integrations/social-accounts: `exchange_token` {integration: {platform:
 * instagram}, pageBuilderId, authorizationCode, state} -> 201 {ok, account} (409 when that user
 * name is linked already, 400 when the state is not one this session started for the project).
 */
async function post({ request, params, user }: ApiArgs) {
  if (integrationOf(params.integrationId) === "social-accounts") {
    const input = await jsonBody(request, socialExchangeApiSchema);
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
  const input = await jsonBody(request, paymentsApiSchema);
  const studioId = await resolveStudioRef({
    studioId: input.studio.pagebuilderId,
    studioSanityId: input.studio.projectId,
  });
  if (input.action === "remove-account") {
    const { id, accountName, stripePKey } = input.account;
    await removePaymentAccount(user, studioId, { id, accountName, stripePKey });
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
}

/**
 * PATCH /api/app/integrations/social-accounts: `unlink_account` {pageBuilderId} -> 200 {ok}: the
 * account `integration.account.userName` names, else the project's only one; `accountId` or
 * `userName` when it has several (else 400). Payments take no PATCH.
 */
async function patch({ request, params, user }: ApiArgs) {
  if (integrationOf(params.integrationId) !== "social-accounts") {
    return methodNotAllowed("GET, POST");
  }
  const input = await jsonBody(request, socialUnlinkApiSchema);
  const studioId = await resolveStudioRef({
    studioId: input.pageBuilderId,
    studioSanityId: input.sanityProjectId,
  });
  await unlinkSocialAccount(user, studioId, input);
  return Response.json({ ok: true });
}

const api = apiRoute({ GET: getAccounts, POST: post, PATCH: patch });

/**
 * The body names the project and the state separately; a state must be for that project (it
 * starts with its id), so one of another project is refused like a forged one.
 */
function stateFor(studioId: string, state: string) {
  if (!studioId || !state.startsWith(`${studioId}.`)) throw new InvalidLinkStateError();
  return state;
}

export const loader = api.loader;
export const action = api.action;
