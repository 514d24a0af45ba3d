// GET /metrics for Prometheus (docs/metrics.md, docs/decisions/034-metrics.md). Absent unless
// METRICS_TOKEN is set; then answered only to `Authorization: Bearer <token>`. The series live
// in the server build (app/utils/metrics.server.ts) and come here through boot()'s runtime, so
// this file never holds a registry of its own.
//
// Under `npm start` with several processes (node:cluster) a scrape reaches one worker. That
// worker asks the primary (scripts/serve.mjs), which asks every worker for its series and adds
// them up with prom-client's AggregatorRegistry: counters and histograms are summed, the queue
// gauges (one database, the same fact in each worker) take the largest answer.
import cluster from "node:cluster";
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";

/** Worker -> primary: this worker answers COLLECT. */
const READY = "stackshift:metrics-ready";
/** Primary -> worker: ask me (ASK) for the whole cluster's series. */
const ACK = "stackshift:metrics-ack";
/** Worker -> primary, and its ANSWER: the added-up series in the text format. */
const ASK = "stackshift:metrics-ask";
const ANSWER = "stackshift:metrics-answer";
/** Primary -> worker, and its COLLECTED: the worker's own series as prom-client's JSON. */
const COLLECT = "stackshift:metrics-collect";
const COLLECTED = "stackshift:metrics-collected";

/** How long the primary waits for the workers' series: one that is later is left out. */
const COLLECT_MS = 3_000;
/** How long a worker waits for the primary's answer (Prometheus's default timeout is 10 s). */
const ASK_MS = 8_000;

/**
 * What boot() hands over for /metrics: metricsForServer's answer, one type with the app.
 * @typedef {import("../app/runtime-contract").MetricsRuntime} MetricsRuntime
 */

const digest = (/** @type {string} */ value) => createHash("sha256").update(value).digest();

/**
 * Whether an Authorization header carries the bearer token. Compared as SHA-256 digests, which
 * have one length, so timingSafeEqual takes the same time whatever was sent (and never throws).
 * @param {string | undefined} header
 * @param {Buffer} expected the token's digest
 */
export function bearerMatches(header, expected) {
  const given = /^Bearer\s+(.+?)\s*$/i.exec(header ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), expected);
}

/**
 * Mounts GET /metrics on `app` when the runtime has a token; without one nothing is mounted and
 * the path is answered like any unknown one (404).
 * @param {import("express").Express} app
 * @param {Pick<import("../app/runtime-contract").Runtime, "metrics" | "logger">} runtime
 */
export function mountMetrics(app, { metrics, logger }) {
  if (!metrics.token) return;
  const expected = digest(metrics.token);
  const primary = linkToPrimary(metrics);
  app.get("/metrics", async (req, res) => {
    // The request's log line and its duration say it was a scrape.
    const record = res.locals.requestRecord;
    if (record) record.routeId = "metrics";
    res.setHeader("Cache-Control", "no-store");
    if (!bearerMatches(req.headers.authorization, expected)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).type("text/plain").send("A bearer token is required.\n");
      return;
    }
    try {
      const text = primary.acknowledged ? await primary.ask() : await metrics.text();
      res.status(200).setHeader("Content-Type", metrics.contentType);
      res.end(text);
    } catch (error) {
      logger.error({ area: "metrics", err: error }, "metrics could not be gathered");
      res.status(503).type("text/plain").send("Metrics are not available now.\n");
    }
  });
}

/**
 * A cluster worker's side: answers the primary's COLLECT with this process's series and asks it
 * for the whole cluster's. Only once the primary acknowledged: a worker of another process
 * manager (whose primary is not scripts/serve.mjs) answers with its own series.
 * @param {MetricsRuntime} metrics
 */
function linkToPrimary(metrics) {
  const link = {
    acknowledged: false,
    /** @type {() => Promise<string>} */
    ask: () => Promise.reject(new Error("not a cluster worker")),
  };
  const send = process.send?.bind(process);
  if (!cluster.isWorker || !send) return link;
  /** @type {Map<string, (message: { text?: string; error?: string }) => void>} */
  const pending = new Map();
  process.on("message", (/** @type {any} */ message) => {
    if (message?.type === ACK) {
      link.acknowledged = true;
    } else if (message?.type === COLLECT) {
      metrics.json().then(
        (series) => send({ type: COLLECTED, id: message.id, series }),
        (error) => send({ type: COLLECTED, id: message.id, error: String(error?.message) }),
      );
    } else if (message?.type === ANSWER) {
      pending.get(message.id)?.(message);
    }
  });
  link.ask = () =>
    new Promise((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error("the cluster's primary process did not answer"));
      }, ASK_MS);
      pending.set(id, (message) => {
        clearTimeout(timer);
        pending.delete(id);
        if (message.text === undefined) reject(new Error(message.error ?? "no metrics"));
        else resolve(message.text);
      });
      send({ type: ASK, id });
    });
  send({ type: READY });
  return link;
}

/**
 * The primary's side (scripts/serve.mjs calls it before forking): answers a worker's ASK with
 * every ready worker's series added up. prom-client is loaded on the first scrape only.
 */
export function aggregateClusterMetrics() {
  /** @type {Set<number>} */
  const ready = new Set();
  /** @type {Map<string, (workerId: number, message: any) => void>} */
  const collecting = new Map();
  cluster.on("message", (worker, /** @type {any} */ message) => {
    if (message?.type === READY) {
      ready.add(worker.id);
      worker.send({ type: ACK });
    } else if (message?.type === COLLECTED) {
      collecting.get(message.id)?.(worker.id, message);
    } else if (message?.type === ASK) {
      clusterSeries(ready, collecting).then(
        (text) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, text }),
        (error) =>
          worker.isConnected() &&
          worker.send({ type: ANSWER, id: message.id, error: String(error?.message) }),
      );
    }
  });
  cluster.on("exit", (worker) => ready.delete(worker.id));
}

/**
 * @param {Set<number>} ready
 * @param {Map<string, (workerId: number, message: any) => void>} collecting
 * @returns {Promise<string>}
 */
async function clusterSeries(ready, collecting) {
  const workers = [...ready]
    .map((id) => cluster.workers?.[id])
    .filter((worker) => worker?.isConnected());
  const id = randomUUID();
  /** @type {unknown[][]} */
  const answers = await new Promise((resolve) => {
    /** @type {unknown[][]} */
    const got = [];
    const waiting = new Set(workers.map((worker) => worker?.id));
    const finish = () => {
      clearTimeout(timer);
      collecting.delete(id);
      resolve(got);
    };
    const timer = setTimeout(finish, COLLECT_MS);
    collecting.set(id, (workerId, message) => {
      if (!waiting.delete(workerId)) return;
      if (Array.isArray(message.series)) got.push(message.series);
      if (waiting.size === 0) finish();
    });
    for (const worker of workers) worker?.send({ type: COLLECT, id });
    if (waiting.size === 0) finish();
  });
  const { AggregatorRegistry } = await import("prom-client");
  return AggregatorRegistry.aggregate(/** @type {any} */ (answers)).metrics();
}
