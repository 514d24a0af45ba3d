// A server process's life: starting (booting the app), ready, stopping. It owns the HTTP
// server's request handler, so that /readyz and the shutdown see every request, and it runs the
// clean shutdown on SIGTERM (docs/operations.md: rolling a new version).
import cluster from "node:cluster";

/** Worker <-> primary (scripts/serve.mjs): a balancer asks /readyz of one of us, so of all. */
export const WATCHED = "stackshift:readiness-watched";

/**
 * What boot() hands over: one type with the app (app/runtime-contract.ts), so neither side drifts.
 * @typedef {import("../app/runtime-contract").Runtime} Runtime
 * @typedef {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void} Handler
 */

/**
 * @param {{ exit?: (code: number) => void; sleep?: (ms: number) => Promise<void> }} [options]
 *   `exit` and `sleep` are the process's own unless a test gives its own.
 */
export function lifecycle({
  exit = (code) => process.exit(code),
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
} = {}) {
  /** @type {"starting" | "ready" | "stopping"} */
  let state = "starting";
  /** @type {Handler | null} */
  let app = null;
  /** @type {Runtime | null} */
  let runtime = null;
  /** @type {import("node:http").Server | null} */
  let server = null;
  /** @type {{ close: () => Promise<void> } | undefined} */
  let vite;
  // Someone watches this process's readiness (a load balancer): worth a pause before closing.
  let watched = false;
  /** The answers being written now. @type {Set<import("node:http").ServerResponse>} */
  const inFlight = new Set();

  /** @type {Handler} */
  function handle(req, res) {
    if (req.url === "/readyz" || req.url?.startsWith("/readyz?")) {
      if (!watched && cluster.isWorker) process.send?.({ type: WATCHED });
      watched = true;
      void readyz(res);
      return;
    }
    if (state === "starting" || !app) {
      unavailable(res, "The dashboard is starting. Try again in a few seconds.");
      return;
    }
    // While stopping, every answer ends its connection: a client's next request opens a new
    // one, which the balancer sends to another process.
    if (state === "stopping") res.setHeader("Connection", "close");
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    app(req, res);
  }

  /** @param {import("node:http").ServerResponse} res */
  async function readyz(res) {
    let problem = state === "starting" ? "starting" : state === "stopping" ? "stopping" : null;
    if (!problem && runtime) {
      problem = await runtime.readinessProblem().catch(() => "the readiness check failed");
    }
    res.statusCode = problem ? 503 : 200;
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(problem ?? "ready");
  }

  /**
   * @param {import("node:http").ServerResponse} res
   * @param {string} message
   */
  function unavailable(res, message) {
    res.statusCode = 503;
    res.setHeader("Retry-After", "5");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(message);
  }

  /** @param {NodeJS.Signals} signal */
  async function stop(signal) {
    if (state === "stopping") return;
    const booted = state === "ready";
    state = "stopping";
    if (!booted || !runtime || !server) {
      // Nothing was served yet: nothing to finish.
      server?.close();
      exit(0);
      return;
    }
    const { logger, shutdownGraceMs, shutdownDelayMs } = runtime;
    const started = Date.now();
    const deadline = started + shutdownGraceMs;
    logger.info({ signal, graceSeconds: shutdownGraceMs / 1000 }, `${signal}: shutting down`);
    // Should finishing take longer than the grace (a request that never ends), end anyway.
    setTimeout(() => {
      logger.error({ signal }, "shutdown did not finish within its grace: exiting");
      exit(1);
    }, shutdownGraceMs + 10_000).unref();

    // Jobs: none taken from now on; the running ones finish (or go back) meanwhile.
    const jobs = runtime.drainJobs(deadline);
    // A balancer that watches /readyz sees 503 before the listener closes, and stops sending.
    if (watched && shutdownDelayMs > 0) {
      await sleep(Math.min(shutdownDelayMs, Math.max(0, shutdownGraceMs - 1000)));
    }
    const requestsAtClose = inFlight.size;
    // The answers under way end their connections too (those not yet begun: a streamed one's
    // connection is closed once idle, below).
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    // No new connections; idle keep-alive ones close now, busy ones once their answer is done.
    const closed = new Promise((resolve) => server?.close(() => resolve(true)));
    const idle = setInterval(() => server?.closeIdleConnections(), 200);
    server.closeIdleConnections();
    const finished = await Promise.race([closed, sleep(Math.max(0, deadline - Date.now()))]);
    clearInterval(idle);
    const cut = finished ? 0 : inFlight.size;
    if (!finished) server.closeAllConnections();
    const { finished: jobsFinished, givenBack } = await jobs;
    await vite?.close();
    // The database pool waits for its connections to come back: a cut request's query may never.
    const closing = runtime.shutdown();
    if (cut > 0) await Promise.race([closing, sleep(2000)]);
    else await closing;
    logger.info(
      {
        signal,
        requests: requestsAtClose,
        requestsCut: cut,
        jobsFinished,
        jobsGivenBack: givenBack,
        ms: Date.now() - started,
      },
      "shut down",
    );
    exit(cut > 0 ? 1 : 0);
  }

  return {
    handle,
    /** Listens for SIGTERM and SIGINT (Ctrl-C): both stop cleanly. */
    onSignals() {
      // In a cluster a balancer's probes reach one process in turn: each hears of them.
      process.on("message", (/** @type {any} */ message) => {
        if (message?.type === WATCHED) watched = true;
      });
      process.on("SIGTERM", () => void stop("SIGTERM"));
      process.on("SIGINT", () => void stop("SIGINT"));
    },
    /**
     * The app booted: requests go to `handler` from now on.
     * @param {Handler} handler
     * @param {Runtime} booted
     * @param {{ server: import("node:http").Server; vite?: { close: () => Promise<void> } }} parts
     */
    ready(handler, booted, parts) {
      app = handler;
      runtime = booted;
      server = parts.server;
      vite = parts.vite;
      if (state === "starting") state = "ready";
    },
    stop,
    get state() {
      return state;
    },
  };
}
