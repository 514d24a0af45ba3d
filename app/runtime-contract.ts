// What boot() (app/entry.server.tsx) hands over to the HTTP server (server/*.mjs). Both sides
// name this one type: boot() is declared to return it, so the app's typecheck (`npx tsc`) fails
// when boot() drifts from it, and server/ reads it through JSDoc, so `npm run typecheck`'s
// scripts program fails when the server uses something that is not here. It imports nothing of
// the app on purpose: the scripts' program type-checks what it imports, and the whole app under
// the scripts' options is slow and not meant to hold (the shapes below are written out instead).
import type { Logger } from "pino";

/** One request's scope record (request-memo.server.ts's ScopeRecord, the part the server sees). */
export type RequestRecord = {
  requestId?: string;
  userId?: string;
  routeId?: string;
  routeDepth?: number;
};

/** What the request log notes when a response is done (metrics.server.ts's observeRequest). */
export type RequestObservation = {
  routeId?: string;
  method: string;
  status: number;
  seconds: number;
};

/** GET /metrics (server/metrics.mjs) and the request durations: metricsForServer's answer. */
export type MetricsRuntime = {
  /** METRICS_TOKEN: without it there is no /metrics. */
  token: string | undefined;
  contentType: string;
  observeRequest: (observation: RequestObservation) => void;
  /** This process's series in the text format. */
  text: () => Promise<string>;
  /** This process's series as prom-client's JSON, for a cluster primary to add up. */
  json: () => Promise<unknown[]>;
};

export type Runtime = {
  appUrl: string;
  port: number;
  oidcIssuer: string | undefined;
  /** express's "trust proxy": a hop count or the trusted proxies' addresses (TRUST_PROXY). */
  trustProxy: number | string[];
  /** The form-action targets beyond the app's own origin (the Content-Security-Policy). */
  formTargets: string[];
  databaseKind: "pglite" | "postgres";
  /** Runs one request's handling in its scope (the loaders of one page view share reads). */
  inRequestScope: <T>(method: string, handle: () => T, record?: RequestRecord) => T;
  logger: Logger;
  /** The path as the request log writes it (long segments redacted). */
  loggablePathname: (pathname: string) => string;
  /** /readyz: null when this process may be sent requests, else why not. */
  readinessProblem: () => Promise<string | null>;
  shutdownGraceMs: number;
  shutdownDelayMs: number;
  /** Stops taking jobs, lets the running ones finish until `deadline`, gives back the rest. */
  drainJobs: (deadline: number) => Promise<{ finished: number; givenBack: number }>;
  metrics: MetricsRuntime;
  shutdown: () => Promise<void>;
};
