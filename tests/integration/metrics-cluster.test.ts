/**
 * GET /metrics of `npm start` with WEB_CONCURRENCY=2 on PostgreSQL (scripts/start.mjs,
 * node:cluster): whichever worker a scrape reaches, it answers for both, added up by the primary
 * (server/metrics.mjs). Counters and histograms are sums of the workers'; a queue's waiting
 * jobs, the same fact in both, are counted once; each pool counts once per process.
 * PostgreSQL only: the embedded PGlite database belongs to one process.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { queue, startQueue } from "~/jobs/queue.server";
import { startServer, stopServer, type Server } from "./lifecycle-support";
import { sample } from "./prometheus-text";

const TOKEN = `cluster-metrics-${randomUUID()}`;
/** A queue of this file only: the servers do not work it, so its jobs wait. */
const PROBE_QUEUE = "metrics-cluster.probe";

describe.runIf(process.env.DATABASE_URL)("GET /metrics of two server processes", () => {
  let running: Server | undefined;
  afterAll(async () => {
    if (running) await stopServer(running);
  });

  it("answers for both processes, whichever one is asked", async () => {
    await startQueue([PROBE_QUEUE]);
    const later = new Date(Date.now() + 86_400_000);
    for (let i = 0; i < 3; i += 1) await queue().send(PROBE_QUEUE, {}, { startAfter: later });

    running = await startServer({
      DATABASE_URL: process.env.DATABASE_URL!,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-metrics-cluster-")),
      WEB_CONCURRENCY: "2",
      METRICS_TOKEN: TOKEN,
    });
    const { base, output } = running;
    await expect
      .poll(() => output.join("").match(/database: postgres/g)?.length ?? 0, { timeout: 60_000 })
      .toBe(2);

    const unauthorized = await fetch(`${base}/metrics`);
    expect(unauthorized.status).toBe(401);
    const scrape = async () => {
      const res = await fetch(`${base}/metrics`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      return res.text();
    };
    const healthz = { route: "routes/healthz", method: "GET", status_class: "2xx" };
    const count = "stackshift_http_request_duration_seconds_count";
    const before = sample(await scrape(), count, healthz) ?? 0;
    // Connections are spread over the workers by the primary (round robin on Linux).
    for (let i = 0; i < 20; i += 1) {
      const res = await fetch(`${base}/healthz`, { headers: { Connection: "close" } });
      expect(res.status).toBe(200);
      await res.text();
    }
    // A request is recorded when its response has closed, a moment after the client has it.
    await expect
      .poll(async () => sample(await scrape(), count, healthz))
      .toBeGreaterThanOrEqual(before + 20);
    // Each scrape reaches one worker, and each answers with both processes' series.
    for (let i = 0; i < 4; i += 1) {
      const text = await scrape();
      expect(sample(text, "stackshift_metrics_processes")).toBe(2);
      expect(sample(text, count, healthz)).toBeGreaterThanOrEqual(before + 20);
      expect(sample(text, "stackshift_job_queue_waiting", { queue: PROBE_QUEUE })).toBe(3);
      expect(sample(text, "stackshift_db_pool_max_connections")).toBe(20);
    }
    expect(output.join("")).not.toContain(TOKEN);
  }, 120_000);
});
