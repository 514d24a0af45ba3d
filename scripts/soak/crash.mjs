// `npm run soak:crash [-- --db postgres|pglite|both] [--kills N] [--projects N] [--clients N]
//   [--instances N] [--seed N] [--keep] [--record]`
//
// Crashes and restarts under load. Starts the built server (scripts/start.mjs, one process) on a
// database of its own, has several clients create projects, invite members and accept
// invitations through the JSON API, and SIGKILLs the server at random moments N times (default
// 100), restarting it each time. The clients record every write that got a 2xx answer. After the
// last restart it waits until every project is final and the job queue has settled, then reads the
// database: every acknowledged write is there, no project has two studios, sites, first or
// automatic deployments, every invitation mailed exactly once, every webhook delivery (each project
// has a webhook for its member events, sent to an endpoint of this script's) made and received, no
// job unfinished or failed, and the indexes pass amcheck. Prints the figures (and with --record, which the npm scripts pass,
// appends them to docs/runs/soak-crash.md); exits 1 when anything is lost or duplicated.
//
// `--instances N` (PostgreSQL): N servers on the one database, the clients spread over them, each
// kill takes one of them down.
//
// `--rolling [--rolls N] [--shutdown-delay S]` (PostgreSQL, 3 instances unless --instances says otherwise): no kills;
// a rolling restart, N times over (default 3): each instance in turn gets SIGTERM, must exit 0 after
// finishing its requests and jobs, and is started again; the next waits until it is ready. The
// clients reach the instances through a balancer of this script's own, which sends only to those
// whose /readyz answers 200 (polled every 200 ms) and tries another after a refused connection,
// as balancers do. A request that fails in any other way (a 5xx, a connection closed, a timeout)
// fails the run, as does anything lost or duplicated. `--db both` (the default) runs PostgreSQL (when it answers on
// SOAK_DATABASE_URL / TEST_DATABASE_URL / 127.0.0.1:5432), then PGlite.
//
// The parts: the command line (crash-options.mjs), the run's record and shared state
// (crash-state.mjs), the servers, kills and restarts (crash-servers.mjs), the clients' load
// (crash-clients.mjs), waiting for quiet (crash-settle.mjs), the check (crash-check.mjs) and the
// figures (crash-report.mjs); this file is one run's course and the runs on each database.
import { buildIfStale } from "../build.mjs";
import { check } from "./crash-check.mjs";
import { Client, seedAccounts, signIn } from "./crash-clients.mjs";
import {
  DB,
  INSTANCES,
  KEEP,
  KILLS,
  PGLITE_FROM,
  ROLLING,
  ROLLS,
  SEED,
  VERBOSE,
  log,
} from "./crash-options.mjs";
import { failed, record, report } from "./crash-report.mjs";
import {
  killAtRandom,
  rollingRestarts,
  serverEnv,
  serverPool,
  watchReadiness,
} from "./crash-servers.mjs";
import { settle, waitForProjects } from "./crash-settle.mjs";
import { Fatal, newResult, newShared } from "./crash-state.mjs";
import { startWebhookReceiver } from "./webhooks.mjs";
import { freshDatabase, postgresAvailable, stopServer } from "./lib.mjs";

/** @typedef {import("./crash-state.mjs").Result} Result */

// ---------------------------------------------------------------------------------------------
// One run on one database

/**
 * @param {"postgres" | "pglite"} kind
 * @returns {Promise<Result>}
 */
async function runOn(kind) {
  const started = Date.now();
  let last = started;
  const phase = (/** @type {string} */ what) => {
    if (!VERBOSE) return;
    const now = Date.now();
    log(`${kind}: ${what} in ${((now - last) / 1000).toFixed(1)} s`);
    last = now;
  };
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const database = await freshDatabase(kind, "crash", { pgliteFrom: PGLITE_FROM });
  const endpoint = await startWebhookReceiver();
  log(
    `${kind}: ${database.describe}, ${ROLLING ? `${ROLLS} rolling restarts` : `${KILLS} kills`}, ${INSTANCES} instance(s), seed ${SEED}`,
  );
  const result = newResult(kind);
  const { servers, start, up, printed } = await serverPool(serverEnv(database), result);
  const shared = newShared({ runId, servers, webhookUrl: endpoint.url, result });
  /** @type {Promise<unknown>} */
  let load = Promise.resolve();
  /** @type {{ stop: () => void } | null} */
  let balancer = null;
  try {
    // The schema and the accounts the clients use, written directly; then the servers.
    const people = await seedAccounts(database, runId);
    phase("schema and accounts");
    for (let i = 0; i < INSTANCES; i += 1) {
      start(i);
      // One at a time: the first creates the job queue's schema.
      await up(i, "first start");
    }
    phase("first start");
    if (ROLLING) balancer = watchReadiness(shared);

    await signIn(shared, [...people.owners, ...people.invitees]);
    const clients = people.owners.map((owner, i) => new Client(i, owner, people.invitees, shared));
    load = Promise.all(clients.map((c) => c.run())).catch((error) => {
      shared.loadError = error;
    });

    if (ROLLING) await rollingRestarts(shared, start, up);

    // The kills (none under --rolling): a random instance at a random moment (crash-servers.mjs).
    await killAtRandom(kind, shared, start, up);
    for (let i = 0; i < INSTANCES; i += 1) await up(i, "the last restart");
    const lastStart = Date.now();
    phase(ROLLING ? `${ROLLS} rolling restarts` : `${KILLS} kills`);

    // Load off; then the acceptances still waiting for their studio, and every project final.
    shared.stopLoad = true;
    await load;
    if (shared.loadError) throw shared.loadError;
    const drainBy = Date.now() + 300_000;
    await Promise.all(clients.map((c) => c.drainAccepts(drainBy)));
    phase("load drained");
    await waitForProjects(shared, people.owners, Date.now() + 300_000);
    phase("projects final");

    // The queue settles (mail delivered, studio invitations sent), then the database is read.
    const settledAt = await settle(database, servers, start, up, lastStart);
    phase("queue settled");
    const stopping = new Date().toISOString();
    for (const server of servers) await stopServer(server, "SIGTERM");
    shared.stoppedAt = settledAt ?? stopping;
    balancer?.stop();
    await check(database, shared, people, printed, endpoint.received);
    phase("checked");
  } catch (error) {
    shared.giveUp = true;
    shared.stopLoad = true;
    if (!(error instanceof Fatal)) throw error;
    result.problems.push(error.message);
    console.error(`[soak:crash] ${error.message}\n--- server log (tail) ---\n${error.log}`);
  } finally {
    shared.giveUp = true;
    balancer?.stop();
    for (const server of servers) if (server) await stopServer(server, "SIGKILL");
    await load;
    await endpoint.stop();
  }
  result.seconds = Math.round((Date.now() - started) / 1000);
  if (failed(result) || KEEP)
    log(`${kind}: kept the database for inspection: ${database.describe}`);
  else await database.drop();
  return result;
}

// ---------------------------------------------------------------------------------------------
// The runs: PostgreSQL (when it answers) and PGlite, or the one --db names

if (!buildIfStale()) process.exit(1);
/** @type {("postgres" | "pglite")[]} */
const kinds = DB === "both" ? ["postgres", "pglite"] : [/** @type {"postgres" | "pglite"} */ (DB)];
if (INSTANCES > 1 && kinds.includes("pglite")) {
  if (DB === "pglite") {
    console.error("--instances needs PostgreSQL: the embedded PGlite database serves one process.");
    process.exit(2);
  }
  kinds.splice(kinds.indexOf("pglite"), 1);
}
/** @type {Result[]} */
const results = [];
for (const kind of kinds) {
  if (kind === "postgres" && !(await postgresAvailable())) {
    if (DB === "postgres") {
      console.error(
        "No PostgreSQL answers (SOAK_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432).",
      );
      process.exit(2);
    }
    log("postgres: skipped, no PostgreSQL answers on 127.0.0.1:5432");
    continue;
  }
  const r = await runOn(kind);
  report(r);
  results.push(r);
}
const bad = results.some(failed);
log(bad ? "FAILED" : "ok");
// `--record` (the npm scripts pass it): the figures go to docs/runs/soak-crash.md as printed.
record(results, bad);
process.exit(bad ? 1 : 0);
