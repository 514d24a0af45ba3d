// The crash soak's servers (scripts/soak/crash.mjs): their environment, starting them and
// waiting for them, the kills and the rolling restarts, and sending a request as a load balancer
// would (the next server after a refused connection; under --rolling only to the ready ones).
import {
  BOOT_KILLS,
  DEPLOY_STEP_SECONDS,
  INSTANCES,
  KILLS,
  MAX_UP_MS,
  ROLLING,
  ROLLS,
  SHUTDOWN_DELAY,
  between,
  log,
  random,
} from "./crash-options.mjs";
import { Fatal } from "./crash-state.mjs";
import { freePort, isNetworkError, sleep, spawnServer, stopServer, waitForHealth } from "./lib.mjs";

/**
 * @typedef {import("./crash-state.mjs").Result} Result
 * @typedef {import("./crash-state.mjs").Shared} Shared
 * @typedef {import("./crash-state.mjs").Start} Start
 * @typedef {import("./crash-state.mjs").Up} Up
 * @typedef {import("./lib.mjs").SoakServer} SoakServer
 */

/**
 * The servers' environment on the run's database.
 * @param {import("./lib.mjs").SoakDatabase} database
 */
export function serverEnv(database) {
  return {
    DATABASE_URL: database.url ?? "",
    DATA_DIR: database.dataDir,
    SESSION_SECRET: "soak-session-secret-0123456789",
    ENCRYPTION_KEY: "soak-encryption-key-0123456789",
    PROVIDERS: "local",
    LOCAL_DEPLOY_FAILURE_RATE: "0",
    // Deployments take a few seconds, and a project still deploying after 3 s is deployed
    // automatically too: both paths run while servers die.
    LOCAL_DEPLOY_STEP_SECONDS: String(DEPLOY_STEP_SECONDS),
    AUTO_DEPLOY_AFTER_MINUTES: "0.05",
    // The clients sign in and invite far more often than a person: the benchmark switch.
    RATE_LIMITS: "off",
    // The webhook endpoint is this script's, on 127.0.0.1 over http.
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "1",
    SMTP_URL: "",
    OIDC_ISSUER: "",
    PLATFORM_ADMIN_EMAILS: "",
    ...(SHUTDOWN_DELAY !== undefined ? { SHUTDOWN_DELAY_SECONDS: SHUTDOWN_DELAY } : {}),
  };
}

/**
 * The run's INSTANCES servers, each on a port of its own: `start(i)` starts (or restarts) one,
 * `up(i, what)` waits until it answers or ends the run. Their output is read as it comes: the
 * figures of each clean stop go to `result.stops`, each mail they print is counted in `printed`.
 * @param {Record<string, string>} env
 * @param {Result} result
 */
export async function serverPool(env, result) {
  // Mail deliveries the servers printed (the local outbox prints each one), by (to, subject).
  /** @type {Map<string, number>} */
  const printed = new Map();
  const onLine = (/** @type {string} */ line) => {
    if (line.includes('"msg":"shut down"')) {
      const stop = JSON.parse(line);
      result.stops.requests += stop.requests;
      result.stops.requestsCut += stop.requestsCut;
      result.stops.jobsFinished += stop.jobsFinished;
      result.stops.jobsGivenBack += stop.jobsGivenBack;
      return;
    }
    const mail = /^\[mail\] to=(\S+) subject="(.*)"$/.exec(line.trim());
    if (mail)
      printed.set(`${mail[1]}\n${mail[2]}`, (printed.get(`${mail[1]}\n${mail[2]}`) ?? 0) + 1);
  };
  /** @type {number[]} */
  const ports = [];
  for (let i = 0; i < INSTANCES; i += 1) ports.push(await freePort());
  /** @type {SoakServer[]} */
  const servers = [];
  /** @type {Start} */
  const start = (i) => (servers[i] = spawnServer({ port: ports[i], env, onLine }));
  /** @type {Up} */
  const up = async (i, what) => {
    const problem = await waitForHealth(servers[i]);
    if (!problem) return;
    if (result.kills > 0) result.restartFailed = true;
    throw new Fatal(`${what}: server ${i + 1} ${problem}`, servers[i].log());
  };
  return { servers, start, up, printed };
}

/**
 * The kills: a random instance at a random moment, restarted at once; one time in five
 * (--boot-kills) the next kill comes while the restarted server is still starting (opening
 * the database, migrating, starting the queue).
 * @param {string} kind the database, for the log
 * @param {Shared} shared
 * @param {Start} start
 * @param {Up} up
 */
export async function killAtRandom(kind, shared, start, up) {
  const { result, servers } = shared;
  let pendingBoot = -1;
  for (let k = 0; k < KILLS; k += 1) {
    if (shared.loadError) throw shared.loadError;
    const i = Math.floor(random() * INSTANCES);
    if (pendingBoot === i) {
      await sleep(between(50, 1500));
    } else {
      if (pendingBoot >= 0) await up(pendingBoot, `restart after kill ${k}`);
      pendingBoot = -1;
      await sleep(between(200, MAX_UP_MS));
    }
    await stopServer(servers[i], "SIGKILL");
    result.kills += 1;
    start(i);
    result.restarts += 1;
    if (random() < BOOT_KILLS) pendingBoot = i;
    else await up(i, `restart after kill ${k + 1}`);
    if ((k + 1) % 10 === 0) log(`${kind}: ${k + 1} kills`);
  }
}

/**
 * Runs `request(base)` against the servers until it answers, trying the next server after a
 * network error (as a load balancer would). A 5xx answer is an outcome unknown too: retried.
 * @template T an API answer ({ status, body }) or a session cookie
 * @param {Shared} shared
 * @param {number} index the instance to try first (the client's own)
 * @param {(base: string) => Promise<T>} request
 * @param {{ until?: () => boolean }} [options] when to give up
 * @returns {Promise<T>}
 */
export async function retry(shared, index, request, { until = () => shared.giveUp } = {}) {
  for (let attempt = 0; ; attempt += 1) {
    const at = pick(shared, index + attempt);
    if (at < 0) {
      // --rolling: no instance is ready this moment (one restarting, the others' state unread).
      if (until()) throw new Fatal("gave up on a request: no instance ready");
      await sleep(100);
      continue;
    }
    const server = shared.servers[at];
    try {
      const answer = await request(server.base);
      // An API answer has a status; a session cookie (a sign-in's answer) has none.
      const status = /** @type {{ status?: number } | undefined} */ (answer)?.status;
      if (status !== undefined && status >= 500) {
        shared.result.serverErrors += 1;
        if (ROLLING) shared.result.failedRequests.push(`HTTP ${status} from ${at + 1}`);
        throw new TypeError(`HTTP ${status}`);
      }
      return answer;
    } catch (error) {
      if (!isNetworkError(error) && !/login of .* failed: HTTP 5/.test(String(error))) throw error;
      if (ROLLING && !String(error).startsWith("TypeError: HTTP 5")) {
        // A refused connection reached no process: a balancer tries the next one. Anything else
        // (closed mid-request, a timeout) is a request the restart failed.
        if (refused(error)) shared.result.rerouted += 1;
        else shared.result.failedRequests.push(`${describe(error)} from ${at + 1}`);
      }
      if (until()) throw new Fatal(`gave up on a request: ${String(error)}`);
    }
    await sleep(ROLLING ? 50 : 250);
  }
}

/**
 * The instance to send to: the `n`th in turn, of the ready ones under --rolling (-1: none).
 * @param {Shared} shared
 * @param {number} n
 */
function pick(shared, n) {
  const count = shared.servers.length;
  for (let k = 0; k < count; k += 1) {
    const i = (n + k) % count;
    if (shared.ready[i]) return i;
  }
  return -1;
}

/** @param {any} error */
function refused(error) {
  return error?.cause?.code === "ECONNREFUSED" || error?.cause?.cause?.code === "ECONNREFUSED";
}

/** @param {any} error */
function describe(error) {
  return `${error?.name ?? "Error"}: ${error?.cause?.code ?? error?.cause?.message ?? error?.message}`;
}

/**
 * --rolling: polls every instance's /readyz every 200 ms, as a load balancer would.
 * @param {Shared} shared
 */
export function watchReadiness(shared) {
  let stopped = false;
  const loop = async (/** @type {number} */ i) => {
    while (!stopped && !shared.giveUp) {
      const server = shared.servers[i];
      shared.ready[i] = await fetch(`${server.base}/readyz`, { signal: AbortSignal.timeout(1000) })
        .then((res) => res.status === 200)
        .catch(() => false);
      await sleep(200);
    }
  };
  for (let i = 0; i < shared.servers.length; i += 1) void loop(i);
  return { stop: () => (stopped = true) };
}

/**
 * --rolling: every instance in turn, ROLLS times over: SIGTERM, its exit (0, or the run fails),
 * started again, ready before the next; a few seconds of load between restarts.
 * @param {Shared} shared
 * @param {Start} start
 * @param {Up} up
 */
export async function rollingRestarts(shared, start, up) {
  const { result, servers } = shared;
  for (let roll = 0; roll < ROLLS; roll += 1) {
    for (let i = 0; i < servers.length; i += 1) {
      if (shared.loadError) throw shared.loadError;
      await sleep(between(1000, 3000));
      const { code, signal } = await stopServer(servers[i], "SIGTERM");
      if (code !== 0) result.badExits.push(`instance ${i + 1}: ${signal ?? `code ${code}`}`);
      start(i);
      result.restarts += 1;
      await up(i, `restart ${result.restarts}`);
      // Ready in the balancer's eyes before the next goes down.
      while (!shared.ready[i]) await sleep(50);
    }
    log(`postgres: roll ${roll + 1} of ${ROLLS} done`);
  }
}
