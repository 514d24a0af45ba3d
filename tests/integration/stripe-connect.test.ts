/**
 * 'Connect with Stripe' (Stripe Connect through the local authorization page, the return page
 * in both modes, connect-account in the JSON API, 'Stripe Account is already linked!'), and
 * POST /api/payments/stripe listing a stored account's products and prices without its key.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { paymentAccounts } from "~/db/schema";
import {
  action as paymentsAction,
  loader as paymentsLoader,
} from "~/routes/_app._project.sites.integrations.$integrationId_.$studioId";
import { action as apiAction } from "~/routes/api.app.integrations.$integrationId";
import {
  action as stripeListAction,
  loader as stripeListLoader,
} from "~/routes/api.payments.stripe";
import { action as authorizeAction } from "~/routes/local.oauth.$provider.authorize";
import { loader as callbackLoader } from "~/routes/oauth.$provider.callback/route";
import type { PaymentAccountsView } from "~/services/integrations/payments.server";
import { decryptSecret } from "~/utils/secrets.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { locationOf, toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Connie Connect" });
  ownerCookie = await sessionCookie(owner.id);
});

const page = (studioId: string) => `/sites/integrations/payments/${studioId}`;
const params = (studioId: string) => ({ integrationId: "payments", studioId });

async function startConnect(studioId: string, mode = "tab", cookie = ownerCookie) {
  return call(
    paymentsAction,
    makeRequest(page(studioId), { cookie, form: { intent: "stripe-connect", mode } }),
    params(studioId),
  );
}

/** Start, then Authorize on the local page: the return page's address. */
async function authorizedReturn(studioId: string, accountId: string, mode = "tab") {
  const start = await startConnect(studioId, mode);
  expect(start.status).toBe(302);
  const url = new URL(locationOf(start)!);
  expect(url.pathname).toBe("/local/oauth/stripe/authorize");
  expect(url.searchParams.get("scope")).toBe("read_write");
  const res = await call(
    authorizeAction,
    makeRequest(url.pathname + url.search, {
      form: { decision: "authorize", accountId, accountName: "Corner Shop" },
    }),
    { provider: "stripe" },
  );
  return new URL(locationOf(res)!);
}

async function accounts(studioId: string) {
  const res = await call(
    paymentsLoader,
    makeRequest(page(studioId), { cookie: ownerCookie }),
    params(studioId),
  );
  return ((await res.json()) as { view: PaymentAccountsView }).view.accounts;
}

let seq = 0;
const accountId = () => `acct_test${Date.now().toString(36)}${++seq}`;

describe("Connect with Stripe", () => {
  it("connects the account, stores its token encrypted and says 'Completed Stripe authorization!'", async () => {
    const project = await insertProject(owner.id);
    const back = await authorizedReturn(project.studioId, accountId());
    const res = await call(
      callbackLoader,
      makeRequest(back.pathname + back.search, { cookie: ownerCookie }),
      {
        provider: "stripe",
      },
    );
    expect(res).toHaveRedirect(page(project.studioId));
    expect(await toastOf(res)).toMatchObject({
      type: "success",
      title: "Completed Stripe authorization!",
    });
    const [listed] = await accounts(project.studioId);
    expect(listed).toMatchObject({ accountName: "Corner Shop", apiVersion: "2020-08-27" });
    const [row] = await db()
      .select()
      .from(paymentAccounts)
      .where(eq(paymentAccounts.projectId, project.id));
    expect(row.connectedAccountId).toMatch(/^acct_test/);
    expect(row.secretKeyEncrypted).not.toContain("sk_test_");
    expect(decryptSecret(row.secretKeyEncrypted)).toMatch(/^sk_test_/);
  });

  it("answers the same account twice with 'Stripe Account is already linked!'", async () => {
    const project = await insertProject(owner.id);
    const id = accountId();
    const first = await authorizedReturn(project.studioId, id);
    await call(
      callbackLoader,
      makeRequest(first.pathname + first.search, { cookie: ownerCookie }),
      {
        provider: "stripe",
      },
    );
    const second = await authorizedReturn(project.studioId, id);
    const res = await call(
      callbackLoader,
      makeRequest(second.pathname + second.search, { cookie: ownerCookie }),
      { provider: "stripe" },
    );
    expect(await toastOf(res)).toMatchObject({
      type: "error",
      title: "Stripe Account is already linked!",
    });
    expect(await accounts(project.studioId)).toHaveLength(1);
  });

  it("completes a popup's round trip through connect-account, once", async () => {
    const project = await insertProject(owner.id);
    const back = await authorizedReturn(project.studioId, accountId(), "popup");
    const pageRes = await call(
      callbackLoader,
      makeRequest(back.pathname + back.search, { cookie: ownerCookie }),
      { provider: "stripe" },
    );
    const shown = (await pageRes.json()) as { outcome: string; code: string; state: string };
    expect(shown.outcome).toBe("authorizing");
    const body = {
      action: "connect-account",
      integration: { id: "payments" },
      studio: { pagebuilderId: project.studioId },
      authorizationCode: shown.code,
      state: shown.state,
    };
    const post = () =>
      call(
        apiAction,
        makeRequest("/api/app/integrations/payments", { cookie: ownerCookie, json: body }),
        { integrationId: "payments" },
      );
    const first = await post();
    expect(first.status).toBe(201);
    const created = (await first.json()) as { account: Record<string, string> };
    expect(created.account).toMatchObject({ accountName: "Corner Shop" });
    expect(JSON.stringify(created)).not.toMatch(/sk_test_/);
    expect((await post()).status).toBe(400);
  });

  it("is for those who may add payment accounts", async () => {
    const project = await insertProject(owner.id);
    const developer = await createUser();
    await addMember(project.id, developer, "developer");
    const res = await startConnect(project.studioId, "tab", await sessionCookie(developer.id));
    expect(await toastOf(res)).toMatchObject({ title: "Only admins can add payment accounts" });
    const stranger = await createUser();
    expect(
      (await startConnect(project.studioId, "tab", await sessionCookie(stranger.id))).status,
    ).toBe(404);
  });
});

describe("POST /api/payments/stripe", () => {
  async function addAccount(studioId: string) {
    await call(
      paymentsAction,
      makeRequest(page(studioId), {
        cookie: ownerCookie,
        form: {
          intent: "payment-add",
          accountName: "Listing shop",
          publishableKey: `pk_test_list${++seq}`,
          secretKey: `sk_test_ListKey${seq}abc`,
        },
      }),
      params(studioId),
    );
    return (await accounts(studioId))[0].id;
  }

  const list = (query: string, body: unknown, cookie = ownerCookie) =>
    call(stripeListAction, makeRequest(`/api/payments/stripe?${query}`, { cookie, json: body }));

  it("lists products and prices of a stored account, a page at a time", async () => {
    const project = await insertProject(owner.id);
    const id = await addAccount(project.studioId);
    const products = await list("resource=products&action=list", { accountId: id, limit: 5 });
    expect(products.status).toBe(200);
    const page1 = (await products.json()) as {
      statusCode: number;
      data: { id: string }[];
      hasMore: boolean;
    };
    expect(page1).toMatchObject({ statusCode: 200, hasMore: true });
    expect(page1.data).toHaveLength(5);
    const next = await list("resource=products&action=list", {
      accountId: id,
      limit: 5,
      startingAfter: page1.data.at(-1)!.id,
    });
    const page2 = (await next.json()) as { data: { id: string }[] };
    expect(page2.data.map((p) => p.id)).not.toContain(page1.data[0].id);
    const prices = await list("resource=prices&action=list", {
      accountId: id,
      product: "pricing-starter",
    });
    expect(await prices.json()).toMatchObject({
      statusCode: 200,
      data: [{ product: "pricing-starter", type: "recurring", unit_amount: 900, currency: "usd" }],
      hasMore: false,
    });
  });

  it("is a 404 for an account of a project the caller cannot see, and 400/405 for bad calls", async () => {
    const project = await insertProject(owner.id);
    const id = await addAccount(project.studioId);
    const stranger = await createUser();
    const strangerCookie = await sessionCookie(stranger.id);
    expect(
      (await list("resource=products&action=list", { accountId: id }, strangerCookie)).status,
    ).toBe(404);
    expect((await list("resource=customers&action=list", { accountId: id })).status).toBe(400);
    expect((await list("resource=products&action=list", { accountId: "nope" })).status).toBe(400);
    expect(
      (
        await list("resource=products&action=list", {
          credentials: { stripeSecretKey: "sk_test_x" },
        })
      ).status,
    ).toBe(400);
    const get = await call(
      stripeListLoader,
      makeRequest("/api/payments/stripe", { cookie: ownerCookie }),
    );
    expect(get.status).toBe(405);
  });
});
