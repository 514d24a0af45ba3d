// After the crash soak's last restart (scripts/soak/crash.mjs): waiting until every acknowledged
// project is final (read through the list API) and the job queue has settled (read in the
// database: no mail undelivered, no job unfinished), so that the check judges a quiet database.
import { VERBOSE, log } from "./crash-options.mjs";
import { retry } from "./crash-servers.mjs";
import { api, openDirect, sleep, stopServer } from "./lib.mjs";

/**
 * @typedef {import("./crash-state.mjs").Shared} Shared
 * @typedef {import("./crash-state.mjs").Person} Person
 * @typedef {import("./crash-state.mjs").Start} Start
 * @typedef {import("./crash-state.mjs").Up} Up
 * @typedef {import("./lib.mjs").SoakDatabase} SoakDatabase
 * @typedef {import("./lib.mjs").SoakServer} SoakServer
 */

/** The site statuses a project keeps once it has one. @type {Set<string | undefined>} */
export const FINAL = new Set(["success", "failed"]);

/**
 * Reads every owner's projects through the list API until each acknowledged one is final.
 * @param {Shared} shared
 * @param {Person[]} owners
 * @param {number} deadline
 */
export async function waitForProjects(shared, owners, deadline) {
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
export const UNFINISHED_JOBS = `
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
export async function settle(database, servers, start, up, lastStart) {
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
