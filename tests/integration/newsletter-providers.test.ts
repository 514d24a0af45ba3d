/**
 * Newsletter providers: the Resend adapter's contract against a Resend stand-in (a domain created
 * with its records and mapped, read, verified, deleted; the requests, paths and Bearer key it
 * sends; a duplicate as 409, an unknown id as 404, a bad key as 401, rate limits, 5xx and no
 * answer as retryable ProviderErrors, none quoting the key), the local provider (Resend's records
 * without DMARC, not_started -> pending -> verified or failed, its 409/404/422/429 answers), and
 * the registry's choice between them.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localNewsletterDomains } from "~/db/schema";
import type { ProviderError } from "~/providers/errors";
import { newsletterProvider } from "~/providers/newsletter/index.server";
import { createLocalNewsletter } from "~/providers/newsletter/local.server";
import { createResendNewsletter } from "~/providers/newsletter/resend.server";
import type { NewsletterProvider, SenderDomain } from "~/providers/newsletter/types";
import { resetEnv } from "~/utils/env.server";
import { rejection } from "../stand-ins/provider-error";
import { startResendStandIn, type ResendStandIn } from "../stand-ins/resend";

let seq = 0;
/** A domain name no other test (or earlier run against the same database) has used. */
const uniqueDomain = (first = "news") =>
  `${first}.t${Date.now().toString(36)}${(++seq).toString(36)}.example.com`;

/** Restores the named environment variables (and the parsed env) after each test. */
function keepEnv(...names: string[]) {
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnv();
  });
}

describe("the Resend adapter against a stand-in", () => {
  let resend: ResendStandIn;
  let adapter: NewsletterProvider;
  /** Every error the adapter threw in these tests: none may quote a key. */
  const errors: ProviderError[] = [];
  const keys: string[] = [];

  async function fails(promise: Promise<unknown>) {
    const error = await rejection(promise);
    errors.push(error);
    return error;
  }

  beforeAll(async () => {
    resend = await startResendStandIn();
    keys.push(resend.apiKey);
    adapter = createResendNewsletter({ apiKey: resend.apiKey, baseUrl: resend.url });
  });
  afterAll(async () => {
    await resend.close();
  });

  it("creates a domain (201) and maps it with its records, sending name, region and the Bearer key", async () => {
    const name = uniqueDomain();
    const domain = await adapter.createDomain(name, "eu-west-1");

    const request = resend.requests.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/domains");
    expect(request.headers.authorization).toBe(`Bearer ${resend.apiKey}`);
    expect(request.body).toMatchObject({ name, region: "eu-west-1" });

    const stored = resend.domains.get(domain.id)!;
    expect(stored).toBeDefined();
    expect(stored.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\+00$/);
    expect(domain).toEqual({
      id: stored.id,
      name,
      status: "not_started",
      region: "eu-west-1",
      createdAt: new Date(stored.created_at.replace(" ", "T").replace("+00", "Z")).toISOString(),
      records: [
        {
          record: "SPF",
          name: "send",
          type: "MX",
          ttl: "Auto",
          status: "not_started",
          value: "feedback-smtp.eu-west-1.amazonses.com",
          priority: 10,
        },
        {
          record: "SPF",
          name: "send",
          type: "TXT",
          ttl: "Auto",
          status: "not_started",
          value: "v=spf1 include:amazonses.com ~all",
        },
        {
          record: "DKIM",
          name: "resend._domainkey",
          type: "TXT",
          ttl: "Auto",
          status: "not_started",
          value: stored.records[2].value,
        },
      ],
    });
    expect(domain.records[2].value).toMatch(/^p=[A-Za-z0-9+/]{100,}={0,2}$/);
  });

  it("reads a domain with GET /domains/{id}, a numeric TTL as text", async () => {
    const created = await adapter.createDomain(uniqueDomain(), "us-east-1");
    const read = await adapter.getDomain(created.id);
    expect(read).toEqual(created);
    const request = resend.requests.at(-1)!;
    expect([request.method, request.path]).toEqual(["GET", `/domains/${created.id}`]);
    expect(request.headers.authorization).toBe(`Bearer ${resend.apiKey}`);

    // Resend documents the TTL as a string; a number is kept as its text all the same.
    const stored = resend.domains.get(created.id)!;
    resend.fail({
      method: "GET",
      path: new RegExp(`^/domains/${created.id}$`),
      status: 200,
      body: { ...stored, records: [{ ...stored.records[1], ttl: 3600 }] },
    });
    expect((await adapter.getDomain(created.id)).records).toEqual([
      expect.objectContaining({ type: "TXT", ttl: "3600" }),
    ]);
  });

  it("asks Resend to verify with POST /domains/{id}/verify, and reads the status it settles on", async () => {
    const { id } = await adapter.createDomain(uniqueDomain(), "us-east-1");
    await adapter.verifyDomain(id);
    const request = resend.requests.at(-1)!;
    expect([request.method, request.path]).toEqual(["POST", `/domains/${id}/verify`]);
    expect(request.headers.authorization).toBe(`Bearer ${resend.apiKey}`);

    const pending = await adapter.getDomain(id);
    expect(pending.status).toBe("pending");
    expect(pending.records.map((r) => r.status)).toEqual(["pending", "pending", "pending"]);

    resend.setStatus(id, "verified");
    const verified = await adapter.getDomain(id);
    expect(verified.status).toBe("verified");
    expect(verified.records.map((r) => r.status)).toEqual(["verified", "verified", "verified"]);

    resend.setStatus(id, "partially_failed", "failed");
    expect((await adapter.getDomain(id)).status).toBe("partially_failed");
  });

  it("deletes with DELETE /domains/{id}; an unknown or deleted id is 404", async () => {
    const { id } = await adapter.createDomain(uniqueDomain(), "us-east-1");
    await adapter.deleteDomain(id);
    const request = resend.requests.at(-1)!;
    expect([request.method, request.path]).toEqual(["DELETE", `/domains/${id}`]);
    expect(resend.domains.has(id)).toBe(false);

    for (const call of [
      () => adapter.getDomain(id),
      () => adapter.verifyDomain(id),
      () => adapter.deleteDomain(id),
    ]) {
      expect(await fails(call())).toMatchObject({
        retryable: false,
        details: { provider: "resend", status: 404, code: "not_found" },
      });
    }

    // An id that is no Resend id never reaches Resend (it would steer the path elsewhere).
    const before = resend.requests.length;
    expect((await fails(adapter.getDomain("../api-keys"))).details.status).toBe(404);
    expect((await fails(adapter.deleteDomain(""))).details.status).toBe(404);
    expect(resend.requests.length).toBe(before);
  });

  it("turns Resend's 'registered already' refusal of a duplicate name into 409", async () => {
    const name = uniqueDomain();
    await adapter.createDomain(name, "us-east-1");
    const duplicate = await fails(adapter.createDomain(name, "us-east-1"));
    // The stand-in answers as Resend does: 403 validation_error.
    expect(resend.requests.at(-1)!.path).toBe("/domains");
    expect(duplicate).toMatchObject({
      retryable: false,
      message: `The ${name} domain has been registered already.`,
      details: { provider: "resend", status: 409, code: "domain_exists" },
    });

    // The same wording with 409 or 422 is the same conflict.
    for (const status of [409, 422]) {
      resend.fail({
        method: "POST",
        path: /^\/domains$/,
        status,
        body: {
          statusCode: status,
          name: "validation_error",
          message: `The domain ${name} has already been registered.`,
        },
      });
      expect((await fails(adapter.createDomain(name, "us-east-1"))).details).toMatchObject({
        status: 409,
        code: "domain_exists",
      });
    }

    // Another 403 validation error is not a conflict.
    resend.fail({
      path: /^\/domains$/,
      status: 403,
      body: { statusCode: 403, name: "validation_error", message: "Domain is not allowed." },
    });
    expect((await fails(adapter.createDomain(uniqueDomain(), "us-east-1"))).details).toMatchObject({
      status: 403,
      code: "validation_error",
    });
  });

  it("passes 422 invalid_region on with Resend's name as the code", async () => {
    const error = await fails(adapter.createDomain(uniqueDomain(), "moon-1"));
    expect(resend.requests.at(-1)!.body).toMatchObject({ region: "moon-1" });
    expect(error).toMatchObject({
      retryable: false,
      details: { provider: "resend", status: 422, code: "invalid_region" },
    });
    expect(error.message).toContain("us-east-1");
  });

  it("answers 401 for a key Resend refuses, and refuses a missing or malformed key without a request", async () => {
    const wrongKey = "re_wrongKey_0987654321abcdef";
    keys.push(wrongKey);
    const wrong = createResendNewsletter({ apiKey: wrongKey, baseUrl: resend.url });
    const refused = await fails(wrong.createDomain(uniqueDomain(), "us-east-1"));
    // Resend answers 403 invalid_api_key; callers get 401 as for every vendor's bad key.
    expect(refused).toMatchObject({
      retryable: false,
      details: { provider: "resend", status: 401, code: "invalid_api_key" },
    });
    expect(resend.requests.at(-1)!.headers.authorization).toBe(`Bearer ${wrongKey}`);
    expect(
      (await fails(wrong.getDomain("d91cd9bd-1176-453e-8fc1-35364d380206"))).details,
    ).toMatchObject({ status: 401 });

    const before = resend.requests.length;
    const unset = createResendNewsletter({ baseUrl: resend.url });
    expect(await fails(unset.getDomain("d91cd9bd"))).toMatchObject({
      retryable: true,
      details: { status: 503, code: "not_configured" },
    });
    const spaced = "re_has space_0123456789";
    keys.push(spaced);
    const malformed = createResendNewsletter({ apiKey: spaced, baseUrl: resend.url });
    expect(
      (await fails(malformed.createDomain(uniqueDomain(), "us-east-1"))).details,
    ).toMatchObject({ status: 401, code: "invalid_api_key" });
    expect(resend.requests.length).toBe(before);
  });

  it("makes 429 retryable after Retry-After (or a minute), and 5xx retryable", async () => {
    resend.fail({ status: 429, headers: { "Retry-After": "7" } });
    expect(await fails(adapter.createDomain(uniqueDomain(), "us-east-1"))).toMatchObject({
      retryable: true,
      details: {
        provider: "resend",
        status: 429,
        code: "rate_limit_exceeded",
        retryAfterSeconds: 7,
      },
    });
    resend.fail({ status: 429 });
    expect(await fails(adapter.getDomain("d91cd9bd-1176-453e-8fc1-35364d380206"))).toMatchObject({
      retryable: true,
      details: { status: 429, retryAfterSeconds: 60 },
    });

    resend.fail({ status: 500 });
    expect(await fails(adapter.getDomain("d91cd9bd-1176-453e-8fc1-35364d380206"))).toMatchObject({
      retryable: true,
      details: { provider: "resend", status: 500, code: "vendor_unavailable" },
    });
    // A gateway's answer without Resend's error fields tells no status: still retryable.
    resend.fail({ method: "POST", status: 502, body: "Bad Gateway" });
    const gateway = await fails(adapter.verifyDomain("d91cd9bd-1176-453e-8fc1-35364d380206"));
    expect(gateway).toMatchObject({ retryable: true, details: { code: "unreachable" } });
  });

  it("makes no answer at all retryable, without a status", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = createResendNewsletter({
      apiKey: resend.apiKey,
      baseUrl: `http://127.0.0.1:${port}`,
    });
    const lost = await fails(unreachable.createDomain(uniqueDomain(), "us-east-1"));
    expect(lost).toMatchObject({
      retryable: true,
      details: { provider: "resend", code: "unreachable" },
    });
    expect(lost.details.status).toBeUndefined();
  });

  it("keeps the key out of a message that quotes it", async () => {
    resend.fail({
      status: 400,
      body: {
        statusCode: 400,
        name: "validation_error",
        message: `The key ${resend.apiKey} may not do this.`,
      },
    });
    const error = await fails(adapter.createDomain(uniqueDomain(), "us-east-1"));
    expect(error.details.status).toBe(400);
    expect(error.message).toContain("[redacted]");
  });

  it("quoted no API key in any error message above", () => {
    expect(errors.length).toBeGreaterThan(15);
    for (const error of errors) {
      for (const key of keys) expect(error.message).not.toContain(key);
      expect(error.message).not.toMatch(/\bre_[A-Za-z0-9_]{8,}/);
    }
  });

  it("(the stand-in) lists domains without records and wants a Bearer key", async () => {
    const listed = await fetch(`${resend.url}/domains?limit=100`, {
      headers: { Authorization: `Bearer ${resend.apiKey}` },
    });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { object: string; data: Record<string, unknown>[] };
    expect(body.object).toBe("list");
    expect(body.data.length).toBe(resend.domains.size);
    for (const item of body.data) expect(item).not.toHaveProperty("records");

    const anonymous = await fetch(`${resend.url}/domains`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      statusCode: 401,
      name: "missing_api_key",
      message: expect.any(String),
    });
  });
});

describe("the local newsletter provider", () => {
  const local = createLocalNewsletter();
  keepEnv("LOCAL_DOMAIN_VERIFY_SECONDS");

  /** Sets LOCAL_DOMAIN_VERIFY_SECONDS for the reads that follow. */
  function verifyAfter(seconds: number) {
    process.env.LOCAL_DOMAIN_VERIFY_SECONDS = String(seconds);
    resetEnv();
  }

  it("answers Resend's records for the domain, not_started, without a DMARC record", async () => {
    const name = uniqueDomain();
    const domain = await local.createDomain(name, "");
    expect(domain).toMatchObject({ name, status: "not_started", region: "us-east-1" });
    expect(domain.id).toMatch(/^ldom_[a-z0-9]{16,}$/);
    expect(Date.now() - Date.parse(domain.createdAt)).toBeLessThan(60_000);
    expect(domain.records).toEqual([
      {
        record: "SPF",
        name: "send",
        type: "MX",
        ttl: "Auto",
        status: "not_started",
        value: "feedback-smtp.us-east-1.amazonses.com",
        priority: 10,
      },
      {
        record: "SPF",
        name: "send",
        type: "TXT",
        ttl: "Auto",
        status: "not_started",
        value: "v=spf1 include:amazonses.com ~all",
      },
      {
        record: "DKIM",
        name: "resend._domainkey",
        type: "TXT",
        ttl: "Auto",
        status: "not_started",
        value: expect.stringMatching(/^p=[A-Za-z0-9+/]{200,}={0,2}$/),
      },
      {
        record: "Receiving",
        name: "",
        type: "MX",
        ttl: "Auto",
        status: "not_started",
        value: "inbound-smtp.us-east-1.amazonaws.com",
        priority: 10,
      },
    ]);
    const isDmarc = (r: SenderDomain["records"][number]) =>
      /dmarc/i.test(r.record) || /dmarc/i.test(r.name) || /DMARC1/.test(r.value);
    expect(domain.records.some(isDmarc)).toBe(false);

    // Read back the same; another domain gets another DKIM key.
    expect(await local.getDomain(domain.id)).toEqual(domain);
    const other = await local.createDomain(uniqueDomain(), "eu-west-1");
    expect(other.records[2].value).not.toBe(domain.records[2].value);
    expect(other.records[0].value).toBe("feedback-smtp.eu-west-1.amazonses.com");
  });

  it("is not_started until the first verify, pending after it, verified LOCAL_DOMAIN_VERIFY_SECONDS later", async () => {
    verifyAfter(600);
    const { id } = await local.createDomain(uniqueDomain(), "us-east-1");
    expect((await local.getDomain(id)).status).toBe("not_started");

    await local.verifyDomain(id);
    const pending = await local.getDomain(id);
    expect(pending.status).toBe("pending");
    expect(pending.records.every((r) => r.status === "pending")).toBe(true);
    const [row] = await db()
      .select()
      .from(localNewsletterDomains)
      .where(eq(localNewsletterDomains.id, id));
    const firstVerify = row.verifyRequestedAt!;

    // Asking again does not restart the wait.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await local.verifyDomain(id);
    const [again] = await db()
      .select()
      .from(localNewsletterDomains)
      .where(eq(localNewsletterDomains.id, id));
    expect(again.verifyRequestedAt).toEqual(firstVerify);

    verifyAfter(0);
    const verified = await local.getDomain(id);
    expect(verified.status).toBe("verified");
    expect(verified.records.map((r) => r.status)).toEqual([
      "verified",
      "verified",
      "verified",
      "verified",
    ]);

    // With the default wait (5 s), a domain asked 6 s ago is verified and one asked now is not.
    delete process.env.LOCAL_DOMAIN_VERIFY_SECONDS;
    resetEnv();
    await db()
      .update(localNewsletterDomains)
      .set({ verifyRequestedAt: new Date(Date.now() - 6_000) })
      .where(eq(localNewsletterDomains.id, id));
    expect((await local.getDomain(id)).status).toBe("verified");
    const fresh = await local.createDomain(uniqueDomain(), "us-east-1");
    await local.verifyDomain(fresh.id);
    expect((await local.getDomain(fresh.id)).status).toBe("pending");
  });

  it("fails a domain whose first label is 'unverified' when its time comes", async () => {
    verifyAfter(600);
    const { id, name } = await local.createDomain(uniqueDomain("unverified"), "us-east-1");
    expect(name.startsWith("unverified.")).toBe(true);
    await local.verifyDomain(id);
    expect((await local.getDomain(id)).status).toBe("pending");

    verifyAfter(0);
    const failed = await local.getDomain(id);
    expect(failed.status).toBe("failed");
    expect(failed.records.map((r) => r.status)).toEqual(["failed", "failed", "failed", "failed"]);

    // Only the first label counts.
    const elsewhere = await local.createDomain(`news.unverified.t${Date.now()}.example.com`, "");
    await local.verifyDomain(elsewhere.id);
    expect((await local.getDomain(elsewhere.id)).status).toBe("verified");
  });

  // The contract suite covers the 409 itself; the local provider also knows a name it holds in
  // another case or with spaces around it, and keeps one row.
  it("takes a name in other case or with spaces for the one it holds (409), keeping one row", async () => {
    const name = uniqueDomain();
    await local.createDomain(name, "us-east-1");
    for (const again of [name.toUpperCase(), ` ${name} `]) {
      expect(await rejection(local.createDomain(again, "eu-west-1"))).toMatchObject({
        retryable: false,
        details: { provider: "resend", status: 409, code: "domain_exists" },
      });
    }
    const rows = await db()
      .select()
      .from(localNewsletterDomains)
      .where(eq(localNewsletterDomains.name, name));
    expect(rows).toHaveLength(1);
  });

  it("stores nothing for a name it refuses as rate-limited", async () => {
    const name = uniqueDomain("ratelimited");
    expect((await rejection(local.createDomain(name, "us-east-1"))).details.status).toBe(429);
    const rows = await db()
      .select()
      .from(localNewsletterDomains)
      .where(eq(localNewsletterDomains.name, name));
    expect(rows).toHaveLength(0);
  });

  it("refuses a name that is no domain with 422", async () => {
    for (const bad of ["", "localhost", "not a domain.com", "-bad.example.com"]) {
      expect((await rejection(local.createDomain(bad, "us-east-1"))).details.status).toBe(422);
    }
  });
});

describe("newsletterProvider()", () => {
  keepEnv("PROVIDERS", "RESEND_API_KEY", "RESEND_BASE_URL");

  it("is the local provider by default and Resend at RESEND_BASE_URL when PROVIDERS=live", async () => {
    delete process.env.PROVIDERS;
    resetEnv();
    expect(newsletterProvider()).toBe(newsletterProvider());
    const local = await newsletterProvider().createDomain(uniqueDomain(), "us-east-1");
    expect(local.id).toMatch(/^ldom_/);

    const resend = await startResendStandIn();
    try {
      process.env.PROVIDERS = "live";
      process.env.RESEND_API_KEY = resend.apiKey;
      process.env.RESEND_BASE_URL = resend.url;
      resetEnv();
      const live = await newsletterProvider().createDomain(uniqueDomain(), "us-east-1");
      expect(resend.domains.has(live.id)).toBe(true);
      expect(resend.requests).toHaveLength(1);
      expect(resend.requests[0].headers.authorization).toBe(`Bearer ${resend.apiKey}`);
    } finally {
      await resend.close();
    }
  });
});
