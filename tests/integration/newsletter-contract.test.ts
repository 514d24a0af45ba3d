/**
 * The newsletter contract (decision 009: the local providers behave like the vendors): the same
 * cases run against the local provider and the Resend adapter with its stand-in on 127.0.0.1.
 * A sender domain created not_started with Resend's records, read back the same, pending once
 * asked to verify, then verified or failed with its records; a duplicate name 409, an unknown
 * or deleted id 404, a region Resend does not serve 422, and a rate limit 429 with its wait.
 * What only one of them does (Resend's requests and error bodies, the local hooks' timing) stays
 * in newsletter-providers.test.ts.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, afterAll, beforeEach, describe, expect, it } from "vitest";
import { createLocalNewsletter } from "~/providers/newsletter/local.server";
import { createResendNewsletter } from "~/providers/newsletter/resend.server";
import type { NewsletterProvider, SenderDomain } from "~/providers/newsletter/types";
import { resetEnv } from "~/utils/env.server";
import { rejection } from "../stand-ins/provider-error";
import { startResendStandIn, type ResendStandIn } from "../stand-ins/resend";

let seq = 0;
/** A domain name no other test (or earlier run against the same database) has used. */
const uniqueDomain = (first = "news") =>
  `${first}.c${Date.now().toString(36)}${(++seq).toString(36)}.example.com`;

/** What the suite needs beyond the interface: Resend's side of the world. */
type NewsletterDriver = {
  label: string;
  start(): Promise<NewsletterProvider>;
  stop(): Promise<void>;
  /** A name whose DNS check will fail (the local hook, or any name at Resend). */
  failingName(): string;
  /** Lets Resend's check of a domain asked to verify finish: verified, or failed for failingName. */
  settle(domain: SenderDomain, outcome: "verified" | "failed"): Promise<void>;
  /** A name the provider's next create answers with 429 and a one-second wait. */
  rateLimitedName(): string;
};

function localDriver(): NewsletterDriver {
  return {
    label: "local provider",
    start: async () => createLocalNewsletter(),
    stop: async () => {},
    failingName: () => uniqueDomain("unverified"),
    async settle() {
      // The local check finishes LOCAL_DOMAIN_VERIFY_SECONDS after the first verify.
      process.env.LOCAL_DOMAIN_VERIFY_SECONDS = "0";
      resetEnv();
    },
    rateLimitedName: () => uniqueDomain("ratelimited"),
  };
}

function resendDriver(): NewsletterDriver {
  let resend: ResendStandIn;
  return {
    label: "Resend adapter",
    async start() {
      resend = await startResendStandIn();
      return createResendNewsletter({ apiKey: resend.apiKey, baseUrl: resend.url });
    },
    stop: () => resend.close(),
    failingName: () => uniqueDomain(),
    async settle(domain, outcome) {
      resend.setStatus(domain.id, outcome);
    },
    rateLimitedName() {
      resend.fail({
        method: "POST",
        path: /^\/domains$/,
        status: 429,
        headers: { "Retry-After": "1" },
      });
      return uniqueDomain();
    },
  };
}

describe.each([localDriver(), resendDriver()])("$label", (driver) => {
  let provider: NewsletterProvider;

  beforeAll(async () => {
    provider = await driver.start();
  });
  beforeEach(() => {
    // Checks take their time until a test settles them.
    process.env.LOCAL_DOMAIN_VERIFY_SECONDS = "600";
    resetEnv();
  });
  afterEach(() => {
    delete process.env.LOCAL_DOMAIN_VERIFY_SECONDS;
    resetEnv();
  });
  afterAll(() => driver.stop());

  it("creates a domain not_started with Resend's SPF and DKIM records, and reads it back the same", async () => {
    const name = uniqueDomain();
    const domain = await provider.createDomain(name, "eu-west-1");
    expect(domain).toMatchObject({ name, status: "not_started", region: "eu-west-1" });
    expect(Date.parse(domain.createdAt)).not.toBeNaN();
    expect(domain.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ record: "SPF", name: "send", type: "MX", priority: 10 }),
        expect.objectContaining({
          record: "SPF",
          name: "send",
          type: "TXT",
          value: "v=spf1 include:amazonses.com ~all",
        }),
        expect.objectContaining({
          record: "DKIM",
          name: "resend._domainkey",
          type: "TXT",
          value: expect.stringMatching(/^p=[A-Za-z0-9+/]+={0,2}$/),
        }),
      ]),
    );
    expect(domain.records.every((r) => r.status === "not_started" && r.ttl === "Auto")).toBe(true);
    expect(domain.records.some((r) => /dmarc/i.test(`${r.record} ${r.name} ${r.value}`))).toBe(
      false,
    );
    expect(await provider.getDomain(domain.id)).toEqual(domain);
  });

  it("is pending once asked to verify, then verified with every record", async () => {
    const domain = await provider.createDomain(uniqueDomain(), "us-east-1");
    await provider.verifyDomain(domain.id);
    const pending = await provider.getDomain(domain.id);
    expect(pending.status).toBe("pending");
    expect(pending.records.every((r) => r.status === "pending")).toBe(true);

    await driver.settle(domain, "verified");
    const verified = await provider.getDomain(domain.id);
    expect(verified.status).toBe("verified");
    expect(verified.records.every((r) => r.status === "verified")).toBe(true);
  });

  it("fails a domain whose records do not check out, records and all", async () => {
    const domain = await provider.createDomain(driver.failingName(), "us-east-1");
    await provider.verifyDomain(domain.id);
    await driver.settle(domain, "failed");
    const failed = await provider.getDomain(domain.id);
    expect(failed.status).toBe("failed");
    expect(failed.records.every((r) => r.status === "failed")).toBe(true);
  });

  it("refuses a name it holds already with a permanent 409", async () => {
    const name = uniqueDomain();
    await provider.createDomain(name, "us-east-1");
    expect(await rejection(provider.createDomain(name, "us-east-1"))).toMatchObject({
      retryable: false,
      details: { provider: "resend", status: 409, code: "domain_exists" },
    });
  });

  it("answers a permanent 404 for an unknown id, and for a deleted domain", async () => {
    for (const call of [
      () => provider.getDomain(randomUUID()),
      () => provider.verifyDomain(randomUUID()),
      () => provider.deleteDomain(randomUUID()),
    ]) {
      expect(await rejection(call())).toMatchObject({
        retryable: false,
        details: { provider: "resend", status: 404, code: "not_found" },
      });
    }
    const { id } = await provider.createDomain(uniqueDomain(), "us-east-1");
    await provider.deleteDomain(id);
    expect((await rejection(provider.getDomain(id))).details.status).toBe(404);
    expect((await rejection(provider.deleteDomain(id))).details.status).toBe(404);
  });

  it("refuses a region Resend does not serve with a permanent 422 invalid_region", async () => {
    expect(await rejection(provider.createDomain(uniqueDomain(), "moon-1"))).toMatchObject({
      retryable: false,
      details: { status: 422, code: "invalid_region" },
    });
  });

  it("a rate limit is a retryable 429 with the wait to keep", async () => {
    expect(
      await rejection(provider.createDomain(driver.rateLimitedName(), "us-east-1")),
    ).toMatchObject({
      retryable: true,
      details: { provider: "resend", status: 429, retryAfterSeconds: 1 },
    });
  });
});
