/**
 * Starting anywhere, any number at once: processes that boot at the same moment on an
 * empty PostgreSQL database take turns for migrations, queue creation and schedules (the boot
 * lock, docs/decisions/027-booting-together.md). Without it PostgreSQL answered `deadlock
 * detected` to pg-boss's queue creation and the process died.
 */
import { spawn } from "node:child_process";
import PgBoss from "pg-boss";
import { describe, expect, inject, it } from "vitest";
import { applyMigrations, openDatabase, withBootLock, type Database } from "~/db/client.server";
import { JOBS, QUEUES } from "~/jobs/index.server";
import { adminQuery } from "../../scripts/pg-admin.mjs";
import { withDatabase } from "../setup/databases";
import { childEnv } from "../helpers";

const postgres = Boolean(process.env.DATABASE_URL);

/** What boot does under the lock, with a queue client of its own (one per "process"). */
async function bootSteps(database: Database) {
  const boss = new PgBoss({
    connectionString: database.connectionString,
    supervise: false,
    schedule: false,
  });
  boss.on("error", () => undefined);
  await withBootLock(database, async () => {
    await applyMigrations(database);
    await boss.start();
    for (const name of QUEUES) if (!(await boss.getQueue(name))) await boss.createQueue(name);
    for (const job of JOBS) if (job.schedule) await boss.schedule(job.name, job.schedule);
  });
  await boss.stop({ graceful: false, wait: true });
}

// Both at once, each on databases of its own: most of either is waiting for boots.
describe.runIf(postgres).concurrent("booting together on one PostgreSQL database", () => {
  it("four boots at once on an empty database all finish, three databases in a row", async () => {
    const adminUrl = inject("postgresAdminUrl");
    for (let round = 0; round < 3; round += 1) {
      const name = `stackshift_t${inject("runId")}_boot${process.pid}_${round}`;
      await adminQuery(adminUrl, `create database ${name}`);
      const handles = Array.from({ length: 4 }, () =>
        openDatabase({ databaseUrl: withDatabase(adminUrl, name), dataDir: "" }),
      );
      try {
        const outcomes = await Promise.allSettled(handles.map((handle) => bootSteps(handle)));
        expect(outcomes.filter((o) => o.status === "rejected")).toEqual([]);
        // Every queue exists once, every schedule once, and the schema is at the last migration.
        const { rows: queues } = await handles[0].raw("select name from pgboss.queue");
        expect(queues.map((q) => (q as { name: string }).name).sort()).toEqual([...QUEUES].sort());
        const { rows: schedules } = await handles[0].raw("select name from pgboss.schedule");
        expect(schedules).toHaveLength(JOBS.filter((job) => job.schedule).length);
        const { rows: users } = await handles[0].raw("select count(*)::int as n from users");
        expect(users).toEqual([{ n: 0 }]);
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
        await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
      }
    }
  }, 120_000);

  it("four servers started together on a fresh database all answer /healthz (npm run soak:boot)", async () => {
    // The real thing: `scripts/start.mjs` four times in one tick, through the soak script.
    const { DATABASE_URL: _d, ...env } = childEnv({
      SOAK_DATABASE_URL: inject("postgresAdminUrl"),
    });
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (resolve) => {
        const proc = spawn(
          process.execPath,
          ["scripts/soak/boot.mjs", "--rounds", "1", "--processes", "4"],
          { env, stdio: ["ignore", "pipe", "pipe"] },
        );
        let text = "";
        proc.stdout.on("data", (d) => (text += d));
        proc.stderr.on("data", (d) => (text += d));
        proc.on("exit", (exitCode) => resolve({ code: exitCode, output: text }));
      },
    );
    expect(output).toContain("4 answered, 0 failed");
    expect(code).toBe(0);
  }, 300_000);
});
