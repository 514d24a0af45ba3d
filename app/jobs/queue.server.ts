import PgBoss from "pg-boss";
import { database } from "~/db/client.server";

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
  if (current.kind === "postgres") options.connectionString = current.connectionString;
  else options.db = { executeSql: (text, values) => current.raw(text, values) };
  const boss = new PgBoss(options);
  boss.on("error", (error) => console.error("[jobs]", error));
  return boss;
}

/** Starts the queue for this process (idempotent) and creates the named queues. */
export async function startQueue(queues: string[]): Promise<PgBoss> {
  if (!holder.__stackshiftBoss) {
    const boss = createBoss();
    await boss.start();
    holder.__stackshiftBoss = boss;
  }
  const boss = holder.__stackshiftBoss;
  for (const name of queues) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name);
  }
  return boss;
}

export function queue(): PgBoss {
  const boss = holder.__stackshiftBoss;
  if (!boss) throw new Error("The job queue is not started (call startQueue first)");
  return boss;
}

export async function enqueue(name: string, data: Record<string, unknown>) {
  return queue().send(name, data, { retryLimit: 5, retryDelay: 5, retryBackoff: true });
}

export async function work(name: string, handler: Handler) {
  await queue().work<Record<string, unknown>>(
    name,
    { pollingIntervalSeconds: 0.5, batchSize: 1 },
    async (jobs) => {
      for (const job of jobs) await handler(job.data);
    },
  );
}

export async function stopQueue() {
  const boss = holder.__stackshiftBoss;
  holder.__stackshiftBoss = undefined;
  await boss?.stop({ graceful: true, timeout: 5000, wait: true });
}
