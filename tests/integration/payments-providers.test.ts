/**
 * Payments providers: the Stripe adapter's contract against a Stripe stand-in (key check, product
 * and price mapping, paging, the API version header, refusals as ProviderErrors that never quote
 * the key), the local catalogue and its key rules, and the registry's choice between them.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { paymentsProvider } from "~/providers/payments/index.server";
import { createLocalPayments, LOCAL_CATALOGUE } from "~/providers/payments/local.server";
import { PRODUCT_PREFIXES } from "~/providers/payments/product-prefixes";
import { createStripePayments, stripeApiOptions } from "~/providers/payments/stripe.server";
import type { PaymentProduct, PaymentsProvider } from "~/providers/payments/types";
import { resetEnv } from "~/utils/env.server";
import { rejection } from "../stand-ins/provider-error";
import {
  missingRequiredFields,
  startStripeStandIn,
  type StripeProduct,
  type StripeStandIn,
} from "../stand-ins/stripe";

const VERSION = "2020-08-27";

/** Every page of one state, following startingAfter like the dashboard does. */
async function allPages(
  provider: PaymentsProvider,
  key: string,
  active: boolean,
  limit: number,
): Promise<{ pages: PaymentProduct[][]; hasMore: boolean[] }> {
  const pages: PaymentProduct[][] = [];
  const hasMore: boolean[] = [];
  let startingAfter: string | undefined;
  for (let i = 0; i < 20; i += 1) {
    const page = await provider.listProducts(key, VERSION, { active, limit, startingAfter });
    pages.push(page.products);
    hasMore.push(page.hasMore);
    if (!page.hasMore) break;
    startingAfter = page.products.at(-1)!.id;
  }
  return { pages, hasMore };
}

describe("the Stripe adapter against a stand-in", () => {
  let stripe: StripeStandIn;
  let adapter: PaymentsProvider;
  let active: StripeProduct[];
  let archived: StripeProduct[];

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    adapter = createStripePayments(stripeApiOptions(stripe.url));
    archived = stripe.addProducts([
      {
        name: "Old plan",
        active: false,
        price: { type: "recurring", unit_amount: 900, active: false },
      },
      { name: "Old mug", active: false, price: { type: "one_time", unit_amount: 1200 } },
    ]);
    active = stripe.addProducts([
      { name: "Pro plan", price: { type: "recurring", unit_amount: 2900 } },
      { name: "T-shirt", price: { type: "one_time", unit_amount: 2500 } },
      { name: "Custom quote", price: null },
      { name: "Retired price", price: { type: "one_time", unit_amount: 100, active: false } },
      { name: "Tip jar", price: { type: "one_time", unit_amount: null } },
    ]);
  });
  afterAll(async () => {
    await stripe.close();
  });

  it("accepts a valid key with one product-list call, sending the account's API version", async () => {
    await adapter.checkSecretKey(stripe.secretKey, VERSION);
    const request = stripe.requests.at(-1)!;
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v1/products");
    expect(request.query.get("limit")).toBe("1");
    expect(request.headers["stripe-version"]).toBe(VERSION);

    // Another version is another client: the header follows each call's version.
    await adapter.checkSecretKey(stripe.secretKey, "2024-06-20.acacia");
    await adapter.checkSecretKey(stripe.secretKey, VERSION);
    expect(stripe.versions().slice(-2)).toEqual(["2024-06-20.acacia", VERSION]);
  });

  it("refuses an invalid key with 401, without quoting it", async () => {
    const key = "sk_test_wrongKey0987654321";
    const error = await rejection(adapter.checkSecretKey(key, VERSION));
    expect(error).toMatchObject({
      retryable: false,
      message: "Invalid API Key provided",
      details: { provider: "stripe", status: 401, code: "unauthorized" },
    });
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain("****");
    expect(stripe.requests.at(-1)!.headers.authorization).toBe(`Bearer ${key}`);

    // Listing with it fails the same way; a blank key does not reach Stripe at all.
    expect(
      (await rejection(adapter.listProducts(key, VERSION, { active: true, limit: 5 }))).details,
    ).toMatchObject({ status: 401, code: "unauthorized" });
    const before = stripe.requests.length;
    expect((await rejection(adapter.checkSecretKey("", VERSION))).details.status).toBe(401);
    expect((await rejection(adapter.checkSecretKey("sk_test_a b", VERSION))).details.status).toBe(
      401,
    );
    expect(stripe.requests.length).toBe(before);
  });

  it("turns 403, 429 (with and without Retry-After), 5xx and no answer into provider errors", async () => {
    stripe.fail({
      path: /^\/v1\/products$/,
      status: 403,
      body: {
        error: {
          type: "invalid_request_error",
          message: `The provided key '${stripe.secretKey}' does not have access to products.`,
        },
      },
    });
    const forbidden = await rejection(adapter.checkSecretKey(stripe.secretKey, VERSION));
    expect(forbidden).toMatchObject({
      retryable: false,
      details: { provider: "stripe", status: 403, code: "forbidden" },
    });
    expect(forbidden.message).not.toContain(stripe.secretKey);

    stripe.fail({ status: 429, headers: { "Retry-After": "17" } });
    expect(await rejection(adapter.checkSecretKey(stripe.secretKey, VERSION))).toMatchObject({
      retryable: true,
      details: { status: 429, code: "rate_limited", retryAfterSeconds: 17 },
    });
    stripe.fail({ status: 429 });
    expect(await rejection(adapter.checkSecretKey(stripe.secretKey, VERSION))).toMatchObject({
      retryable: true,
      details: { status: 429, retryAfterSeconds: 60 },
    });

    stripe.fail({ status: 500 });
    expect(await rejection(adapter.checkSecretKey(stripe.secretKey, VERSION))).toMatchObject({
      retryable: true,
      details: { provider: "stripe", status: 500, code: "vendor_unavailable" },
    });
    // A failing prices call fails the page.
    stripe.fail({ path: /^\/v1\/prices$/, status: 503 });
    expect(
      await rejection(adapter.listProducts(stripe.secretKey, VERSION, { active: true, limit: 3 })),
    ).toMatchObject({ retryable: true, details: { status: 503 } });

    // Nothing listening: retryable, without a status.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = createStripePayments({ host: "127.0.0.1", port, protocol: "http" });
    const lost = await rejection(unreachable.checkSecretKey(stripe.secretKey, VERSION));
    expect(lost).toMatchObject({
      retryable: true,
      details: { provider: "stripe", code: "unreachable" },
    });
    expect(lost.details.status).toBeUndefined();
  });

  it("lists products newest first with their first price of the same state", async () => {
    const page = await adapter.listProducts(stripe.secretKey, VERSION, { active: true, limit: 10 });
    expect(page.hasMore).toBe(false);
    expect(page.products.map((p) => p.name)).toEqual([
      "Pro plan",
      "T-shirt",
      "Custom quote",
      "Retired price",
      "Tip jar",
    ]);
    expect(page.products[0]).toEqual({
      id: active[0].id,
      name: "Pro plan",
      active: true,
      created: active[0].created,
      updated: active[0].updated,
      price: { type: "recurring", unit_amount: 2900, product: active[0].id },
    });
    expect(page.products.map((p) => p.price)).toEqual([
      { type: "recurring", unit_amount: 2900, product: active[0].id },
      { type: "one_time", unit_amount: 2500, product: active[1].id },
      null,
      // Its only price is archived.
      null,
      { type: "one_time", unit_amount: null, product: active[4].id },
    ]);

    const listCall = stripe.requests.filter((r) => r.path === "/v1/products").at(-1)!;
    expect(Object.fromEntries(listCall.query)).toEqual({ active: "true", limit: "10" });
    const priceCalls = stripe.requests.filter((r) => r.path === "/v1/prices").slice(-5);
    expect(priceCalls.map((r) => r.query.get("product")).sort()).toEqual(
      active.map((p) => p.id).sort(),
    );
    for (const call of priceCalls) {
      expect(call.query.get("active")).toBe("true");
      expect(call.query.get("limit")).toBe("1");
      expect(call.headers["stripe-version"]).toBe(VERSION);
    }

    const old = await adapter.listProducts(stripe.secretKey, VERSION, { active: false, limit: 10 });
    expect(old).toEqual({
      hasMore: false,
      products: [
        expect.objectContaining({
          id: archived[0].id,
          active: false,
          price: { type: "recurring", unit_amount: 900, product: archived[0].id },
        }),
        // Its price is still active: not one of the archived product's archived prices.
        expect.objectContaining({ id: archived[1].id, active: false, price: null }),
      ],
    });
  });

  it("pages with has_more and starting_after", async () => {
    const { pages, hasMore } = await allPages(adapter, stripe.secretKey, true, 2);
    expect(hasMore).toEqual([true, true, false]);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((p) => p.id)).toEqual(active.map((p) => p.id));
    const cursors = stripe.requests
      .filter((r) => r.path === "/v1/products")
      .slice(-3)
      .map((r) => r.query.get("starting_after"));
    expect(cursors).toEqual([null, active[1].id, active[3].id]);

    expect(
      await rejection(
        adapter.listProducts(stripe.secretKey, VERSION, {
          active: true,
          limit: 2,
          startingAfter: "prod_unknown",
        }),
      ),
    ).toMatchObject({ retryable: false, details: { status: 400, code: "bad_request" } });
  });

  it("served only objects with every field Stripe's OpenAPI schemas require", () => {
    expect(stripe.served.filter((s) => s.kind === "product").length).toBeGreaterThan(5);
    expect(stripe.served.filter((s) => s.kind === "price").length).toBeGreaterThan(3);
    for (const { kind, item } of stripe.served) {
      expect({ kind, missing: missingRequiredFields(kind, item) }).toEqual({ kind, missing: [] });
    }
    for (const body of stripe.listBodies) expect(missingRequiredFields("list", body)).toEqual([]);
    expect(missingRequiredFields("product", { id: "prod_x" })).toContain("name");
  });
});

describe("the local payments provider", () => {
  const local = createLocalPayments();
  const key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc";

  it("accepts sk_test_ keys of eight or more letters and digits that do not say 'invalid'", async () => {
    await local.checkSecretKey(key, VERSION);
    await local.checkSecretKey("sk_test_abcdefgh", "");
    for (const bad of [
      "",
      "sk_test_short",
      "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      "sk_test_abc-defgh",
      " sk_test_abcdefgh",
      "sk_test_InvalidKey123",
      "pk_test_abcdefgh123",
    ]) {
      const error = await rejection(local.checkSecretKey(bad, VERSION));
      expect(error).toMatchObject({
        retryable: false,
        message: "Invalid API Key provided",
        details: { provider: "stripe", status: 401, code: "unauthorized" },
      });
    }
    expect(
      (
        await rejection(
          local.listProducts("sk_test_invalid00", VERSION, { active: true, limit: 5 }),
        )
      ).details.status,
    ).toBe(401);
    expect(await rejection(local.checkSecretKey("sk_test_ratelimited1", VERSION))).toMatchObject({
      retryable: true,
      details: { status: 429, code: "rate_limited", retryAfterSeconds: 60 },
    });
  });

  it("holds a catalogue with every recognised prefix, others, both price types and a product without a price", async () => {
    const { pages, hasMore } = await allPages(local, key, true, 20);
    expect(hasMore).toEqual([true, false]);
    expect(pages.map((page) => page.length)).toEqual([20, 10]);
    const products = pages.flat();
    expect(products.every((p) => p.active)).toBe(true);
    const created = products.map((p) => p.created);
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
    for (const p of products) expect(p.updated).toBeGreaterThanOrEqual(p.created);

    for (const prefix of PRODUCT_PREFIXES) {
      expect(products.some((p) => p.id.startsWith(`${prefix}-`))).toBe(true);
    }
    const others = products.filter((p) => !PRODUCT_PREFIXES.some((x) => p.id.startsWith(`${x}-`)));
    expect(others.length).toBeGreaterThanOrEqual(2);
    expect(products.some((p) => p.price?.type === "recurring")).toBe(true);
    expect(products.some((p) => p.price?.type === "one_time")).toBe(true);
    expect(products.some((p) => p.price === null)).toBe(true);

    // The same for every valid key.
    expect(
      (await local.listProducts("sk_test_abcdefgh", "", { active: true, limit: 100 })).products,
    ).toEqual(products);
  });

  it("lists archived products apart, with their prices", async () => {
    const { products, hasMore } = await local.listProducts(key, VERSION, {
      active: false,
      limit: 20,
    });
    expect(hasMore).toBe(false);
    expect(products).toHaveLength(8);
    expect(products.every((p) => !p.active)).toBe(true);
    expect(new Set(products.map((p) => p.price?.type))).toEqual(new Set(["recurring", "one_time"]));
    expect(products.some((p) => !PRODUCT_PREFIXES.some((x) => p.id.startsWith(`${x}-`)))).toBe(
      true,
    );
  });

  // The contract suite covers paging and the unknown cursor's 400.
  it("starts a page after a product of the other state, and hands out copies", async () => {
    // The cursor may be a product of the other state: the page starts after it all the same.
    const cursor = LOCAL_CATALOGUE.find((p) => !p.active)!;
    const after = await local.listProducts(key, VERSION, {
      active: true,
      limit: 100,
      startingAfter: cursor.id,
    });
    expect(after.products.length).toBeGreaterThan(0);
    expect(after.products.every((p) => p.created < cursor.created)).toBe(true);

    // Pages are copies: changing one does not change the catalogue.
    const first = await local.listProducts(key, VERSION, { active: true, limit: 3 });
    first.products[0].name = "changed";
    expect(
      (await local.listProducts(key, VERSION, { active: true, limit: 1 })).products[0].name,
    ).not.toBe("changed");
  });
});

describe("paymentsProvider()", () => {
  const saved = { PROVIDERS: process.env.PROVIDERS, STRIPE_API_URL: process.env.STRIPE_API_URL };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnv();
  });

  it("is the local catalogue by default and Stripe at STRIPE_API_URL when PROVIDERS=live", async () => {
    delete process.env.PROVIDERS;
    resetEnv();
    expect(paymentsProvider()).toBe(paymentsProvider());
    await paymentsProvider().checkSecretKey("sk_test_abcdefgh", VERSION);

    const stripe = await startStripeStandIn();
    try {
      process.env.PROVIDERS = "live";
      process.env.STRIPE_API_URL = stripe.url;
      resetEnv();
      await paymentsProvider().checkSecretKey(stripe.secretKey, VERSION);
      expect(stripe.requests).toHaveLength(1);
      expect(
        (await rejection(paymentsProvider().checkSecretKey("sk_test_abcdefgh", VERSION))).details
          .status,
      ).toBe(401);
    } finally {
      await stripe.close();
    }
  });
});
