// Serving the built app, as `npm start` does (scripts/start.mjs) and as the benchmark does with its
// floor page added (scripts/bench/serve.mjs): builds when the build is missing or older than the
// sources, then serves. With PostgreSQL (DATABASE_URL) it runs WEB_CONCURRENCY server processes
// (default: one per core) through node:cluster; they share sessions, rate limits and jobs through
// the database. The embedded PGlite database belongs to one process, so without DATABASE_URL there
// is one. Each cluster worker runs the same entry script again, so it calls `serve` the same way.
import cluster from "node:cluster";
import os from "node:os";
import { WATCHED } from "../server/lifecycle.mjs";
import { buildIfStale } from "./build.mjs";

/**
 * How many server processes: WEB_CONCURRENCY, else one per core; always one for PGlite or dev.
 * @param {boolean} dev
 */
function processCount(dev) {
  const asked = process.env.WEB_CONCURRENCY;
  if (dev || !process.env.DATABASE_URL) {
    if (asked && asked !== "1" && cluster.isPrimary) {
      console.log("WEB_CONCURRENCY ignored: the embedded database serves one process.");
    }
    return 1;
  }
  if (asked === undefined || asked === "") return os.availableParallelism();
  const n = Number(asked);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`WEB_CONCURRENCY must be a whole number from 1 to 64, not "${asked}".`);
    process.exit(1);
  }
  return n;
}

/**
 * @param {{ dev?: boolean, transformBuild?: (build: any) => any }} [options] `transformBuild`
 *   changes the production build before it serves (the benchmark's floor page); `npm start` has
 *   none.
 */
export async function serve({ dev = false, transformBuild } = {}) {
  if (!dev && !buildIfStale()) process.exit(1);

  // React needs NODE_ENV on the server. Defaulting it here must not make a local run
  // "production" in the sense of docs/configuration.md (where secrets become mandatory), so
  // remember that it was implied.
  if (!process.env.NODE_ENV) {
    process.env.NODE_ENV = dev ? "development" : "production";
    process.env.STACKSHIFT_IMPLIED_NODE_ENV = "1";
  }
  const count = processCount(dev);
  if (count > 1 && cluster.isPrimary) {
    // A scrape of /metrics reaches one worker; the primary adds up every worker's series.
    (await import("../server/metrics.mjs")).aggregateClusterMetrics();
    console.log(`Starting ${count} server processes (WEB_CONCURRENCY)`);
    const startedAt = new Map();
    // A balancer asks /readyz of one process at a time; every process pauses before closing its
    // listener on SIGTERM once any was asked (server/lifecycle.mjs), a new one too.
    let watched = false;
    cluster.on("message", (_worker, message) => {
      if (message?.type !== WATCHED || watched) return;
      watched = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.send(message);
    });
    const fork = () => {
      const worker = cluster.fork();
      startedAt.set(worker.id, Date.now());
      if (watched) worker.once("online", () => worker.send({ type: WATCHED }));
    };
    for (let i = 0; i < count; i += 1) fork();
    let stopping = false;
    let failedStop = false;
    cluster.on("exit", (worker, code, signal) => {
      if (stopping) {
        if (code !== 0) failedStop = true;
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failedStop ? 1 : 0);
        return;
      }
      // A process that dies at once (a port in use, a bad setting) would die again: stop instead.
      if (Date.now() - (startedAt.get(worker.id) ?? 0) < 10_000) {
        console.error(`A server process exited while starting (${signal ?? code}); stopping.`);
        stopping = true;
        failedStop = true;
        for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
        return;
      }
      console.error(`A server process exited (${signal ?? code}); starting another.`);
      fork();
    });
    // Each process stops cleanly on its own (finishing its requests and jobs within
    // SHUTDOWN_GRACE_SECONDS); the primary exits once all have, 1 if any did not stop cleanly.
    const stop = (/** @type {NodeJS.Signals} */ signal) => {
      if (stopping) return;
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
      const grace = Number(process.env.SHUTDOWN_GRACE_SECONDS) || 25;
      setTimeout(
        () => {
          console.error("Server processes still running after their shutdown grace: killed.");
          for (const worker of Object.values(cluster.workers ?? {}))
            worker?.process.kill("SIGKILL");
          process.exit(1);
        },
        (grace + 20) * 1000,
      ).unref();
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  } else {
    const { startServer } = await import("../server/index.mjs");
    try {
      await startServer({ dev, transformBuild });
    } catch (error) {
      // What an operator must act on is said without a stack trace: the embedded database is held
      // by another process, or its files cannot be opened (docs/decisions/023-crashes-and-restarts.md);
      // a public https APP_URL would log live mail links or serve stand-ins (StartRefusedError).
      /** @type {Record<string, string>} */
      const hint = {
        StartRefusedError: "",
        DataDirInUseError:
          " Stop that server first, or set DATABASE_URL to a PostgreSQL database to run several.",
        DataDirDamagedError: "",
      };
      if (!Object.hasOwn(hint, error?.name ?? "")) throw error;
      console.error(`${error.message}${hint[error.name]}`);
      process.exit(1);
    }
  }
}
