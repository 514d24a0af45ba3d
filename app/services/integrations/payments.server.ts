/**
 * Stripe payment accounts of a project: listed for everyone who sees the project, added (the
 * secret key checked with a product-list call first, then stored encrypted) by those who may
 * manage payments, removed by admins. The secret key never leaves the server.
 */
import { and, asc, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { paymentAccounts, projects } from "~/db/schema";
import { ProviderError } from "~/providers/errors";
import { paymentsProvider, stripeConnectRedirectUri } from "~/providers/payments/index.server";
import { PRODUCT_PREFIXES } from "~/providers/payments/product-prefixes";
import type { PaymentProduct } from "~/providers/payments/types";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { ConflictError, InvalidError, NotFoundError } from "~/services/core";
import { asUpstream, callProvider } from "~/services/core/index.server";
import { DEFAULT_STRIPE_API_VERSION, lastFour, PAYMENT_MESSAGES } from "./payment-rules";
import type { AddPaymentAccountInput, StripeListInput } from "./payments.schema";
import { beginLinkFor, completeLink, type LinkMode } from "./oauth-links.server";
import { consume } from "~/services/core/index.server";
import { cachedProviderRead } from "~/services/core/index.server";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";
import { log } from "~/utils/logger.server";

export type PaymentAccountView = {
  id: string;
  accountName: string;
  publishableKey: string;
  /** What is shown of the secret key. */
  secretKeyLast4: string;
  apiVersion: string;
  createdAt: string;
};

export type PaymentAccountsView = {
  projectName: string;
  studioId: string;
  accounts: PaymentAccountView[];
  canAdd: boolean;
  canRemove: boolean;
};

const accountView = (row: typeof paymentAccounts.$inferSelect): PaymentAccountView => ({
  id: row.id,
  accountName: row.accountName,
  publishableKey: row.publishableKey,
  secretKeyLast4: row.secretKeyLast4,
  apiVersion: row.apiVersion,
  createdAt: row.createdAt.toISOString(),
});

export async function listPaymentAccounts(
  user: User,
  studioId: string,
): Promise<PaymentAccountsView> {
  const { actor, project: row } = await projectForAction(user, studioId, "project.view");
  const accounts = await db()
    .select({
      id: paymentAccounts.id,
      accountName: paymentAccounts.accountName,
      publishableKey: paymentAccounts.publishableKey,
      secretKeyLast4: paymentAccounts.secretKeyLast4,
      apiVersion: paymentAccounts.apiVersion,
      createdAt: paymentAccounts.createdAt,
    })
    .from(paymentAccounts)
    .where(eq(paymentAccounts.projectId, row.id))
    .orderBy(asc(paymentAccounts.createdAt));
  return {
    projectName: row.name,
    studioId: row.studioId,
    accounts: accounts.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
    canAdd: can(actor, "payments.add"),
    canRemove: can(actor, "payments.remove"),
  };
}

/** The secret key did not pass Stripe's check (401): said beside the field and in the toast. */
export class InvalidPaymentKeyError extends InvalidError {
  constructor() {
    super(PAYMENT_MESSAGES.invalidKey, { secretKey: [PAYMENT_MESSAGES.invalidKey] });
  }
}

/**
 * Adds an account once its secret key reads the account's products (checks counted per project
 * and per user: POLICIES.stripeKeyChecks*). The check runs before the
 * transaction (a vendor call holds no row locks); the insert and its Activity Log entry commit
 * together, and the same publishable key twice in a project is a 409.
 */
export async function addPaymentAccount(
  user: User,
  studioId: string,
  input: AddPaymentAccountInput,
): Promise<PaymentAccountView> {
  // Checked here without a log entry; the transaction's authorisation writes support access once.
  const { project } = await projectForAction(user, studioId, "payments.add", { mode: "check" });
  // Each check tells whether a key is live: limited per project and per user, so the form is no
  // oracle for stolen keys (RateLimitedError, 429 with Retry-After).
  const what = "Too many Stripe keys checked.";
  await consume("stripeKeyChecksProject", project.id, { what });
  await consume("stripeKeyChecksUser", user.id, { what });
  try {
    await paymentsProvider().checkSecretKey(input.secretKey, input.apiVersion);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.details.status === 401) throw new InvalidPaymentKeyError();
    throw asUpstream(error, PAYMENT_MESSAGES.failedAdd, {
      log: { area: "payments", msg: "key check failed" },
    });
  }
  try {
    return await withProjectAction(user, project.id, "payments.add", async ({ tx }) => {
      const [row] = await tx
        .insert(paymentAccounts)
        .values({
          projectId: project.id,
          accountName: input.accountName,
          publishableKey: input.publishableKey,
          secretKeyEncrypted: encryptSecret(input.secretKey),
          secretKeyLast4: lastFour(input.secretKey),
          apiVersion: input.apiVersion,
          createdBy: user.id,
        })
        .returning();
      await logEvent(tx, {
        projectId: project.id,
        type: "payments.account.added",
        content: `${user.name || user.email} added the Stripe account ${input.accountName}`,
        actorId: user.id,
      });
      return accountView(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(PAYMENT_MESSAGES.duplicate);
    throw error;
  }
}

/**
 * Which account to remove: its id (the dashboard's form), or the specification's payment account
 * fields, `stripePKey` (one per project) or `accountName`. Each field given must fit the account.
 */
export type PaymentAccountRef = { id?: string; accountName?: string; stripePKey?: string };

/**
 * Removes one account of the project (admins, the owner, platform admins). An account no field
 * names is a 404; a name several accounts share, without `id` or `stripePKey`, is refused (400).
 */
export async function removePaymentAccount(
  user: User,
  studioId: string,
  ref: PaymentAccountRef,
): Promise<{ accountName: string }> {
  return withProjectAction(user, studioId, "payments.remove", async ({ project, tx }) => {
    const named = [
      eq(paymentAccounts.projectId, project.id),
      ref.id ? eq(paymentAccounts.id, ref.id) : undefined,
      ref.stripePKey ? eq(paymentAccounts.publishableKey, ref.stripePKey) : undefined,
      ref.accountName ? eq(paymentAccounts.accountName, ref.accountName) : undefined,
    ];
    const found = await tx
      .select({ id: paymentAccounts.id })
      .from(paymentAccounts)
      .where(and(...named))
      .limit(2);
    if (found.length === 0) throw new NotFoundError("This Stripe account is not in the project");
    if (found.length > 1) {
      throw new InvalidError(PAYMENT_MESSAGES.removeWhich, {
        "account.accountName": [PAYMENT_MESSAGES.removeWhich],
      });
    }
    const [removed] = await tx
      .delete(paymentAccounts)
      .where(eq(paymentAccounts.id, found[0].id))
      .returning({ accountName: paymentAccounts.accountName });
    if (!removed) throw new NotFoundError("This Stripe account is not in the project");
    await logEvent(tx, {
      projectId: project.id,
      type: "payments.account.removed",
      content: `${user.name || user.email} removed the Stripe account ${removed.accountName}`,
      actorId: user.id,
    });
    return removed;
  });
}

/** A product row of the viewer: what the two tabs show. */
export type ProductRow = {
  id: string;
  name: string;
  /** 'Recurring', 'One Time', or N/A without a price. */
  type: "Recurring" | "One Time" | "N/A";
  /** Dollars (unit amount / 100), or N/A. */
  price: string;
  created: number;
  updated: number;
};

export type ProductsTab = "active" | "archived";
export type ProductsView = {
  accountId: string;
  accountName: string;
  tab: ProductsTab;
  products: ProductRow[];
  /** The Stripe product the next page starts after, or null on the last page. */
  nextCursor: string | null;
  /** 'Failed to fetch Stripe Account products' when Stripe did not answer. */
  error: string | null;
};

const PRODUCTS_PAGE = 20;

const isRecognised = (id: string) =>
  (PRODUCT_PREFIXES as readonly string[]).includes(id.split("-")[0]);

export function toProductRow(product: PaymentProduct): ProductRow {
  const price = product.price;
  return {
    id: product.id,
    name: product.name,
    type: !price ? "N/A" : price.type === "recurring" ? "Recurring" : "One Time",
    price:
      price?.unit_amount == null
        ? "N/A"
        : `$${(price.unit_amount / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`,
    created: product.created,
    updated: product.updated,
  };
}

/**
 * One page of an account's products for the viewer (20 from Stripe at a time, `startingAfter`
 * the last one seen, so an account with thousands is never read at once), keeping only the
 * recognised product families. Anyone who sees the project may look; the key stays here.
 */
export async function listAccountProducts(
  user: User,
  studioId: string,
  accountId: string,
  options: { tab: ProductsTab; startingAfter?: string },
): Promise<ProductsView> {
  const { project: row } = await projectForAction(user, studioId, "project.view");
  const [account] = await db()
    .select()
    .from(paymentAccounts)
    .where(and(eq(paymentAccounts.id, accountId), eq(paymentAccounts.projectId, row.id)));
  if (!account) throw new NotFoundError("This Stripe account is not in the project");
  const base = { accountId, accountName: account.accountName, tab: options.tab };
  try {
    const page = await cachedProviderRead(
      "stripe",
      account.id,
      `products:${options.tab}:${options.startingAfter ?? ""}`,
      async () => ({
        value: await paymentsProvider().listProducts(
          decryptSecret(account.secretKeyEncrypted),
          account.apiVersion,
          {
            active: options.tab === "active",
            limit: PRODUCTS_PAGE,
            startingAfter: options.startingAfter,
          },
        ),
        calls: 1,
        settled: true,
      }),
    );
    const last = page.products.at(-1);
    return {
      ...base,
      products: page.products.filter((p) => isRecognised(p.id)).map(toProductRow),
      nextCursor: page.hasMore && last ? last.id : null,
      error: null,
    };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    log().warn(
      { area: "payments", accountId: account.id, reason: error.message },
      "reading products failed",
    );
    return { ...base, products: [], nextCursor: null, error: PAYMENT_MESSAGES.failedProducts };
  }
}

/**
 * The studioId of the project the JSON API names: our _id or studioId as they are, or the
 * content studio's project id. Unknown ids pass through, and are then a 404 like any other.
 */
export async function resolveStudioRef(ref: { studioId?: string; studioSanityId?: string }) {
  if (ref.studioId) return ref.studioId;
  const [row] = await db()
    .select({ studioId: projects.studioId })
    .from(projects)
    .where(eq(projects.studioSanityId, ref.studioSanityId ?? ""))
    .limit(1);
  return row?.studioId ?? "";
}

/**
 * 'Connect with Stripe': Stripe Connect's authorization page for this project, with a state bound
 * to this user and session. Those who may add payment accounts.
 */
export async function startStripeConnect(
  user: User,
  studioId: string,
  session: { id: string; mode: LinkMode },
): Promise<string> {
  const state = await beginLinkFor(user, studioId, "stripe", "payments.add", session);
  return callProvider(
    () =>
      paymentsProvider().connectAuthorizeUrl({ state, redirectUri: stripeConnectRedirectUri() }),
    PAYMENT_MESSAGES.connectUnavailable,
    { retryable: false, retryAfter: false },
  );
}

/**
 * The return page's exchange for Stripe Connect: the code becomes the connected account's keys,
 * stored like a pasted account (the access token encrypted as its secret key). The same account
 * twice in a project is a 409 ('Stripe Account is already linked!').
 */
export async function completeStripeConnect(
  user: User,
  sessionId: string,
  input: { code: string; state: string },
): Promise<{ studioId: string; account: PaymentAccountView }> {
  return completeLink(
    { provider: "stripe", userId: user.id, sessionId },
    input.state,
    async (link, finish) => {
      const { project } = await projectForAction(user, link.studioId, "payments.add", {
        mode: "check",
      });
      const connected = await callProvider(
        () => paymentsProvider().connectAccount(input.code, stripeConnectRedirectUri()),
        PAYMENT_MESSAGES.connectFailed,
        { log: { area: "payments", msg: "Stripe Connect exchange failed" } },
      );
      const accountName = (connected.accountName ?? `Stripe ${connected.accountId}`).slice(0, 100);
      try {
        return await withProjectAction(user, project.id, "payments.add", async ({ tx }) => {
          const [row] = await tx
            .insert(paymentAccounts)
            .values({
              projectId: project.id,
              accountName,
              publishableKey: connected.publishableKey,
              secretKeyEncrypted: encryptSecret(connected.accessToken),
              secretKeyLast4: lastFour(connected.accessToken),
              apiVersion: DEFAULT_STRIPE_API_VERSION,
              connectedAccountId: connected.accountId,
              createdBy: user.id,
            })
            .returning();
          await logEvent(tx, {
            projectId: project.id,
            type: "payments.account.connected",
            content: `${user.name || user.email} connected the Stripe account ${accountName}`,
            actorId: user.id,
          });
          await finish(tx);
          return { studioId: link.studioId, account: accountView(row) };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(PAYMENT_MESSAGES.alreadyLinked);
        throw error;
      }
    },
  );
}

/**
 * The JSON API's list of an account's products or prices, one Stripe page at a time. The account
 * is named by its id (its key stays here); anyone who sees its project may read, and an account
 * of a project hidden from the caller is a 404 like an unknown one.
 */
export async function listAccountResource(
  user: User,
  resource: "products" | "prices",
  input: StripeListInput,
): Promise<{ data: unknown[]; hasMore: boolean }> {
  const [account] = await db()
    .select({
      id: paymentAccounts.id,
      secret: paymentAccounts.secretKeyEncrypted,
      apiVersion: paymentAccounts.apiVersion,
      studioId: projects.studioId,
    })
    .from(paymentAccounts)
    .innerJoin(projects, eq(projects.id, paymentAccounts.projectId))
    .where(eq(paymentAccounts.id, input.accountId));
  if (!account) throw new NotFoundError("Payment account not found");
  try {
    await projectForAction(user, account.studioId, "project.view");
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError("Payment account not found");
    throw error;
  }
  const key = decryptSecret(account.secret);
  const options = {
    active: input.active,
    limit: input.limit,
    startingAfter: input.startingAfter,
  };
  try {
    if (resource === "products") {
      const page = await paymentsProvider().listProducts(key, account.apiVersion, options);
      return { data: page.products, hasMore: page.hasMore };
    }
    const page = await paymentsProvider().listPrices(key, account.apiVersion, {
      ...options,
      product: input.product,
    });
    return { data: page.prices, hasMore: page.hasMore };
  } catch (error) {
    throw asUpstream(error, PAYMENT_MESSAGES.failedProducts, {
      log: { area: "payments", msg: `${resource} failed`, accountId: account.id },
    });
  }
}
