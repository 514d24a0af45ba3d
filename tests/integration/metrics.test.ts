/**
 * GET /metrics (server/metrics.mjs) and the series of app/utils/metrics.server.ts, on a small app
 * mounted as server/index.mjs mounts the real pieces (request id, request log, the endpoint, the
 * Remix handler), with the real job queue, providers, rate limits and mail delivery of this
 * worker's database. Every series is read back from the endpoint's text, as Prometheus reads it.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Server } from "node:http";
import express from "express";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { database, db } from "~/db/client.server";
import { queue, startQueue, work } from "~/jobs/queue.server";
import { hostingProvider } from "~/providers/hosting/index.server";
import { paymentsProvider } from "~/providers/payments/index.server";
import { deliver, queueMail } from "~/services/core/mail.server";
import { RateLimitedError } from "~/services/core/errors";
import { consume } from "~/services/core/rate-limit.server";
import { resetEnv } from "~/utils/env.server";
import { captureLogs, logger } from "~/utils/logger.server";
import { metricsForServer } from "~/utils/metrics.server";
import { loggablePathname } from "~/utils/request-id.server";
import { requestId, requestLog } from "../../server/middleware.mjs";
import { bearerMatches, mountMetrics } from "../../server/metrics.mjs";
import { fakeBuild, listen, mountRemix, pageModule } from "./fake-build";
import { sample } from "./prometheus-text";

const TOKEN = `metrics-token-${randomUUID()}`;
/** Queues of this file only: no other code works them. */
const WAITING_QUEUE = "metrics-test.waiting";
const WORKED_QUEUE = "metrics-test.worked";

/** An app as server/index.mjs mounts it, with METRICS_TOKEN `token` (or none). */
async function serve(token: string | undefined) {
  const metrics = metricsForServer(token);
  const app = express();
  app.use(requestId());
  app.use(requestLog(logger, loggablePathname, metrics.observeRequest));
  mountMetrics(app, { metrics, logger });
  mountRemix(
    app,
    fakeBuild({
      root: { id: "root", path: "", module: pageModule(() => ({ ok: true })) },
      "routes/hello": {
        id: "routes/hello",
        parentId: "root",
        path: "hello",
        module: pageModule(() => ({ hello: "world" })),
      },
    }),
  );
  return listen(app);
}

describe("GET /metrics", () => {
  let server: Server;
  let base = "";
  let off: { server: Server; base: string };
  const scrape = async () => {
    const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    ({ server, base } = await serve(TOKEN));
    off = await serve(undefined);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => off.server.close(resolve));
  });

  it("is absent (404) without METRICS_TOKEN", async () => {
    const res = await fetch(`${off.base}/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("stackshift_");
  });

  it("refuses a request without the token, or with another one (401)", async () => {
    for (const authorization of [
      undefined,
      "Bearer",
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}`,
      TOKEN,
    ]) {
      const res = await fetch(`${base}/metrics`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).not.toContain("stackshift_");
    }
  });

  it("compares the bearer token as a whole, in any case of the scheme", () => {
    const digest = (value: string) => createHash("sha256").update(value).digest();
    expect(bearerMatches(`bearer ${TOKEN}`, digest(TOKEN))).toBe(true);
    expect(bearerMatches(`Bearer  ${TOKEN} `, digest(TOKEN))).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN} ${TOKEN}`, digest(TOKEN))).toBe(false);
    expect(bearerMatches(undefined, digest(TOKEN))).toBe(false);
  });

  it("answers the token in the Prometheus text format, never cached", async () => {
    const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(text).toContain("# TYPE stackshift_http_request_duration_seconds histogram");
    expect(sample(text, "stackshift_metrics_processes")).toBe(1);
    // The default process series, with the prefix.
    expect(sample(text, "stackshift_process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(text).toContain("# TYPE stackshift_nodejs_eventloop_lag_seconds gauge");
  });

  it("times requests by the route that answered, method and status class", async () => {
    const labels = { route: "routes/hello", method: "GET", status_class: "2xx" };
    const count = "stackshift_http_request_duration_seconds_count";
    const before = sample(await scrape(), count, labels) ?? 0;
    expect((await fetch(`${base}/hello.data`)).status).toBe(200);
    expect((await fetch(`${base}/nowhere/${randomUUID()}`)).status).toBe(404);
    await expect.poll(async () => sample(await scrape(), count, labels)).toBe(before + 1);
    const text = await scrape();
    expect(
      sample(text, "stackshift_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" }),
    ).toBe(before + 1);
    expect(sample(text, "stackshift_http_request_duration_seconds_sum", labels)).toBeGreaterThan(0);
    // No route matched: a fixed value, never the path.
    expect(sample(text, count, { route: "unmatched", status_class: "4xx" })).toBeGreaterThan(0);
    expect(text).not.toContain("/nowhere");
    // The scrapes themselves.
    expect(sample(text, count, { route: "metrics", status_class: "2xx" })).toBeGreaterThan(0);
  });

  it("records durations with the request log off", async () => {
    const logs = captureLogs("warn");
    try {
      const labels = { route: "routes/hello", method: "GET", status_class: "2xx" };
      const count = "stackshift_http_request_duration_seconds_count";
      const before = sample(await scrape(), count, labels) ?? 0;
      await fetch(`${base}/hello.data`);
      await expect.poll(async () => sample(await scrape(), count, labels)).toBe(before + 1);
      expect(logs.records).toEqual([]);
    } finally {
      logs.restore();
    }
  });

  it("says how many jobs wait in each queue and how long the longest-due one has been due", async () => {
    await startQueue([WAITING_QUEUE]);
    // One due for a minute, one due now, one scheduled for tomorrow: three wait, the oldest 60 s.
    await queue().send(WAITING_QUEUE, {}, { startAfter: new Date(Date.now() - 60_000) });
    await queue().send(WAITING_QUEUE, {});
    await queue().send(WAITING_QUEUE, {}, { startAfter: new Date(Date.now() + 86_400_000) });
    const text = await scrape();
    expect(sample(text, "stackshift_job_queue_waiting", { queue: WAITING_QUEUE })).toBe(3);
    const oldest = sample(text, "stackshift_job_queue_oldest_waiting_seconds", {
      queue: WAITING_QUEUE,
    });
    expect(oldest).toBeGreaterThanOrEqual(59);
    expect(oldest).toBeLessThan(600);
    // Every queue has its line, the empty ones at 0.
    expect(sample(text, "stackshift_job_queue_waiting", { queue: "mail.send" })).toBeTypeOf(
      "number",
    );
  });

  it("counts a queue's completions, retries and failures", async () => {
    await startQueue([WORKED_QUEUE]);
    await work(WORKED_QUEUE, async (data) => {
      if (data.fail) throw new Error("this job fails on purpose");
    });
    const labels = { queue: WORKED_QUEUE };
    const text = await scrape();
    // Worked queues start at 0, so the first failure is a change.
    expect(sample(text, "stackshift_job_failures_total", labels)).toBe(0);
    expect(sample(text, "stackshift_job_retries_total", labels)).toBe(0);
    expect(sample(text, "stackshift_job_completions_total", labels)).toBe(0);
    await queue().send(WORKED_QUEUE, {}, { retryLimit: 0 });
    // A failing job with one retry: the first attempt is a retry, the second a failure.
    await queue().send(WORKED_QUEUE, { fail: true }, { retryLimit: 1, retryDelay: 0 });
    await expect
      .poll(
        async () => {
          const now = await scrape();
          return ["completions", "retries", "failures"].map((kind) =>
            sample(now, `stackshift_job_${kind}_total`, labels),
          );
        },
        { timeout: 15_000, interval: 250 },
      )
      .toEqual([1, 1, 1]);
  });

  it("counts provider calls, their errors and their time, by provider, mode and method", async () => {
    const netlify = hostingProvider("netlify");
    const labels = { provider: "netlify", mode: "local" };
    const calls = (text: string, operation: string) =>
      sample(text, "stackshift_provider_calls_total", { ...labels, operation }) ?? 0;
    const before = await scrape();
    const site = await netlify.createSite({
      name: `metrics-${randomUUID().slice(0, 8)}`,
      idempotencyKey: randomUUID(),
    });
    await netlify.getSite(site.id);
    await expect(netlify.getSite("no-such-site")).rejects.toMatchObject({
      name: "ProviderError",
    });
    // A property that is not a method passes through, and is not a call; nor is a synchronous
    // method (it builds an address, it calls nobody).
    expect(netlify.name).toBe("netlify");
    const url = paymentsProvider().connectAuthorizeUrl({
      state: "s",
      redirectUri: "http://localhost:3000/oauth/stripe/callback",
    });
    expect(typeof url).toBe("string");
    const after = await scrape();
    expect(
      sample(after, "stackshift_provider_calls_total", { operation: "connectAuthorizeUrl" }),
    ).toBeUndefined();
    expect(calls(after, "createSite") - calls(before, "createSite")).toBe(1);
    expect(calls(after, "getSite") - calls(before, "getSite")).toBe(2);
    const errors = (text: string) =>
      sample(text, "stackshift_provider_errors_total", {
        ...labels,
        operation: "getSite",
        kind: "provider",
      }) ?? 0;
    expect(errors(after) - errors(before)).toBe(1);
    const timed = (text: string) =>
      sample(text, "stackshift_provider_call_duration_seconds_count", {
        ...labels,
        operation: "getSite",
      }) ?? 0;
    expect(timed(after) - timed(before)).toBe(2);
  });

  it("counts rate limit refusals by policy", async () => {
    const policy = { policy: "newsletterTest" };
    const refusals = async () =>
      sample(await scrape(), "stackshift_rate_limit_refusals_total", policy) ?? 0;
    const before = await refusals();
    const key = `metrics-${randomUUID()}`;
    for (let i = 0; i < 10; i += 1) await consume("newsletterTest", key);
    expect(await refusals()).toBe(before);
    await expect(consume("newsletterTest", key)).rejects.toBeInstanceOf(RateLimitedError);
    expect(await refusals()).toBe(before + 1);
  });

  it("counts mails sent (over SMTP, or kept in the log) and failed", async () => {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith("refused")) callback(new Error("no such mailbox"));
        else callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const info = vi.spyOn(console, "info").mockImplementation(() => undefined);
    try {
      const counts = async () => {
        const text = await scrape();
        return {
          log: sample(text, "stackshift_mails_sent_total", { transport: "log" }) ?? 0,
          smtp: sample(text, "stackshift_mails_sent_total", { transport: "smtp" }) ?? 0,
          failed: sample(text, "stackshift_mails_failed_total") ?? 0,
        };
      };
      const before = await counts();
      delete process.env.SMTP_URL;
      resetEnv();
      await deliver(await queueMail(db(), { to: "kept@example.com", subject: "Kept", text: "." }));
      process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
      resetEnv();
      await deliver(await queueMail(db(), { to: "sent@example.com", subject: "Sent", text: "." }));
      const refused = await queueMail(db(), {
        to: "refused@example.com",
        subject: "Refused",
        text: ".",
      });
      await expect(deliver(refused)).rejects.toThrow();
      const after = await counts();
      expect(after).toEqual({
        log: before.log + 1,
        smtp: before.smtp + 1,
        failed: before.failed + 1,
      });
    } finally {
      info.mockRestore();
      delete process.env.SMTP_URL;
      resetEnv();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it("reports the database pool's connections on PostgreSQL, and zeros on PGlite", async () => {
    const text = await scrape();
    if (database().kind === "postgres") {
      expect(sample(text, "stackshift_db_pool_connections")).toBeGreaterThan(0);
      expect(sample(text, "stackshift_db_pool_idle_connections")).toBeGreaterThanOrEqual(0);
      expect(sample(text, "stackshift_db_pool_waiting_clients")).toBeGreaterThanOrEqual(0);
      expect(sample(text, "stackshift_db_pool_max_connections")).toBe(10);
    } else {
      for (const name of [
        "connections",
        "idle_connections",
        "waiting_clients",
        "max_connections",
      ]) {
        expect(sample(text, `stackshift_db_pool_${name}`), name).toBe(0);
      }
    }
  });

  it("never writes the token to the log", async () => {
    const logs = captureLogs("info");
    try {
      await scrape();
      await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer wrong-${TOKEN}` } });
      await expect
        .poll(() => logs.records.filter((r) => r.msg === "request" && r.route === "metrics"))
        .toHaveLength(2);
      const text = JSON.stringify(logs.records);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toMatch(/authorization|bearer/i);
    } finally {
      logs.restore();
    }
  });
});
