import PgBoss from "pg-boss";
import type { Database } from "~/db/client.server";
import { QUEUES } from "~/jobs/index.server";

/** Creates pg-boss's schema and our queues in a template database, so clones start fast. */
export async function createBossFor(database: Database) {
  const boss = new PgBoss(
    database.kind === "postgres"
      ? { connectionString: database.connectionString, supervise: false, schedule: false }
      : {
          db: { executeSql: (text, values) => database.raw(text, values) },
          supervise: false,
          schedule: false,
        },
  );
  await boss.start();
  for (const name of QUEUES) if (!(await boss.getQueue(name))) await boss.createQueue(name);
  await boss.stop({ graceful: false, wait: true });
}
