/**
 * Stripe payment accounts of a project (/sites/integrations/payments/{studioId}): added with a
 * key the local provider accepts, refused with one it does not, 'Invalid API Version', removed
 * through its confirmation; who may; the secret key never stored or shown in plaintext.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, paymentAccounts } from "~/db/schema";
import {
  action as paymentsAction,
  loader as paymentsLoader,
} from "~/routes/_app._project.sites.integrations.$integrationId_.$studioId";
import { loader as dashboardLoader } from "~/routes/_app._project.sites.$studioId/route";
import {
  action as apiAction,
  loader as apiLoader,
} from "~/routes/api.app.integrations.$integrationId";
import type { PaymentAccountsView, ProductsView } from "~/services/integrations/payments.server";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Penny Payer" });
  ownerCookie = await sessionCookie(owner.id);
});

const params = (studioId: string) => ({ integrationId: "payments", studioId });
const path = (studioId: string) => `/sites/integrations/payments/${studioId}`;

async function view(studioId: string, cookie = ownerCookie) {
  const res = await call(paymentsLoader, makeRequest(path(studioId), { cookie }), params(studioId));
  expect(res.status).toBe(200);
  return ((await res.json()) as { view: PaymentAccountsView }).view;
}

const post = (studioId: string, form: Record<string, string>, cookie = ownerCookie) =>
  call(paymentsAction, makeRequest(path(studioId), { cookie, form }), params(studioId));

let seq = 0;
const keys = () => {
  seq += 1;
  return {
    publishableKey: `pk_test_publishable${seq}${Date.now()}`,
    secretKey: `sk_test_Secret${seq}x${Date.now()}`,
  };
};
const add = (studioId: string, extra: Record<string, string> = {}, cookie = ownerCookie) =>
  post(studioId, { intent: "payment-add", accountName: "Main shop", ...keys(), ...extra }, cookie);

describe("adding a Stripe account", () => {
  it("checks the key, stores it encrypted, shows its last four, and logs it", async () => {
    const project = await insertProject(owner.id);
    const { publishableKey, secretKey } = keys();
    const res = await post(project.studioId, {
      intent: "payment-add",
      accountName: "Main shop",
      publishableKey,
      secretKey,
      apiVersion: "",
    });
    expect(res).toHaveRedirect(path(project.studioId));
    expect(await toastOf(res)).toMatchObject({
      type: "success",
      title: "Stripe Secret Key Valid: Account Added",
    });
    const page = await view(project.studioId);
    expect(page.accounts).toEqual([
      expect.objectContaining({
        accountName: "Main shop",
        publishableKey,
        secretKeyLast4: secretKey.slice(-4),
        apiVersion: "2020-08-27",
      }),
    ]);
    expect(JSON.stringify(page)).not.toContain(secretKey);
    // The table holds no plaintext key; the ciphertext names its key id and decrypts.
    const dump = await db().execute(sql`select t::text as row from payment_accounts t`);
    const rows = (dump as unknown as { rows: { row: string }[] }).rows.map((r) => r.row);
    expect(rows.join("\n")).not.toContain(secretKey);
    const [stored] = await db()
      .select()
      .from(paymentAccounts)
      .where(eq(paymentAccounts.projectId, project.id));
    expect(stored.secretKeyEncrypted).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(decryptSecret(stored.secretKeyEncrypted)).toBe(secretKey);
    const events = await db()
      .select({ type: eventLogs.type, content: eventLogs.content })
      .from(eventLogs)
      .where(eq(eventLogs.projectId, project.id));
    expect(events).toContainEqual({
      type: "payments.account.added",
      content: "Penny Payer added the Stripe account Main shop",
    });
    // The dashboard's Active Integrations names it.
    const dashboard = await call(
      dashboardLoader,
      makeRequest(`/sites/${project.studioId}`, { cookie: ownerCookie }),
      { studioId: project.studioId },
    );
    expect((await dashboard.json()).paymentAccounts).toEqual([
      { id: stored.id, accountName: "Main shop" },
    ]);
  });

  it("refuses a key Stripe refuses, a bad API version, missing fields and a duplicate", async () => {
    const project = await insertProject(owner.id);
    const invalid = await add(project.studioId, { secretKey: "sk_test_invalid12345" });
    expect(invalid).toHaveRedirect(path(project.studioId));
    expect(await toastOf(invalid)).toMatchObject({
      type: "error",
      title: "Stripe Secret Key Invalid: Account Not Added",
    });
    const version = await add(project.studioId, { apiVersion: "2020-08" });
    expect(version.status).toBe(400);
    expect((await version.json()).result.error.apiVersion).toEqual(["Invalid API Version"]);
    const missing = await post(project.studioId, { intent: "payment-add", accountName: "" });
    expect(missing.status).toBe(400);
    expect(Object.keys((await missing.json()).result.error).sort()).toEqual([
      "accountName",
      "publishableKey",
      "secretKey",
    ]);
    // Stripe not answering (the local provider's `ratelimited` key): the title alone.
    const busy = await add(project.studioId, { secretKey: "sk_test_ratelimited123" });
    expect(busy).toHaveRedirect(path(project.studioId));
    const busyToast = await toastOf(busy);
    expect(busyToast).toMatchObject({ type: "error", title: "Failed to add Stripe account!" });
    expect(busyToast?.description).toBeUndefined();
    const same = keys();
    expect(await add(project.studioId, same)).toHaveRedirect(path(project.studioId));
    const duplicate = await add(project.studioId, same);
    expect(await toastOf(duplicate)).toMatchObject({
      type: "error",
      title: "Failed to add Stripe account!",
      description: "This Stripe account is already added to the project.",
    });
    expect((await view(project.studioId)).accounts).toHaveLength(1);
  });
});

describe("removing and who may", () => {
  it("removes through the confirmation; editors see Remove disabled and are refused", async () => {
    const project = await insertProject(owner.id);
    await add(project.studioId);
    const [account] = (await view(project.studioId)).accounts;

    const editor = await createUser();
    await addMember(project.id, editor, "editor");
    const editorCookie = await sessionCookie(editor.id);
    expect(await view(project.studioId, editorCookie)).toMatchObject({
      canAdd: false,
      canRemove: false,
    });
    const refused = await post(
      project.studioId,
      { intent: "payment-remove", accountId: account.id },
      editorCookie,
    );
    expect(await toastOf(refused)).toMatchObject({
      type: "error",
      title: "Failed to remove Stripe account from StackShift",
    });
    expect(await toastOf(await add(project.studioId, {}, editorCookie))).toMatchObject({
      type: "error",
      title: "Failed to add Stripe account!",
      description: "Only admins can add payment accounts",
    });

    const removed = await post(project.studioId, {
      intent: "payment-remove",
      accountId: account.id,
    });
    expect(await toastOf(removed)).toMatchObject({
      type: "success",
      title: "Stripe account successfully removed from StackShift!",
    });
    expect((await view(project.studioId)).accounts).toEqual([]);
  });

  it("keeps another project's accounts out of reach (404), and its ids useless here", async () => {
    const mine = await insertProject(owner.id);
    const other = await createUser();
    const theirs = await insertProject(other.id);
    await add(theirs.studioId, {}, await sessionCookie(other.id));
    const [theirAccount] = (await view(theirs.studioId, await sessionCookie(other.id))).accounts;

    expect(
      (
        await call(
          paymentsLoader,
          makeRequest(path(theirs.studioId), { cookie: ownerCookie }),
          params(theirs.studioId),
        )
      ).status,
    ).toBe(404);
    expect((await add(theirs.studioId)).status).toBe(404);
    expect(
      (await post(theirs.studioId, { intent: "payment-remove", accountId: theirAccount.id }))
        .status,
    ).toBe(404);
    // Their account's id on my project removes nothing.
    const wrong = await post(mine.studioId, {
      intent: "payment-remove",
      accountId: theirAccount.id,
    });
    expect(await toastOf(wrong)).toMatchObject({ type: "error" });
    expect((await view(theirs.studioId, await sessionCookie(other.id))).accounts).toHaveLength(1);
  });
});

describe("the product viewer", () => {
  it("shows the recognised products of each tab, 20 at a time from Stripe, with type and price", async () => {
    const project = await insertProject(owner.id);
    await add(project.studioId);
    const [account] = (await view(project.studioId)).accounts;
    const products = async (query: string) => {
      const res = await call(
        paymentsLoader,
        makeRequest(`${path(project.studioId)}?products=${account.id}${query}`, {
          cookie: ownerCookie,
        }),
        params(project.studioId),
      );
      return ((await res.json()) as { products: ProductsView }).products;
    };
    const active = await products("&tab=active");
    expect(active.error).toBeNull();
    expect(active.products.find((p) => p.id === "pricing-starter")).toMatchObject({
      name: "Starter plan",
      type: "Recurring",
      price: "$9.00",
    });
    expect(active.products.find((p) => p.id === "website-custom-quote")).toMatchObject({
      type: "N/A",
      price: "N/A",
    });
    expect(active.products.find((p) => p.id === "ecommerce-tshirt")?.type).toBe("One Time");
    // Other families (legacy-, Stripe's prod_) are left out.
    expect(active.products.some((p) => /^(legacy|prod_)/.test(p.id))).toBe(false);
    expect(active.nextCursor).not.toBeNull();
    const next = await products(`&tab=active&after=${active.nextCursor}`);
    expect(next.products.length).toBeGreaterThan(0);
    expect(next.products.some((p) => active.products.some((q) => q.id === p.id))).toBe(false);
    expect(next.nextCursor).toBeNull();

    const archived = await products("&tab=archived");
    expect(archived.products.map((p) => p.name)).toContain("Basic plan (2023)");
    expect(archived.products.every((p) => !active.products.some((q) => q.id === p.id))).toBe(true);
  });

  it("says 'Failed to fetch Stripe Account products' when Stripe does not answer", async () => {
    const project = await insertProject(owner.id);
    const [account] = await db()
      .insert(paymentAccounts)
      .values({
        projectId: project.id,
        accountName: "Busy",
        publishableKey: "pk_test_busy",
        secretKeyEncrypted: encryptSecret("sk_test_ratelimited123"),
        secretKeyLast4: "e123",
        apiVersion: "2020-08-27",
      })
      .returning();
    const res = await call(
      paymentsLoader,
      makeRequest(`${path(project.studioId)}?products=${account.id}`, { cookie: ownerCookie }),
      params(project.studioId),
    );
    expect(((await res.json()) as { products: ProductsView }).products).toMatchObject({
      products: [],
      error: "Failed to fetch Stripe Account products",
    });
  });
});

describe("the payments API", () => {
  const api = (method: string, cookie: string | undefined, body?: unknown, query = "") =>
    method === "GET"
      ? call(apiLoader, makeRequest(`/api/app/integrations/payments${query}`, { cookie }), {
          integrationId: "payments",
        })
      : call(
          apiAction,
          makeRequest("/api/app/integrations/payments", { method, cookie, json: body }),
          { integrationId: "payments" },
        );

  it("adds, lists (by the content studio's id too) and removes accounts; never the secret key", async () => {
    const project = await insertProject(owner.id, { studioSanityId: `sanity${Date.now()}` });
    const { publishableKey, secretKey } = keys();
    const added = await api("POST", ownerCookie, {
      action: "add-account",
      studio: { pagebuilderId: project.studioId },
      stripeAccounts: {
        accountName: "API shop",
        stripePKey: publishableKey,
        stripeSKey: secretKey,
      },
    });
    expect(added.status).toBe(201);
    const body = (await added.json()) as { account: { id: string; apiVersion: string } };
    expect(body.account).toMatchObject({ apiVersion: "2020-08-27" });
    expect(JSON.stringify(body)).not.toContain(secretKey);

    const listed = await api(
      "GET",
      ownerCookie,
      undefined,
      `?action=get-accounts&studioSanityId=${project.studioSanityId}`,
    );
    expect(listed.status).toBe(200);
    expect((await listed.json()).accounts).toEqual([
      expect.objectContaining({ accountName: "API shop", secretKeyLast4: secretKey.slice(-4) }),
    ]);

    const refused = await api("POST", ownerCookie, {
      action: "add-account",
      studio: { projectId: project.studioSanityId },
      stripeAccounts: {
        accountName: "Bad",
        stripePKey: "pk_test_bad",
        stripeSKey: "sk_test_invalid999",
      },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fieldErrors).toEqual({
      "stripeAccounts.stripeSKey": ["Stripe Secret Key Invalid: Account Not Added"],
    });

    const removed = await api("POST", ownerCookie, {
      action: "remove-account",
      studio: { pagebuilderId: project.id },
      account: { id: body.account.id },
    });
    expect(removed.status).toBe(200);
    expect((await view(project.studioId)).accounts).toEqual([]);
  });

  it("answers 400, 401, 403, 404 and 405 as every write does", async () => {
    const project = await insertProject(owner.id);
    const add = (cookie: string | undefined) =>
      api("POST", cookie, {
        action: "add-account",
        studio: { pagebuilderId: project.studioId },
        stripeAccounts: {
          accountName: "X",
          ...{ stripePKey: "pk_test_x", stripeSKey: "sk_test_Valid12345" },
        },
      });
    expect((await add(undefined)).status).toBe(401);
    const editor = await createUser();
    await addMember(project.id, editor, "editor");
    expect((await add(await sessionCookie(editor.id))).status).toBe(403);
    expect((await add(await sessionCookie((await createUser()).id))).status).toBe(404);
    expect((await api("POST", ownerCookie, { action: "connect" })).status).toBe(400);
    expect((await api("GET", ownerCookie, undefined, "?action=get-accounts")).status).toBe(400);
    expect((await api("PUT", ownerCookie, {})).status).toBe(405);
    const social = await call(
      apiLoader,
      makeRequest("/api/app/integrations/zapier?action=get-accounts&studioId=x", {
        cookie: ownerCookie,
      }),
      { integrationId: "zapier" },
    );
    expect(social.status).toBe(404);
  });
});
