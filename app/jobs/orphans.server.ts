/**
 * Jobs left running by a process that died (SIGKILL, a crash, a lost machine). pg-boss keeps such
 * a job 'active' until its expiry (15 minutes unless the job says otherwise), so a mail or a
 * studio invitation would wait that long after a crash. Instead, each process records itself as
 * the runner of the job it starts (in the job's output column, which pg-boss overwrites when the
 * job completes or fails), and a job whose runner no longer runs is failed at once, so pg-boss
 * retries it after its retry delay.
 *
 * Who runs: on PostgreSQL, each process holds one connection named `stackshift-jobs:{id}`, which
 * pg_stat_activity lists while the process lives (the database drops it when the process dies);
 * on PGlite, only this process (DATA_DIR/db.lock keeps others out). A job whose runner was never
 * recorded (its process died in the one query between taking it and recording itself) counts as
 * orphaned once every running process started after it, or a minute after it was taken: a live
 * process records itself at once.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { database } from "~/db/client.server";
import { logger } from "~/utils/logger.server";
import { hearJobsOn } from "./wake.server";

/** This process, as recorded on the jobs it runs. */
export const RUNNER_ID = randomUUID();
const PRESENCE = "stackshift-jobs:";

type Holder = { presence?: pg.Client; reconnect?: NodeJS.Timeout; stopped?: boolean };
const holder = globalThis as unknown as { __stackshiftPresence?: Holder };

/** PostgreSQL: opens the connection that says this process runs (kept until stopPresence). */
export async function startPresence() {
  const current = database();
  if (current.kind !== "postgres" || holder.__stackshiftPresence) return;
  const state: Holder = {};
  holder.__stackshiftPresence = state;
  const connect = async () => {
    const client = new pg.Client({
      connectionString: current.connectionString,
      application_name: `${PRESENCE}${RUNNER_ID}`,
    });
    client.on("error", (error) => {
      logger.error({ area: "jobs", reason: error.message }, "presence connection lost");
      state.presence = undefined;
      client.end().catch(() => undefined);
      if (!state.stopped) state.reconnect = setTimeout(() => void connect().catch(retry), 1000);
    });
    await client.connect();
    // The same connection hears of jobs sent by any process (wake.server.ts).
    await hearJobsOn(client);
    state.presence = client;
  };
  const retry = (error: Error) => {
    logger.error({ area: "jobs", reason: error.message }, "presence connection failed");
    if (!state.stopped) state.reconnect = setTimeout(() => void connect().catch(retry), 5000);
  };
  await connect();
}

export async function stopPresence() {
  const state = holder.__stackshiftPresence;
  holder.__stackshiftPresence = undefined;
  if (!state) return;
  state.stopped = true;
  clearTimeout(state.reconnect);
  await state.presence?.end().catch(() => undefined);
}

/** Records this process as the runner of the jobs it just fetched. */
export async function markRunning(name: string, ids: string[]) {
  await database().raw(
    `update pgboss.job set output = jsonb_build_object('runningOn', $3::text)
     where name = $1 and id = any($2::uuid[]) and state = 'active'`,
    [name, ids, RUNNER_ID],
  );
}

type Orphan = { name: string; id: string };

/** Active jobs whose runner no longer runs. */
export async function findOrphanedJobs(): Promise<Orphan[]> {
  const current = database();
  if (current.kind === "pglite") {
    const { rows } = await current.raw(
      `select name, id::text as id from pgboss.job
       where state = 'active' and (output->>'runningOn') is distinct from $1`,
      [RUNNER_ID],
    );
    return rows as Orphan[];
  }
  const { rows: live } = await current.raw(
    `select substr(application_name, ${PRESENCE.length + 1}) as id, backend_start
     from pg_stat_activity
     where datname = current_database() and application_name like $1`,
    [`${PRESENCE}%`],
  );
  const runners = live as { id: string; backend_start: Date }[];
  // Without our own connection we cannot tell who runs: judge nothing.
  if (!runners.some((r) => r.id === RUNNER_ID)) return [];
  const earliest = new Date(Math.min(...runners.map((r) => new Date(r.backend_start).getTime())));
  const { rows } = await current.raw(
    `select name, id::text as id from pgboss.job
     where state = 'active' and (
       (output->>'runningOn' is not null and not (output->>'runningOn' = any($1::text[])))
       or (output->>'runningOn' is null
           and (started_on < $2::timestamptz or started_on < now() - interval '60 seconds')))`,
    [runners.map((r) => r.id), earliest.toISOString()],
  );
  return rows as Orphan[];
}

/**
 * Fails the orphaned jobs, so pg-boss retries them (or records them failed when they have no
 * retries left). `fail` decides by the job's state at that moment: a job that finished meanwhile
 * is left alone. Returns how many were failed.
 */
export async function recoverOrphanedJobs(
  fail: (name: string, ids: string[], data: object) => Promise<unknown>,
): Promise<number> {
  const orphans = await findOrphanedJobs();
  const byName = new Map<string, string[]>();
  for (const { name, id } of orphans) byName.set(name, [...(byName.get(name) ?? []), id]);
  for (const [name, ids] of byName) {
    await fail(name, ids, { message: "the process running this job stopped; retried" });
  }
  if (orphans.length > 0) {
    logger.info(
      { area: "jobs", jobs: orphans.length },
      "jobs left running by a stopped process: retried",
    );
  }
  return orphans.length;
}
