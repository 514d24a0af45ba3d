/**
 * The payments contract (decision 009: the local providers behave like the vendors): the same
 * cases run against the local catalogue and the Stripe adapter with its stand-in on 127.0.0.1.
 * A key check that passes or answers Stripe's 401 without quoting the key, a rate limit as a
 * retryable 429 with its wait, products newest first by state with their first price, paging
 * after startingAfter, and an unknown cursor as 400. What only one of them does (Stripe's
 * requests and API version header, the local catalogue's contents and key rules) stays in
 * payments-providers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalPayments } from "~/providers/payments/local.server";
import { createStripePayments, stripeApiOptions } from "~/providers/payments/stripe.server";
import type { PaymentProduct, PaymentsProvider } from "~/providers/payments/types";
import { rejection } from "../stand-ins/provider-error";
import { startStripeStandIn, type StripeStandIn } from "../stand-ins/stripe";

const VERSION = "2020-08-27";

/** What the suite needs beyond the interface: Stripe's side of the world. */
type PaymentsDriver = {
  label: string;
  start(): Promise<PaymentsProvider>;
  stop(): Promise<void>;
  /** A key the account accepts. */
  validKey(): string;
  /** A well-formed key Stripe refuses. */
  invalidKey: string;
  /** A valid-looking key whose next check is rate limited for 60 seconds. */
  rateLimitedKey(): string;
};

function localDriver(): PaymentsDriver {
  return {
    label: "local catalogue",
    start: async () => createLocalPayments(),
    stop: async () => {},
    validKey: () => "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    invalidKey: "sk_test_invalid00",
    rateLimitedKey: () => "sk_test_ratelimited1",
  };
}

function stripeDriver(): PaymentsDriver {
  let stripe: StripeStandIn;
  return {
    label: "Stripe adapter",
    async start() {
      stripe = await startStripeStandIn();
      // Enough of both states, prices of both types and none, to page through.
      stripe.addProducts([
        { name: "Old plan", active: false, price: { type: "recurring", unit_amount: 900 } },
        { name: "Old mug", active: false, price: { type: "one_time", unit_amount: 1200 } },
      ]);
      stripe.addProducts([
        { name: "Pro plan", price: { type: "recurring", unit_amount: 2900 } },
        { name: "T-shirt", price: { type: "one_time", unit_amount: 2500 } },
        { name: "Custom quote", price: null },
        { name: "Mug", price: { type: "one_time", unit_amount: 1500 } },
        { name: "Team plan", price: { type: "recurring", unit_amount: 9900 } },
        { name: "Sticker", price: { type: "one_time", unit_amount: 300 } },
        { name: "Poster", price: { type: "one_time", unit_amount: 1900 } },
      ]);
      return createStripePayments(stripeApiOptions(stripe.url));
    },
    stop: () => stripe.close(),
    validKey: () => stripe.secretKey,
    invalidKey: "sk_test_wrongKey0987654321",
    rateLimitedKey() {
      stripe.fail({ status: 429, headers: { "Retry-After": "60" } });
      return stripe.secretKey;
    },
  };
}

describe.each([localDriver(), stripeDriver()])("$label", (driver) => {
  let provider: PaymentsProvider;
  let key: string;

  beforeAll(async () => {
    provider = await driver.start();
    key = driver.validKey();
  });
  afterAll(() => driver.stop());

  const list = (active: boolean, limit: number, startingAfter?: string) =>
    provider.listProducts(key, VERSION, { active, limit, startingAfter });

  it("accepts the account's key", async () => {
    await expect(provider.checkSecretKey(key, VERSION)).resolves.toBeUndefined();
  });

  it("refuses a key Stripe does not know, and a blank one, with a permanent 401 that does not quote it", async () => {
    for (const bad of [driver.invalidKey, ""]) {
      const error = await rejection(provider.checkSecretKey(bad, VERSION));
      expect(error).toMatchObject({
        retryable: false,
        message: "Invalid API Key provided",
        details: { provider: "stripe", status: 401, code: "unauthorized" },
      });
    }
    const listing = await rejection(
      provider.listProducts(driver.invalidKey, VERSION, { active: true, limit: 5 }),
    );
    expect(listing.details.status).toBe(401);
    expect(listing.message).not.toContain(driver.invalidKey);
  });

  it("a rate limit is a retryable 429 with the wait to keep", async () => {
    expect(
      await rejection(provider.checkSecretKey(driver.rateLimitedKey(), VERSION)),
    ).toMatchObject({
      retryable: true,
      details: { provider: "stripe", status: 429, code: "rate_limited", retryAfterSeconds: 60 },
    });
  });

  it("lists products of one state newest first, each with a price of its type or none", async () => {
    for (const active of [true, false]) {
      const { products, hasMore } = await list(active, 100);
      expect(hasMore).toBe(false);
      expect(products.length).toBeGreaterThan(0);
      expect(products.every((p) => p.active === active)).toBe(true);
      const created = products.map((p) => p.created);
      expect([...created].sort((a, b) => b - a)).toEqual(created);
      expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
      for (const p of products) {
        expect(p.updated).toBeGreaterThanOrEqual(p.created);
        if (p.price) expect(["one_time", "recurring"]).toContain(p.price.type);
      }
    }
    const active = (await list(true, 100)).products;
    expect(active.some((p) => p.price === null)).toBe(true);
    expect(new Set(active.map((p) => p.price?.type).filter(Boolean))).toEqual(
      new Set(["one_time", "recurring"]),
    );
  });

  it("pages after startingAfter without gaps or duplicates, hasMore until the last page", async () => {
    const all = (await list(true, 100)).products;
    const pages: PaymentProduct[][] = [];
    let startingAfter: string | undefined;
    for (let i = 0; i < 50; i += 1) {
      const page = await list(true, 3, startingAfter);
      pages.push(page.products);
      if (!page.hasMore) break;
      startingAfter = page.products.at(-1)!.id;
    }
    expect(pages.flat()).toEqual(all);
    expect(pages.slice(0, -1).every((p) => p.length === 3)).toBe(true);
  });

  it("refuses an unknown startingAfter with a permanent 400", async () => {
    expect(await rejection(list(true, 3, "prod_unknown"))).toMatchObject({
      retryable: false,
      details: { provider: "stripe", status: 400, code: "bad_request" },
    });
  });
});
