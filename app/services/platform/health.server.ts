import fs from "node:fs";
import path from "node:path";
import { database, MIGRATIONS } from "~/db/client.server";
import { workersRunning } from "~/jobs/queue.server";

export async function healthCheck() {
  await database().raw("select 1");
}

let expectedLevel: number | undefined;
/** The newest migration this build ships (drizzle's journal), as drizzle records it: its time. */
function expectedMigrationLevel(): number {
  if (expectedLevel === undefined) {
    const journal = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS, "meta", "_journal.json"), "utf8"),
    ) as { entries: { when: number }[] };
    expectedLevel = Math.max(0, ...journal.entries.map((entry) => entry.when));
  }
  return expectedLevel;
}

/**
 * Why this process should not be sent requests now, or null when it is ready (/readyz): the
 * database answers, its schema is at least at this build's newest migration (a newer version
 * may have migrated further during a rolling upgrade; this one keeps serving), and this
 * process's job workers run.
 */
export async function readinessProblem(): Promise<string | null> {
  let level: number;
  try {
    const { rows } = await database().raw(
      "select coalesce(max(created_at), 0)::text as level from drizzle.__drizzle_migrations",
    );
    level = Number((rows[0] as { level: string }).level);
  } catch {
    return "the database does not answer";
  }
  if (level < expectedMigrationLevel()) return "the database's migrations are behind this version";
  if (!workersRunning()) return "the job workers are not running";
  return null;
}
