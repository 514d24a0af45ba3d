import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * Every Prometheus series of the server, in one registry of its own (not prom-client's global
 * one: nothing a library registers there ends up in our answer by accident). docs/metrics.md
 * lists the series; docs/decisions/034-metrics.md says why they look as they do.
 *
 * The code that does the work records here (the request log, work(), the provider registries,
 * the rate limits, mail delivery); what is a fact of the database rather than of this process
 * (waiting jobs, the connection pool) is read at scrape time from the sources that the modules
 * owning it register (queue.server.ts, client.server.ts), since app/utils imports none of ours.
 *
 * Labels are bounded sets only: Remix route ids, queue names, provider and method names,
 * policy names. Never a path, an id or an address.
 */

const PREFIX = "stackshift_";

/** A queue's waiting jobs (created or retry) and how long the longest-due one has been due. */
export type WaitingJobs = { queue: string; waiting: number; oldestSeconds: number }[];
/** node-postgres Pool counts; undefined for PGlite, which has no pool (the gauges say 0). */
export type PoolStats = { total: number; idle: number; waiting: number; max: number };

/** A deleted project's sites and studios not deleted at their providers yet, by target. */
export type PendingDeletions = { target: string; pending: number; oldestSeconds: number }[];

type Sources = {
  waitingJobs?: () => Promise<WaitingJobs>;
  pool?: () => PoolStats | undefined;
  pendingDeletions?: () => Promise<PendingDeletions>;
};

function createSeries() {
  const registry = new Registry();
  const registers = [registry];
  const sources: Sources = {};

  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  /**
   * A per-queue figure of the waiting jobs, read at scrape time. The same fact in every process
   * (one database): a cluster's aggregate takes the largest answer, never the sum.
   */
  const queueGauge = (
    name: string,
    help: string,
    field: Exclude<keyof WaitingJobs[number], "queue">,
  ) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames: ["queue"] as const,
      aggregator: "max",
      registers,
      async collect() {
        const rows = await readWaitingJobs(sources);
        this.reset();
        for (const row of rows) this.set({ queue: row.queue }, row[field]);
      },
    });

  /** Pending provider deletions by target (studio, netlify, vercel), read at scrape time. */
  const deletionGauge = (
    name: string,
    help: string,
    field: Exclude<keyof PendingDeletions[number], "target">,
  ) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames: ["target"] as const,
      aggregator: "max",
      registers,
      async collect() {
        const rows = await readPendingDeletions(sources);
        this.reset();
        for (const row of rows) this.set({ target: row.target }, row[field]);
      },
    });

  const series = {
    registry,
    sources,
    // Each process adds 1: the cluster's aggregate says how many processes answered.
    processes: new Gauge({
      name: `${PREFIX}metrics_processes`,
      help: "Server processes whose series this answer adds up (1 a process; the workers that answered in a cluster)",
      registers,
    }),
    httpDuration: new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: "HTTP requests by the Remix route that answered (unmatched: none did), method and status class, from arrival to the response's end",
      labelNames: ["route", "method", "status_class"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    queueWaiting: queueGauge(
      "job_queue_waiting",
      "Jobs waiting in a queue (pg-boss states created and retry, due or scheduled later)",
      "waiting",
    ),
    queueOldest: queueGauge(
      "job_queue_oldest_waiting_seconds",
      "Seconds since the longest-due waiting job of a queue became due (0: none is due)",
      "oldestSeconds",
    ),
    deletionsPending: deletionGauge(
      "external_deletions_pending",
      "A deleted project's sites and studios still to delete at their providers (retried by deletions.retry)",
      "pending",
    ),
    deletionsOldest: deletionGauge(
      "external_deletions_oldest_seconds",
      "Seconds since the oldest pending provider deletion was recorded (its project deleted)",
      "oldestSeconds",
    ),
    jobCompletions: new Counter({
      name: `${PREFIX}job_completions_total`,
      help: "Jobs whose handler finished without an error",
      labelNames: ["queue"] as const,
      registers,
    }),
    jobRetries: new Counter({
      name: `${PREFIX}job_retries_total`,
      help: "Job attempts that failed with retries left: pg-boss runs the job again later",
      labelNames: ["queue"] as const,
      registers,
    }),
    jobFailures: new Counter({
      name: `${PREFIX}job_failures_total`,
      help: "Job attempts that failed with no retry left: the job is failed for good",
      labelNames: ["queue"] as const,
      registers,
    }),
    providerCalls: new Counter({
      name: `${PREFIX}provider_calls_total`,
      help: "Calls of a provider's asynchronous methods (mode local: the built-in stand-in)",
      labelNames: ["provider", "mode", "operation"] as const,
      registers,
    }),
    providerErrors: new Counter({
      name: `${PREFIX}provider_errors_total`,
      help: "Provider calls that failed: kind provider (the vendor said no, a ProviderError) or other",
      labelNames: ["provider", "mode", "operation", "kind"] as const,
      registers,
    }),
    providerDuration: new Histogram({
      name: `${PREFIX}provider_call_duration_seconds`,
      help: "How long provider calls took, failed ones included",
      labelNames: ["provider", "mode", "operation"] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: `${PREFIX}rate_limit_refusals_total`,
      help: "Requests refused (or mails dropped) by a rate limit policy",
      labelNames: ["policy"] as const,
      registers,
    }),
    mailsSent: new Counter({
      name: `${PREFIX}mails_sent_total`,
      help: "Mails delivered: transport smtp (SMTP_URL), or log (no SMTP_URL: kept in the log and the local outbox)",
      labelNames: ["transport"] as const,
      registers,
    }),
    mailsFailed: new Counter({
      name: `${PREFIX}mails_failed_total`,
      help: "SMTP delivery attempts that failed (the mail job retries them)",
      registers,
    }),
    webhookDeliveries: new Counter({
      name: `${PREFIX}webhook_deliveries_total`,
      help: "Webhook delivery attempts by event type and outcome: success (2xx), failure (any other answer or none), refused (an address that is not public)",
      labelNames: ["event", "outcome"] as const,
      registers,
    }),
    webhookDuration: new Histogram({
      name: `${PREFIX}webhook_delivery_duration_seconds`,
      help: "How long webhook delivery attempts took, from the connection to the answer (10 s at most)",
      labelNames: ["event"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    // Per process (each has its own pool): a cluster's aggregate is the sum.
    pool: POOL_GAUGES.map(
      ([count, name, help]) =>
        new Gauge({
          name: `${PREFIX}${name}`,
          help,
          registers,
          collect() {
            poolGauge(this, sources, count);
          },
        }),
    ),
  };
  series.processes.set(1);
  return series;
}

type Series = ReturnType<typeof createSeries>;

/**
 * The waiting jobs for both queue gauges: a scrape collects its series at once, so the two share
 * the one query in flight. A database that does not answer leaves the queue series out rather
 * than failing the scrape.
 */
let reading: Promise<WaitingJobs> | undefined;
function readWaitingJobs(sources: Sources): Promise<WaitingJobs> {
  reading ??= (sources.waitingJobs?.() ?? Promise.resolve([]))
    .catch(() => [])
    .finally(() => {
      reading = undefined;
    });
  return reading;
}

let readingDeletions: Promise<PendingDeletions> | undefined;
function readPendingDeletions(sources: Sources): Promise<PendingDeletions> {
  readingDeletions ??= (sources.pendingDeletions?.() ?? Promise.resolve([]))
    .catch(() => [])
    .finally(() => {
      readingDeletions = undefined;
    });
  return readingDeletions;
}

/** The app's pool's counts, read at scrape time: which, the series' name, its help. */
const POOL_GAUGES: [keyof PoolStats, string, string][] = [
  [
    "total",
    "db_pool_connections",
    "Open PostgreSQL connections of the app's pool (0 on PGlite, which has no pool)",
  ],
  ["idle", "db_pool_idle_connections", "Open connections of the app's pool that no query holds"],
  [
    "waiting",
    "db_pool_waiting_clients",
    "Queries waiting for a connection of the app's pool (all are in use)",
  ],
  ["max", "db_pool_max_connections", "The most connections the app's pool opens"],
];

function poolGauge(gauge: Gauge, sources: Sources, count: keyof PoolStats) {
  gauge.reset();
  const stats = sources.pool?.();
  if (stats) gauge.set(stats[count]);
}

// One set per process, kept on globalThis: the dev server reloads modules, and registering a
// series twice throws.
const holder = globalThis as unknown as { __stackshiftMetrics?: Series };
function series(): Series {
  holder.__stackshiftMetrics ??= createSeries();
  return holder.__stackshiftMetrics;
}

/** The registry (tests read it; the HTTP server answers from metricsForServer). */
export function metricsRegistry(): Registry {
  return series().registry;
}

/** The job queue reports its waiting jobs through this (undefined: stopped). */
export function reportWaitingJobs(read: Sources["waitingJobs"]) {
  series().sources.waitingJobs = read;
}

/** The pending provider deletions are reported through this (external-deletions.server.ts). */
export function reportPendingDeletions(read: Sources["pendingDeletions"]) {
  series().sources.pendingDeletions = read;
}

/** The database layer reports its pool through this. */
export function reportPool(read: Sources["pool"]) {
  series().sources.pool = read;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** What server/middleware.mjs's requestLog notes when a response is done. */
export type RequestObservation = {
  routeId?: string;
  method: string;
  status: number;
  seconds: number;
};

export function observeRequest({ routeId, method, status, seconds }: RequestObservation) {
  series().httpDuration.observe(
    {
      route: routeId ?? "unmatched",
      method: METHODS.has(method) ? method : "other",
      status_class: status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other",
    },
    seconds,
  );
}

/** A queue's counters start at 0 when it is worked, so the first failure is a visible change. */
export function jobQueueWorked(queue: string) {
  const s = series();
  for (const counter of [s.jobCompletions, s.jobRetries, s.jobFailures]) counter.inc({ queue }, 0);
}

export function jobCompleted(queue: string) {
  series().jobCompletions.inc({ queue });
}

/** A failed attempt; `retried`: the job had retries left, so pg-boss runs it again. */
export function jobFailed(queue: string, retried: boolean) {
  (retried ? series().jobRetries : series().jobFailures).inc({ queue });
}

export function rateLimitRefused(policy: string) {
  series().rateLimitRefusals.inc({ policy });
}

export function mailSent(transport: "smtp" | "log") {
  series().mailsSent.inc({ transport });
}

export function mailFailed() {
  series().mailsFailed.inc();
}

/** One webhook delivery attempt (app/services/webhooks/delivery.server.ts). */
export function webhookAttempted(
  event: string,
  outcome: "success" | "failure" | "refused",
  seconds: number,
) {
  series().webhookDeliveries.inc({ event, outcome });
  series().webhookDuration.observe({ event }, seconds);
}

/** Which vendor a provider object stands for, and whether it is the built-in stand-in. */
export type ProviderLabels = { provider: string; mode: "local" | "live" };

/**
 * The provider object with each method call measured: calls, errors and duration per method.
 * Only calls that return a promise count (the vendor calls; a synchronous helper such as an
 * authorization URL builder passes through). Methods run on the object itself, so calls between
 * its own methods are not counted twice.
 */
export function instrumentProvider<T extends object>(target: T, labels: ProviderLabels): T {
  // One wrapper per method, made again if the property is given another function (a test's spy).
  const wrapped = new Map<string, { method: unknown; wrapper: unknown }>();
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object) as unknown;
      if (typeof value !== "function" || typeof property !== "string") return value;
      let known = wrapped.get(property);
      if (known?.method !== value) {
        const wrapper = timed(value as (...args: unknown[]) => unknown, object, {
          ...labels,
          operation: property,
        });
        known = { method: value, wrapper };
        wrapped.set(property, known);
      }
      return known.wrapper;
    },
  });
}

function timed(
  method: (...args: unknown[]) => unknown,
  self: object,
  labels: ProviderLabels & { operation: string },
) {
  return (...args: unknown[]) => {
    const started = process.hrtime.bigint();
    const result = method.apply(self, args);
    if (!(result instanceof Promise)) return result;
    const s = series();
    s.providerCalls.inc(labels);
    const done = () => {
      s.providerDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    return result.then(
      (value) => {
        done();
        return value;
      },
      (error: unknown) => {
        done();
        // By name: app/utils does not import the providers (ProviderError, providers/errors.ts).
        const kind =
          error instanceof Error && error.name === "ProviderError" ? "provider" : "other";
        s.providerErrors.inc({ ...labels, kind });
        throw error;
      },
    );
  };
}

/** What the HTTP server (server/metrics.mjs) needs: boot() hands it over with the runtime. */
export function metricsForServer(token: string | undefined) {
  const { registry } = series();
  return {
    /** METRICS_TOKEN: without it there is no /metrics. */
    token,
    contentType: registry.contentType,
    observeRequest,
    /** This process's series in the text format. */
    text: () => registry.metrics(),
    /** This process's series as prom-client's JSON, for a cluster primary to add up. */
    json: () => registry.getMetricsAsJSON(),
  };
}
