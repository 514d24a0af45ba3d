import PgBoss from "pg-boss";
import { database, separateSchemaOwner, type Database, type Queryable } from "~/db/client.server";
import { log, logger } from "~/utils/logger.server";
import {
  jobCompleted,
  jobFailed,
  jobQueueWorked,
  reportWaitingJobs,
  type WaitingJobs,
} from "~/utils/metrics.server";
import { inJobScope } from "~/utils/request-memo.server";
import {
  markRunning,
  recoverOrphanedJobs,
  RUNNER_ID,
  startPresence,
  stopPresence,
} from "./orphans.server";
import {
  IDLE_POLL_SECONDS,
  JOB_CHANNEL,
  listenForJobs,
  noticeFor,
  registerWaker,
  stopWaking,
  wake,
} from "./wake.server";

/**
 * Background work runs on pg-boss in the app's own database (PGlite included), so several app
 * instances on one PostgreSQL share one queue and a job runs once.
 */
type Handler = (data: Record<string, unknown>) => Promise<void>;

const holder = globalThis as unknown as { __stackshiftBoss?: PgBoss };

export function createBoss(): PgBoss {
  const current = database();
  const options: PgBoss.ConstructorOptions = {
    // Mail must reach SMTP within seconds of the action.
    schedule: true,
    supervise: true,
  };
  if (current.kind === "postgres") {
    options.connectionString = current.connectionString;
    // Its own pool, beside the app's ten: polling two dozen queues and sending jobs
    // are short queries, and PostgreSQL's 100 connections are shared by every process of every
    // instance (docs/operations.md counts them). pg-boss would open ten.
    options.max = 4;
    // The schema belongs to MIGRATIONS_DATABASE_URL's role, which boot installs it with
    // (installQueues): this role only checks that it is current.
    if (separateSchemaOwner()) options.migrate = false;
  } else options.db = { executeSql: (text, values) => current.raw(text, values) };
  const boss = new PgBoss(options);
  boss.on("error", (error) => logger.error({ err: error, area: "jobs" }, "job queue error"));
  return boss;
}

/** Starts the queue for this process (idempotent) and creates the named queues. */
export async function startQueue(queues: string[]): Promise<PgBoss> {
  if (!holder.__stackshiftBoss) {
    const boss = createBoss();
    await boss.start();
    // Before any job runs here: the connection that tells others this process runs jobs.
    await startPresence();
    // And hears of jobs sent anywhere (wake.server.ts).
    await listenForJobs();
    holder.__stackshiftBoss = boss;
    reportWaitingJobs(waitingJobs);
  }
  const boss = holder.__stackshiftBoss;
  for (const name of queues) {
    if (!(await boss.getQueue(name))) await createQueueRetrying(boss, name);
  }
  return boss;
}

/**
 * With a separate schema owner (MIGRATIONS_DATABASE_URL), pg-boss's own schema and every queue
 * are made through the owner's connection: a queue is a partition of pgboss.job, created and
 * attached by DDL that only the job table's owner may run. A pg-boss that neither works nor
 * schedules, closed again at once; the process's own queue (startQueue) then finds everything
 * in place. Boot holds the boot lock meanwhile.
 */
export async function installQueues(owner: Database, queues: string[]) {
  const boss = new PgBoss({
    connectionString: owner.connectionString,
    max: 1,
    supervise: false,
    schedule: false,
  });
  boss.on("error", (error) => logger.error({ err: error, area: "jobs" }, "job queue error"));
  await boss.start();
  try {
    for (const name of queues) {
      if (!(await boss.getQueue(name))) await createQueueRetrying(boss, name);
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/**
 * Creates a queue; boot holds the boot lock meanwhile, so no other process creates one. A process
 * of an older version that keeps working through a rolling upgrade can still meet the new
 * partition's table locks in a deadlock, which PostgreSQL resolves by failing one side: try again.
 */
async function createQueueRetrying(boss: PgBoss, name: string) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await boss.createQueue(name);
      return;
    } catch (error) {
      const deadlock = (error as { code?: string }).code === "40P01";
      if (!deadlock || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

export function queue(): PgBoss {
  const boss = holder.__stackshiftBoss;
  if (!boss) throw new Error("The job queue is not started (call startQueue first)");
  return boss;
}

/** Five retries with backoff from 5 seconds: what a job gets unless it says otherwise. */
export const RETRY = { retryLimit: 5, retryDelay: 5, retryBackoff: true } as const;

export async function enqueue(
  name: string,
  data: Record<string, unknown>,
  options: PgBoss.SendOptions = {},
) {
  return sendJob(name, data, { ...RETRY, ...options });
}

/**
 * The jobs this process is running now, so that a shutdown can wait for them and give back to the
 * queue the ones that outlast its grace (drainQueue).
 */
type Running = { name: string; abandon: () => void };
const running = new Map<string, Running>();
/** The queues this process works, so that a shutdown can stop taking their jobs. */
const worked = new Set<string>();
/** Set once a shutdown's grace is over: no further job of a fetched batch starts. */
let givingBack = false;
/** Set from the start of a shutdown: this process takes no more jobs. */
let draining = false;

/** Whether this process's job workers run (readiness: /readyz). */
export function workersRunning(): boolean {
  return Boolean(holder.__stackshiftBoss) && worked.size > 0 && !draining;
}

/**
 * Runs one job, tracked: it settles when the handler does, or at once when a shutdown gives the
 * job back (the handler may still be running then; the job's state is no longer 'active', so
 * pg-boss's completion of it changes nothing, and whoever takes it next runs it again).
 */
function runTracked(
  name: string,
  id: string,
  handler: () => Promise<void>,
): Promise<"done" | "given back"> {
  let abandon!: () => void;
  const abandoned = new Promise<void>((resolve) => (abandon = resolve));
  running.set(id, { name, abandon });
  const work = handler();
  // A handler that fails after its job was given back must not become an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([
    work.then(() => "done" as const),
    abandoned.then(() => "given back" as const),
  ]).finally(() => running.delete(id));
}

/**
 * The waiting jobs of every queue, in one query at scrape time (metrics.server.ts): pg-boss 10
 * keeps jobs in pgboss.job, those in state created or retry (below active) wait. The age is of
 * the longest-due one (start_after passed): a job scheduled for later is not late.
 */
async function waitingJobs(): Promise<WaitingJobs> {
  const { rows } = await database().raw(
    `select q.name as queue, count(j.id)::int as waiting,
       coalesce(extract(epoch from now() - min(j.start_after) filter (where j.start_after <= now())), 0)::float8 as "oldestSeconds"
     from pgboss.queue q
     left join pgboss.job j on j.name = q.name and j.state < 'active'
     group by q.name`,
    [],
  );
  return rows as WaitingJobs;
}

/**
 * A job's data as handlers read it: a scheduled job (pg-boss `schedule`) carries null, and an
 * hourly handler reading `data.after` would throw at every firing.
 */
const dataOf = (job: { data: unknown }) =>
  (job.data && typeof job.data === "object" ? job.data : {}) as Record<string, unknown>;

/**
 * Works a queue: when woken by a send, and at least every IDLE_POLL_SECONDS, it takes `batchSize`
 * jobs (one unless the job says otherwise: mail takes ten), and again at once while batches come
 * back full (wake.server.ts).
 * Each outcome is counted (metrics.server.ts): a completion, a retry (a failure with retries left) or a failure.
 */
export async function work(name: string, handler: Handler, { batchSize = 1 } = {}) {
  worked.add(name);
  jobQueueWorked(name);
  const boss = queue();
  const workerId = await boss.work<Record<string, unknown>>(
    name,
    // The metadata says whether a failure has retries left (retryCount counts the runs so far).
    // Woken when a job is sent (wake.server.ts); the polling is for what nothing announces.
    { pollingIntervalSeconds: IDLE_POLL_SECONDS, batchSize, includeMetadata: true },
    async (jobs) => {
      // A full batch: more may wait, so look again as soon as this one is done.
      if (jobs.length >= batchSize) wake(name);
      // Who runs them, so that another process can retry them if this one dies (orphans.server.ts).
      await markRunning(
        name,
        jobs.map((job) => job.id),
      );
      const failed = (job: (typeof jobs)[number]) =>
        jobFailed(name, job.retryCount < job.retryLimit);
      // Each job's log lines carry the queue's name and the job's id.
      if (jobs.length === 1) {
        const [job] = jobs;
        let outcome: "done" | "given back";
        try {
          outcome = await runTracked(name, job.id, () =>
            inJobScope(name, job.id, () => handler(dataOf(job))),
          );
        } catch (error) {
          failed(job);
          throw error; // pg-boss fails (or retries) the job
        }
        if (outcome === "done") jobCompleted(name);
        return;
      }
      // A batch: each job completes or fails on its own (pg-boss would fail the whole batch for
      // one failure, and the batch's later jobs would lose a retry untried).
      for (const [index, job] of jobs.entries()) {
        if (givingBack) {
          // The shutdown's grace is over: the batch's jobs not started yet go back untouched.
          await giveBack(jobs.slice(index).map((j) => j.id));
          return;
        }
        try {
          const outcome = await runTracked(name, job.id, () =>
            inJobScope(name, job.id, () => handler(dataOf(job))),
          );
          // Given back: it is waiting again, for this or another process.
          if (outcome === "given back") continue;
          await queue().complete(name, job.id);
          jobCompleted(name);
        } catch (error) {
          inJobScope(name, job.id, () => log().error({ err: error }, "job failed"));
          await queue().fail(name, job.id, error as object);
          failed(job);
        }
      }
    },
  );
  registerWaker(name, () => boss.notifyWorker(workerId));
}

/**
 * Puts jobs this process took back in the queue as they were before it took them: waiting, to
 * run at once elsewhere, with their retries untouched (failing them would spend a retry, and a
 * job on its last one would be lost to a restart).
 */
async function giveBack(ids: string[]) {
  if (ids.length === 0) return;
  await database().raw(
    `update pgboss.job set state = 'retry', start_after = now(), started_on = null,
       output = jsonb_build_object('givenBackBy', $2::text)
     where id = any($1::uuid[]) and state = 'active'`,
    [ids, RUNNER_ID],
  );
}

/**
 * The job side of a clean shutdown: stops taking jobs at once, lets the running ones finish until
 * `deadline` (a Date.now() time) and gives back to the queue those still running then. The queue
 * itself stays open for the requests still being answered (they may send jobs): stopQueue closes
 * it after them. Returns how many finished and how many were given back.
 */
export async function drainQueue(
  deadline: number,
): Promise<{ finished: number; givenBack: number }> {
  const boss = holder.__stackshiftBoss;
  clearInterval(timers.__stackshiftOrphanCheck);
  if (!boss) return { finished: 0, givenBack: 0 };
  draining = true;
  for (const name of worked) await boss.offWork(name);
  const atStart = running.size;
  while (running.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  givingBack = true;
  const left = [...running.entries()];
  await giveBack(left.map(([id]) => id));
  for (const [, job] of left) job.abandon();
  if (left.length > 0) {
    logger.warn(
      { area: "jobs", jobs: left.length },
      "jobs still running at the end of the shutdown grace: given back to the queue",
    );
  }
  return { finished: Math.max(0, atStart - left.length), givenBack: left.length };
}

const ORPHAN_CHECK_MS = 15_000;
const timers = globalThis as unknown as { __stackshiftOrphanCheck?: NodeJS.Timeout };

/**
 * Retries the jobs that a stopped process left running: now (call it before this process starts
 * working) and, on PostgreSQL, every 15 seconds, so a process that dies while others keep running
 * is noticed by them. PGlite has one process: whatever is running at its start was left behind.
 */
export async function watchOrphanedJobs() {
  const fail = (name: string, ids: string[], data: object) => queue().fail(name, ids, data);
  await recoverOrphanedJobs(fail);
  clearInterval(timers.__stackshiftOrphanCheck);
  if (database().kind !== "postgres") return;
  timers.__stackshiftOrphanCheck = setInterval(() => {
    if (!holder.__stackshiftBoss) return;
    recoverOrphanedJobs(fail).catch((error) =>
      logger.error({ err: error, area: "jobs" }, "checking for orphaned jobs failed"),
    );
  }, ORPHAN_CHECK_MS);
  timers.__stackshiftOrphanCheck.unref?.();
}

export async function stopQueue() {
  clearInterval(timers.__stackshiftOrphanCheck);
  const boss = holder.__stackshiftBoss;
  holder.__stackshiftBoss = undefined;
  worked.clear();
  givingBack = false;
  draining = false;
  // A scrape after this must not reopen the database it is about to close.
  reportWaitingJobs(undefined);
  await boss?.stop({ graceful: true, timeout: 5000, wait: true });
  await stopWaking();
  await stopPresence();
}

/**
 * pg-boss sends inside a drizzle transaction: the job exists exactly when the transaction that
 * asked for it commits. pg-boss's SQL reuses `$n` parameters across differently typed positions,
 * which drizzle's inline parameters cannot express, so the statement goes to the transaction's
 * own driver client (node-postgres PoolClient or PGlite Transaction; both have query(text, values)).
 * Given the database itself rather than a transaction, it is the pool (or PGlite) it queries with.
 */
type DriverClient = { query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> };
function inTransaction(tx: Queryable): PgBoss.Db {
  const client = (tx as unknown as { session?: { client?: Partial<DriverClient> } }).session
    ?.client;
  if (typeof client?.query !== "function") {
    throw new Error("Cannot reach the transaction's database client for pg-boss");
  }
  const driver = client as DriverClient;
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await driver.query(text, values);
      return { rows: result.rows };
    },
  };
}

/**
 * Sends a job; with `tx`, inside that transaction (the job exists only if it commits). The
 * queue's workers hear of it when it commits (wake.server.ts).
 */
export async function sendJob(
  name: string,
  data: Record<string, unknown>,
  options: PgBoss.SendOptions = {},
  tx?: Queryable,
) {
  const runner = tx ? inTransaction(tx) : undefined;
  const id = await queue().send(name, data, { ...options, ...(runner ? { db: runner } : {}) });
  const notice = [JOB_CHANNEL, noticeFor(name, options.startAfter)];
  if (runner) await runner.executeSql("select pg_notify($1, $2)", notice);
  else await database().raw("select pg_notify($1, $2)", notice);
  return id;
}
