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
import { checkWebhookDeliveries, SOAK_WEBHOOK_EVENTS, startWebhookReceiver } from "./webhooks.mjs";
import { hash } from "@node-rs/argon2";
import { buildIfStale } from "../build.mjs";
import { appendRunLog, machineLine } from "../run-log.mjs";
import {
  api,
  flag,
  freePort,
  freshDatabase,
  isNetworkError,
  logIn,
  openDirect,
  option,
  postgresAvailable,
  sleep,
  spawnServer,
  stopServer,
  waitForHealth,
  wholeNumber,
} from "./lib.mjs";

const ROLLING = flag("rolling");
const ROLLS = wholeNumber("rolls", 3, { min: 1 });
// --rolling: SHUTDOWN_DELAY_SECONDS of the servers. 0 closes each listener at once, while the
// balancer still sends to it: requests arrive mid-shutdown and refused ones go elsewhere.
const SHUTDOWN_DELAY = option("shutdown-delay", undefined);
const KILLS = ROLLING ? 0 : wholeNumber("kills", 100);
const PROJECTS = wholeNumber("projects", 60, { min: 1 });
const CLIENTS = wholeNumber("clients", 4, { min: 1 });
const INSTANCES = wholeNumber("instances", ROLLING ? 3 : 1, { min: 1 });
const INVITEES = 4;
/** The longest a server lives between its health check and its kill. */
const MAX_UP_MS = wholeNumber("max-uptime-ms", 3000, { min: 100 });
const SEED = wholeNumber("seed", Math.floor(Math.random() * 1e9));
const KEEP = flag("keep");
/** The share of kills that come while the restarted server is still starting. */
const BOOT_KILLS = Number(option("boot-kills", "0.2"));
if (!(BOOT_KILLS >= 0 && BOOT_KILLS <= 1)) {
  console.error(`--boot-kills must be a share from 0 to 1, not "${option("boot-kills")}".`);
  process.exit(2);
}
// Local deployments step this often (queued, building, ready). Slower deployments make more
// projects still deploying when their automatic deployment is due (3 s after creation).
const DEPLOY_STEP_SECONDS = wholeNumber("deploy-step-seconds", 1);
const VERBOSE = !flag("quiet");
// `--pglite-from DIR`: start from a copy of a migrated DATA_DIR (the test suite's template).
const PGLITE_FROM = option("pglite-from", undefined);
const DB = option("db", ROLLING ? "postgres" : "both");
if (ROLLING && DB !== "postgres") {
  console.error("--rolling needs PostgreSQL: several instances share it.");
  process.exit(2);
}
if (!["postgres", "pglite", "both"].includes(DB)) {
  console.error(`--db must be postgres, pglite or both, not "${DB}".`);
  process.exit(2);
}
const PASSWORD = "soak password 0123";

// A seeded generator, so a run's kill moments can be asked for again (--seed).
let seedState = SEED >>> 0;
function random() {
  seedState = (seedState + 0x6d2b79f5) >>> 0;
  let t = seedState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (/** @type {number} */ min, /** @type {number} */ max) =>
  min + random() * (max - min);

const log = (/** @type {unknown[]} */ ...parts) => console.log(`[soak:crash] ${parts.join(" ")}`);

/**
 * @typedef {import("./lib.mjs").SoakServer} SoakServer
 * @typedef {import("./lib.mjs").SoakDatabase} SoakDatabase
 * @typedef {{ id: string; studioId: string; name: string; owner: Person }} Project
 * One database's run: what the clients had acknowledged, what the check found, the figures.
 * @typedef {{
 *   kind: string;
 *   kills: number;
 *   restartFailed: boolean;
 *   restarts: number;
 *   instances: number;
 *   acked: { projects: number; webhooks: number; invitations: number; acceptances: number };
 *   found: number;
 *   lost: string[];
 *   duplicates: string[];
 *   problems: string[];
 *   serverErrors: number;
 *   rolling: boolean;
 *   badExits: string[];
 *   failedRequests: string[];
 *   rerouted: number;
 *   stops: { requests: number; requestsCut: number; jobsFinished: number; jobsGivenBack: number };
 *   seconds: number;
 *   final?: number;
 *   success?: number;
 *   autoDeploys?: number;
 *   mails?: number;
 *   studioMails?: number;
 *   redelivered?: number;
 *   acceptedUnacked?: number;
 *   webhooks?: Awaited<ReturnType<typeof checkWebhookDeliveries>>;
 * }} Result
 * What the run's parts share: the servers, the load's state, the acknowledged writes.
 * @typedef {{
 *   runId: string;
 *   servers: SoakServer[];
 *   stopLoad: boolean;
 *   giveUp: boolean;
 *   loadError: unknown;
 *   projectsStarted: number;
 *   projects: Project[];
 *   webhookUrl: string;
 *   webhooks: { project: Project; id: string }[];
 *   invitations: { project: Project; email: string }[];
 *   acceptances: { project: Project; email: string }[];
 *   acceptedUnacked: number;
 *   result: Result;
 *   ready: boolean[];
 *   stoppedAt?: string;
 * }} Shared
 * @typedef {(i: number) => SoakServer} Start starts instance `i` (again)
 * @typedef {(i: number, what: string) => Promise<void>} Up waits until instance `i` answers
 */

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
  const env = {
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

  /** @type {Result} */
  const result = {
    kind,
    kills: 0,
    restartFailed: false,
    restarts: 0,
    instances: INSTANCES,
    acked: { projects: 0, webhooks: 0, invitations: 0, acceptances: 0 },
    found: 0,
    lost: [],
    duplicates: [],
    problems: [],
    serverErrors: 0,
    // --rolling: the restarts' exits, requests that failed, connections refused and sent on.
    rolling: ROLLING,
    badExits: [],
    failedRequests: [],
    rerouted: 0,
    stops: { requests: 0, requestsCut: 0, jobsFinished: 0, jobsGivenBack: 0 },
    seconds: 0,
  };
  /** @type {Shared} */
  const shared = {
    runId,
    servers,
    stopLoad: false,
    giveUp: false,
    loadError: null,
    projectsStarted: 0,
    projects: [],
    webhookUrl: endpoint.url,
    webhooks: [],
    invitations: [],
    acceptances: [],
    acceptedUnacked: 0,
    result,
    // --rolling: which instances the balancer sends to (their /readyz answered 200 last).
    ready: Array.from({ length: INSTANCES }, () => !ROLLING),
  };
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

    for (const person of [...people.owners, ...people.invitees]) {
      person.cookie = await retry(shared, 0, (base) => logIn(base, person.email, PASSWORD));
    }
    const clients = people.owners.map((owner, i) => new Client(i, owner, people.invitees, shared));
    load = Promise.all(clients.map((c) => c.run())).catch((error) => {
      shared.loadError = error;
    });

    if (ROLLING) await rollingRestarts(shared, start, up);

    // The kills: a random instance at a random moment, restarted at once; one time in five
    // (--boot-kills) the next kill comes while the restarted server is still starting (opening
    // the database, migrating, starting the queue).
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
  const failed =
    result.lost.length > 0 ||
    result.duplicates.length > 0 ||
    result.problems.length ||
    result.failedRequests.length ||
    result.badExits.length;
  if (failed || KEEP) log(`${kind}: kept the database for inspection: ${database.describe}`);
  else await database.drop();
  return result;
}

/** What ends a run: its message goes to the problems, with the server's log tail. */
class Fatal extends Error {
  /**
   * @param {string} message
   * @param {string} [log]
   */
  constructor(message, log = "") {
    super(message);
    this.log = log;
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
async function retry(shared, index, request, { until = () => shared.giveUp } = {}) {
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
function watchReadiness(shared) {
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
async function rollingRestarts(shared, start, up) {
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

/**
 * @typedef {{ email: string, name: string, id?: string, cookie?: string }} Person
 * @typedef {{ project: Project; invitee: Person }} Pending
 */

/**
 * @param {SoakDatabase} database
 * @param {string} runId
 * @returns {Promise<{ owners: Person[], invitees: Person[] }>}
 */
async function seedAccounts(database, runId) {
  const passwordHash = await hash(PASSWORD, {
    algorithm: 2,
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
  });
  /** @type {Person[]} */
  const owners = Array.from({ length: CLIENTS }, (_, i) => ({
    email: `owner${i}-${runId}@soak.example`,
    name: `Soak owner ${i}`,
  }));
  /** @type {Person[]} */
  const invitees = Array.from({ length: INVITEES }, (_, i) => ({
    email: `member${i}-${runId}@soak.example`,
    name: `Soak member ${i}`,
  }));
  const direct = await openDirect(database);
  try {
    await direct.migrate();
    for (const person of [...owners, ...invitees]) {
      const [row] = await direct.query(
        `insert into users (name, email, password_hash, email_verified_at)
         values ($1, $2, $3, now()) returning id`,
        [person.name, person.email, passwordHash],
      );
      person.id = row.id;
    }
  } finally {
    await direct.close();
  }
  return { owners, invitees };
}

// ---------------------------------------------------------------------------------------------
// The clients

/** One owner's client: creates projects, adds webhooks, invites and accepts. */
class Client {
  /**
   * @param {number} index
   * @param {Person} owner
   * @param {Person[]} invitees
   * @param {Shared} shared
   */
  constructor(index, owner, invitees, shared) {
    this.index = index;
    this.owner = owner;
    this.invitees = invitees;
    this.shared = shared;
    /** @type {Project[]} */
    this.mine = [];
    /** Invitations to accept once the project's studio is ready. @type {Pending[]} */
    this.pending = [];
    this.made = 0;
  }

  /**
   * @template T
   * @param {(base: string) => Promise<T>} request
   */
  call(request) {
    return retry(this.shared, this.index, request);
  }

  async run() {
    // Until the kills are over and every project is made.
    while (!this.shared.stopLoad || this.shared.projectsStarted < PROJECTS) {
      if (this.shared.projectsStarted < PROJECTS) {
        this.shared.projectsStarted += 1;
        await this.newProject();
      } else if (this.shared.stopLoad) {
        break;
      } else if (this.mine.length > 0) {
        // Enough projects: keep writing, with invitations of addresses that have no account.
        await this.invite(this.mine[Math.floor(random() * this.mine.length)], this.guest());
        // A few invitations a second per client: more than people send, within what the mail
        // job delivers (a backlog would only make the final wait longer).
        await sleep(250);
      } else {
        await sleep(200);
      }
      await this.acceptSome(2);
    }
  }

  guest() {
    this.made += 1;
    return `guest${this.index}-${this.made}-${this.shared.runId}@soak.example`;
  }

  async newProject() {
    this.made += 1;
    const name = `Soak ${this.shared.runId} c${this.index} p${this.made}`;
    // One idempotency key for every attempt: a create whose answer was lost is not made twice.
    const idempotencyKey = `soak-${this.shared.runId}-${this.index}-${this.made}`;
    const res = await this.call((base) =>
      api(base, "POST", "/api/app/create", {
        cookie: this.owner.cookie,
        json: { name, idempotencyKey },
      }),
    );
    if (res.status !== 201 && res.status !== 200) {
      throw new Fatal(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    const project = { id: res.body._id, studioId: res.body.studioId, name, owner: this.owner };
    this.shared.projects.push(project);
    this.shared.result.acked.projects += 1;
    this.mine.push(project);
    await this.addWebhook(project);
    // Two members with accounts (who accept once the studio is ready) and one guest.
    for (let j = 0; j < 2; j += 1) {
      const invitee = this.invitees[(this.made + j + this.index) % this.invitees.length];
      await this.invite(project, invitee.email);
      this.pending.push({ project, invitee });
    }
    await this.invite(project, this.guest());
  }

  /**
   * @param {Project} project
   * @returns {Promise<void>}
   */
  async addWebhook(project, signedInAgain = false) {
    // A retry after a lost answer adds a second webhook: both get every event, both are checked.
    const res = await this.call((base) =>
      api(base, "POST", "/api/app/webhooks", {
        cookie: this.owner.cookie,
        json: {
          studioId: project.studioId,
          url: this.shared.webhookUrl,
          events: SOAK_WEBHOOK_EVENTS,
        },
      }),
    );
    if (res.status === 403 && !signedInAgain) {
      // Adding a webhook asks for a proof of the last 10 minutes (decision 039): sign in again.
      this.owner.cookie = await this.call((base) => logIn(base, this.owner.email, PASSWORD));
      return this.addWebhook(project, true);
    }
    if (res.status !== 201)
      throw new Fatal(`webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
    this.shared.webhooks.push({ project, id: res.body.id });
    this.shared.result.acked.webhooks += 1;
  }

  /**
   * @param {Project} project
   * @param {string} email
   */
  async invite(project, email) {
    // Retried after a lost answer like any client would: a second attempt that finds the first
    // committed resends (200), which is a second invitation mail and a second activity entry.
    const res = await this.call((base) =>
      api(base, "POST", "/api/app/members", {
        cookie: this.owner.cookie,
        json: { studioId: project.studioId, email, role: "editor" },
      }),
    );
    if (res.status !== 201 && res.status !== 200) {
      throw new Fatal(`invite answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    this.shared.invitations.push({ project, email });
    this.shared.result.acked.invitations += 1;
  }

  /**
   * Accepts up to `max` waiting invitations whose project's studio is ready.
   * @param {number} max
   */
  async acceptSome(max) {
    let tried = 0;
    for (const item of [...this.pending]) {
      if (tried >= max) return;
      tried += 1;
      const done = await this.accept(item);
      if (done) this.pending.splice(this.pending.indexOf(item), 1);
    }
  }

  /** @param {Pending} pending */
  async accept({ project, invitee }) {
    const view = await this.call((base) =>
      api(base, "GET", `/api/app/${project.studioId}`, { cookie: this.owner.cookie }),
    );
    if (view.status !== 200) throw new Fatal(`project answered ${view.status}`);
    // Accepted once the content studio exists, so the member's studio invitation is expected.
    if (view.body.studioCreationStatus !== "success") return false;
    const member = view.body.members.find(
      (/** @type {{ invitedEmail: string }} */ m) => m.invitedEmail === invitee.email,
    );
    if (!member) throw new Fatal(`acknowledged invitation of ${invitee.email} missing`);
    if (member.status === "accepted") {
      // An earlier attempt committed but its answer was lost.
      this.shared.acceptedUnacked += 1;
      return true;
    }
    const res = await this.call((base) =>
      api(base, "PATCH", "/api/app/members", {
        cookie: invitee.cookie,
        json: {
          studioId: project.studioId,
          memberInvitationKey: member.invitationKey,
          action: "accept",
          email: invitee.email,
        },
      }),
    );
    if (res.status !== 200) return false; // read again next time (resent or accepted meanwhile)
    this.shared.acceptances.push({ project, email: invitee.email });
    this.shared.result.acked.acceptances += 1;
    return true;
  }

  /** @param {number} deadline */
  async drainAccepts(deadline) {
    while (this.pending.length > 0) {
      if (Date.now() > deadline) {
        throw new Fatal(`${this.pending.length} acceptances still waiting for their studio`);
      }
      await this.acceptSome(this.pending.length);
      if (this.pending.length > 0) await sleep(500);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// After the last restart

/** @type {Set<string | undefined>} */
const FINAL = new Set(["success", "failed"]);

/**
 * Reads every owner's projects through the list API until each acknowledged one is final.
 * @param {Shared} shared
 * @param {Person[]} owners
 * @param {number} deadline
 */
async function waitForProjects(shared, owners, deadline) {
  for (;;) {
    /** @type {Map<string, string>} */
    const status = new Map();
    for (const owner of owners) {
      let cursor = "";
      do {
        const res = await retry(shared, 0, (base) =>
          api(base, "GET", `/api/app?limit=50${cursor ? `&cursor=${cursor}` : ""}`, {
            cookie: owner.cookie,
          }),
        );
        for (const p of res.body.data) status.set(p._id, p.siteCreationStatus);
        cursor = res.body.nextCursor ? encodeURIComponent(res.body.nextCursor) : "";
      } while (cursor);
    }
    const open = shared.projects.filter((p) => !FINAL.has(status.get(p.id)));
    if (open.length === 0) return;
    if (Date.now() > deadline) {
      // Not fatal: the check below names them as not final.
      log(`${open.length} projects not final after 5 minutes`);
      return;
    }
    await sleep(1000);
  }
}

/**
 * Jobs not yet done: running; waiting to be retried, however soon or late (a job a kill left
 * running is put back with a backoff of seconds: the check must not judge before it ran, as it
 * once did with a member's studio invitation due 3 s later); or created, due for more than 30 s
 * before `$1` (the moment the servers stopped; now while they run) and not picked up. A created
 * job not yet due is not waited for: the deployment sweep always has its next run queued.
 */
const UNFINISHED_JOBS = `
  select name, state, count(*)::int as n from pgboss.job
  where state in ('active', 'retry')
     or (state = 'created'
         and start_after < coalesce($1::timestamptz, now()) - interval '30 seconds')
  group by name, state order by name, state`;

/**
 * The mails undelivered and jobs unfinished, counted (and named when verbose).
 * @param {import("./lib.mjs").Direct} direct
 * @param {string | null} stoppedAt
 * @returns {Promise<number>}
 */
async function unsettled(direct, stoppedAt) {
  const [mail] = await direct.query(
    `select count(*)::int as n from outbox where status not in ('kept', 'sent')`,
  );
  const jobs = await direct.query(UNFINISHED_JOBS, [stoppedAt]);
  const open = [
    ...(mail.n ? [`${mail.n} undelivered mails`] : []),
    ...jobs.map((j) => `${j.n} ${j.name} ${j.state}`),
  ];
  if (open.length && VERBOSE) log(`still open: ${open.join(", ")}`);
  return mail.n + jobs.reduce((sum, row) => sum + row.n, 0);
}

/**
 * Waits until no mail is undelivered and no job unfinished. PGlite cannot be read beside its
 * server: the server stops for each look and starts again when work remains.
 * @param {SoakDatabase} database
 * @param {SoakServer[]} servers
 * @param {Start} start
 * @param {Up} up
 * @param {number} lastStart
 */
async function settle(database, servers, start, up, lastStart) {
  // What the last kill left running is retried 5 s after the restart (orphans.server.ts), and
  // idle queues are polled every 2 s: PGlite is read once that had time to happen.
  if (database.kind === "pglite") await sleep(lastStart + 15_000 - Date.now());
  // A backlog (mail queued faster than it is sent) is waited for while it shrinks; a queue that
  // stops moving for a minute, or 30 minutes in all, ends the wait (the check names what is left).
  const deadline = Date.now() + 30 * 60_000;
  let best = Infinity;
  let progressAt = Date.now();
  for (;;) {
    let stoppedAt = null;
    if (database.kind === "pglite") {
      await stopServer(servers[0], "SIGTERM");
      stoppedAt = new Date().toISOString();
    }
    const direct = await openDirect(database);
    let remaining;
    try {
      remaining = await unsettled(direct, stoppedAt);
    } finally {
      await direct.close();
    }
    if (remaining < best) {
      best = remaining;
      progressAt = Date.now();
    }
    // PGlite: when the stopped server was last looked at (the check reads it so).
    if (remaining === 0) return stoppedAt;
    if (Date.now() - progressAt > 60_000 || Date.now() > deadline) {
      log(`${remaining} mails or jobs still unfinished, the queue no longer moving`);
      return stoppedAt;
    }
    if (database.kind === "pglite") {
      // Read with the server stopped: let a backlog run a while between looks.
      start(0);
      await up(0, "start while settling");
      await sleep(Math.min(120_000, Math.max(10_000, remaining * 100)));
    } else {
      await sleep(2000);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The check

/**
 * @param {SoakDatabase} database
 * @param {Shared} shared
 * @param {{ owners: Person[] }} people
 * @param {Map<string, number>} printed the mails the servers printed, by (to, subject)
 * @param {Map<string, number>} webhookArrivals what the webhook endpoint received
 */
async function check(database, shared, people, printed, webhookArrivals) {
  const { result } = shared;
  const direct = await openDirect(database);
  const lost = (/** @type {string} */ what) => void result.lost.push(what);
  const duplicate = (/** @type {string} */ what) => void result.duplicates.push(what);
  try {
    const projects = await direct.query(
      `select p.id, p.name, p.owner_id, p.studio_sanity_id, p.site_creation_status as site,
              p.studio_creation_status as studio,
              (select count(*)::int from local_studios s where s.idempotency_key = p.id || ':studio') as studios,
              (select count(*)::int from local_sites s where s.idempotency_key like p.id || ':%') as sites,
              (select count(*)::int from project_sites s where s.project_id = p.id) as project_sites,
              (select count(*)::int from local_deploys d where d.trigger_key = p.id || ':initial') as initial,
              (select count(*)::int from local_deploys d where d.trigger_key = p.id || ':auto') as auto,
              (select count(*)::int from event_logs e where e.project_id = p.id and e.type = 'sites.create') as created_events
       from projects p`,
    );
    const byId = new Map(projects.map((p) => [p.id, p]));
    let found = 0;
    let final = 0;
    let success = 0;
    let autoDeploys = 0;
    for (const acked of shared.projects) {
      const p = byId.get(acked.id);
      if (!p) {
        lost(`project ${acked.name}`);
        continue;
      }
      found += 1;
      if (FINAL.has(p.site)) final += 1;
      else lost(`project ${p.name} not final (site ${p.site}, studio ${p.studio})`);
      if (p.site === "success" && p.studio === "success") success += 1;
      else if (FINAL.has(p.site)) lost(`project ${p.name} ended ${p.site} (studio ${p.studio})`);
    }
    for (const p of projects) {
      autoDeploys += p.auto;
      if (p.studios > 1) duplicate(`${p.studios} studios for ${p.name}`);
      if (p.sites > 1) duplicate(`${p.sites} sites for ${p.name}`);
      if (p.project_sites > 1) duplicate(`${p.project_sites} project_sites rows for ${p.name}`);
      if (p.initial > 1) duplicate(`${p.initial} first deployments for ${p.name}`);
      if (p.auto > 1) duplicate(`${p.auto} automatic deployments for ${p.name}`);
      if (p.created_events !== 1) duplicate(`${p.created_events} creation events for ${p.name}`);
      if (p.site === "success" && p.initial + p.auto === 0) lost(`no deployment for ${p.name}`);
      if (p.site === "success" && (p.studios !== 1 || p.sites !== 1)) {
        lost(`${p.name} is live without its studio or site`);
      }
    }
    const names = new Map();
    for (const p of projects)
      names.set(`${p.owner_id} ${p.name}`, (names.get(`${p.owner_id} ${p.name}`) ?? 0) + 1);
    for (const [name, n] of names) if (n > 1) duplicate(`${n} projects named ${name}`);

    // Members: acknowledged invitations and acceptances.
    const members = await direct.query(
      `select m.project_id, m.invited_email, m.status, count(*) over (partition by m.project_id, m.invited_email)::int as n
       from members m`,
    );
    const member = new Map(members.map((m) => [`${m.project_id} ${m.invited_email}`, m]));
    for (const m of members) if (m.n > 1) duplicate(`${m.n} member rows for ${m.invited_email}`);
    for (const inv of shared.invitations) {
      if (member.has(`${inv.project.id} ${inv.email}`)) found += 1;
      else lost(`invitation of ${inv.email} to ${inv.project.name}`);
    }
    for (const acc of shared.acceptances) {
      if (member.get(`${acc.project.id} ${acc.email}`)?.status === "accepted") found += 1;
      else lost(`acceptance of ${acc.email} in ${acc.project.name}`);
    }

    // Invitation mails: one per invitation sent (the activity log's members.invitation.sent,
    // which a resend writes too), each delivered; studio invitation mails: one per studio
    // invitation; studio invitations: one per owner and accepted member, sent once.
    const sent = await direct.query(
      `select p.name, e.metadata->>'email' as email, count(*)::int as n
       from event_logs e join projects p on p.id = e.project_id
       where e.type = 'members.invitation.sent' group by p.name, e.metadata->>'email'`,
    );
    const mails = await direct.query(
      `select "to", subject, status, count(*)::int as n from outbox group by "to", subject, status`,
    );
    const mailCount = new Map();
    for (const m of mails) {
      if (m.status !== "kept" && m.status !== "sent") {
        lost(`${m.n} mail(s) to ${m.to} left ${m.status}: "${m.subject}"`);
      }
      const key = `${m.to}\n${m.subject}`;
      mailCount.set(key, (mailCount.get(key) ?? 0) + m.n);
    }
    // Counted per recipient: a mail to an address nobody proved names no project (decision 028),
    // so its subject cannot say which of the address's invitations it carries.
    const invitedTimes = new Map();
    for (const s of sent) invitedTimes.set(s.email, (invitedTimes.get(s.email) ?? 0) + s.n);
    const invitationMails = new Map();
    for (const [key, n] of mailCount) {
      const [to, subject] = key.split("\n");
      if (subject.startsWith("You are invited to collaborate on ")) {
        invitationMails.set(to, (invitationMails.get(to) ?? 0) + n);
      }
    }
    for (const [email, expected] of invitedTimes) {
      const n = invitationMails.get(email) ?? 0;
      if (n > expected) duplicate(`${n} invitation mails for ${expected} invitations of ${email}`);
      if (n < expected) lost(`${expected - n} invitation mail(s) to ${email}`);
    }
    const invites = await direct.query(
      `select p.name, p.owner_id, i.email, i.sent_count, u.id as user_id
       from local_studio_invites i
       join projects p on p.studio_sanity_id = i.studio_id
       left join users u on u.email = i.email`,
    );
    const studioInvite = new Map(invites.map((i) => [`${i.name} ${i.email}`, i]));
    let studioMails = 0;
    for (const i of invites) {
      if (i.sent_count > 1)
        duplicate(`${i.sent_count} studio invitations of ${i.email} to ${i.name}`);
      const n = mailCount.get(`${i.email}\nYou are invited to the content studio ${i.name}`) ?? 0;
      studioMails += n;
      if (n > i.sent_count) duplicate(`${n} studio invitation mails to ${i.email} for ${i.name}`);
      if (n < i.sent_count) lost(`studio invitation mail to ${i.email} for ${i.name}`);
    }
    const ownerEmail = new Map([...people.owners].map((o) => [o.id, o.email]));
    for (const p of projects) {
      if (p.studio !== "success") continue;
      const email = ownerEmail.get(p.owner_id);
      if (email && !studioInvite.has(`${p.name} ${email}`))
        lost(`owner's studio invitation for ${p.name}`);
    }
    const accepted = await direct.query(
      `select p.name, m.invited_email from members m join projects p on p.id = m.project_id
       where m.status = 'accepted'`,
    );
    for (const a of accepted) {
      if (!studioInvite.has(`${a.name} ${a.invited_email}`)) {
        lost(`studio invitation of accepted member ${a.invited_email} to ${a.name}`);
      }
    }

    // Mail jobs: one per outbox row. Printed deliveries beyond the rows: a server killed between
    // printing a mail and recording it delivered prints it again (at-least-once delivery).
    const mailJobs = await direct.query(
      `select data->>'id' as id, count(*)::int as n from pgboss.job where name = 'mail.send'
       group by data->>'id' having count(*) > 1`,
    );
    for (const j of mailJobs) duplicate(`${j.n} mail jobs for outbox row ${j.id}`);
    let redelivered = 0;
    for (const [key, n] of printed) redelivered += Math.max(0, n - (mailCount.get(key) ?? 0));

    // Webhooks: the acknowledged ones exist; every delivery made once and received.
    const hooks = new Set((await direct.query(`select id from webhooks`)).map((w) => w.id));
    for (const hook of shared.webhooks) {
      if (hooks.has(hook.id)) found += 1;
      else lost(`webhook of ${hook.project.name}`);
    }
    result.webhooks = await checkWebhookDeliveries(direct, webhookArrivals, { lost, duplicate });
    // A restart that finishes its work first sends nothing twice.
    if (ROLLING && result.webhooks.repeated > 0) {
      duplicate(`${result.webhooks.repeated} webhook deliveries sent twice`);
    }

    // The queue: nothing unfinished; nothing failed for good (the sweep does not retry: the
    // next one runs anyway).
    for (const j of await direct.query(UNFINISHED_JOBS, [shared.stoppedAt])) {
      lost(`${j.n} ${j.name} job(s) still ${j.state}`);
    }
    const failed = await direct.query(
      `select name, count(*)::int as n from pgboss.job where state = 'failed' and name <> 'project.sweep'
       group by name`,
    );
    for (const j of failed) lost(`${j.n} ${j.name} job(s) failed`);

    // The data directory (or database) itself: every index agrees with its table.
    const corrupt = await amcheck(direct);
    for (const problem of corrupt) result.problems.push(problem);

    result.found = found;
    result.final = final;
    result.success = success;
    result.autoDeploys = autoDeploys;
    result.mails = [...mailCount.values()].reduce((a, b) => a + b, 0);
    result.studioMails = studioMails;
    result.redelivered = redelivered;
    // A restart that finishes its work first delivers nothing twice.
    if (ROLLING && redelivered > 0) duplicate(`${redelivered} mail(s) printed twice`);
    result.acceptedUnacked = shared.acceptedUnacked;
  } finally {
    await direct.close();
  }
}

/**
 * bt_index_check on every index of the app's tables; the problems it finds.
 * @param {import("./lib.mjs").Direct} direct
 */
async function amcheck(direct) {
  try {
    await direct.exec("create extension if not exists amcheck");
  } catch (error) {
    return [`amcheck unavailable: ${error.message}`];
  }
  const indexes = await direct.query(
    `select c.oid::int as oid, n.nspname || '.' || c.relname as name
     from pg_index i join pg_class c on c.oid = i.indexrelid
     join pg_am a on a.oid = c.relam join pg_namespace n on n.oid = c.relnamespace
     where a.amname = 'btree' and n.nspname in ('public', 'pgboss') and c.relkind = 'i'`,
  );
  const problems = [];
  for (const { oid, name } of indexes) {
    try {
      await direct.query(`select bt_index_check($1::int::oid::regclass, true)`, [oid]);
    } catch (error) {
      problems.push(`index ${name}: ${error.message}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

/**
 * The summary lines of one database's run, as printed and (with --record) logged.
 * @param {Result} r
 */
function summary(r) {
  const acked = r.acked.projects + r.acked.webhooks + r.acked.invitations + r.acked.acceptances;
  const lines = [
    `database: ${r.kind}, instances: ${r.instances}`,
    r.rolling
      ? `rolling restarts: ${r.restarts} (SIGTERM, each instance in turn), exits other than 0: ${r.badExits.length}`
      : `kills survived: ${r.restartFailed ? r.kills - 1 : r.kills}, restarts: ${r.restarts}`,
    ...(r.rolling
      ? [
          `requests failed: ${r.failedRequests.length}, connections refused and sent to another instance: ${r.rerouted}`,
          `at the SIGTERMs: requests under way ${r.stops.requests} (cut ${r.stops.requestsCut}), jobs finished ${r.stops.jobsFinished}, jobs given back ${r.stops.jobsGivenBack}`,
        ]
      : []),
    `writes acknowledged: ${acked} (projects ${r.acked.projects}, webhooks ${r.acked.webhooks}, invitations ${r.acked.invitations}, acceptances ${r.acked.acceptances})`,
    `writes found: ${r.found}`,
    `records lost: ${r.lost.length}`,
    `duplicates: ${r.duplicates.length}`,
    `projects final: ${r.final ?? 0}/${r.acked.projects} (success ${r.success ?? 0}), automatic deployments: ${r.autoDeploys ?? 0}`,
    `mails: ${r.mails ?? 0} (studio invitations ${r.studioMails ?? 0}), printed again after a kill: ${r.redelivered ?? 0}`,
    `webhook deliveries made: ${r.webhooks?.deliveries ?? 0}, received at the endpoint: ${r.webhooks?.arrived ?? 0}, sent again after a kill: ${r.webhooks?.repeated ?? 0}`,
    `answers 5xx (retried): ${r.serverErrors}, acceptances committed with their answer lost: ${r.acceptedUnacked ?? 0}`,
    `seconds: ${r.seconds}`,
  ];
  return lines;
}

/** @param {Result} r */
function report(r) {
  for (const line of summary(r)) console.log(`[soak:crash]   ${line}`);
  for (const what of r.lost.slice(0, 20)) console.log(`[soak:crash]   LOST: ${what}`);
  for (const what of r.duplicates.slice(0, 20)) console.log(`[soak:crash]   DUPLICATE: ${what}`);
  for (const what of r.problems.slice(0, 20)) console.log(`[soak:crash]   PROBLEM: ${what}`);
  for (const what of r.failedRequests.slice(0, 20)) console.log(`[soak:crash]   FAILED: ${what}`);
  for (const what of r.badExits) console.log(`[soak:crash]   EXIT: ${what}`);
}

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
const bad = results.some(
  (r) =>
    r.lost.length ||
    r.duplicates.length ||
    r.problems.length ||
    r.failedRequests.length ||
    r.badExits.length,
);
log(bad ? "FAILED" : "ok");
// `--record` (the npm scripts pass it): the figures go to docs/runs/soak-crash.md as printed.
if (flag("record")) {
  const written = appendRunLog("soak-crash", {
    heading: "Crash soak runs (`npm run soak:crash`, `npm run soak:instances`)",
    title: `${bad ? "FAILED" : "ok"}: ${process.argv.slice(2).join(" ")}`,
    lines: [
      `Machine: ${machineLine({ packages: ["@electric-sql/pglite", "pg", "pg-boss"], databaseUrl: process.env.SOAK_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" })}.`,
      "",
      ...results.flatMap((r) => [...summary(r).map((line) => `- ${line}`), ""]),
    ],
  });
  log(`recorded in ${written}`);
}
process.exit(bad ? 1 : 0);
