/**
 * Jobs left running by a process that died (app/jobs/orphans.server.ts, decision 023): retried at
 * once instead of after pg-boss's expiry, while the jobs of running processes are left alone.
 * End to end (real SIGKILLs) in tests/integration/crash-soak.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "~/db/client.server";
import { RUNNER_ID, recoverOrphanedJobs } from "~/jobs/orphans.server";
import { queue } from "~/jobs/queue.server";

/** A queue of this test's own: no worker takes its jobs, and no other test's jobs are in it. */
const QUEUE = "test.orphaned-jobs";

beforeAll(async () => {
  if (!(await queue().getQueue(QUEUE))) await queue().createQueue(QUEUE);
});

/** A job taken by "a process" (made active by fetch), then recorded as run by `runner`. */
async function activeJob(runner: string | null, startedLongAgo = false) {
  const id = await queue().send(QUEUE, {}, { retryLimit: 2 });
  const [taken] = (await queue().fetch(QUEUE, { batchSize: 10 })).filter((j) => j.id === id);
  expect(taken, "the job was taken").toBeDefined();
  await database().raw(
    `update pgboss.job set output = $3::jsonb,
       started_on = case when $4 then now() - interval '1 day' else started_on end
     where name = $1 and id = $2::uuid`,
    [QUEUE, id, runner ? JSON.stringify({ runningOn: runner }) : null, startedLongAgo],
  );
  return id!;
}

async function stateOf(id: string) {
  const { rows } = await database().raw(
    `select state from pgboss.job where name = $1 and id = $2::uuid`,
    [QUEUE, id],
  );
  return (rows[0] as { state: string } | undefined)?.state;
}

const fail = (name: string, ids: string[], data: object) => queue().fail(name, ids, data);

describe("jobs left running by a stopped process", () => {
  it("retries a job whose runner no longer runs, and one taken before every running process started", async () => {
    const dead = await activeJob("a-process-that-was-killed");
    const unrecorded = await activeJob(null, true);
    expect(await stateOf(dead)).toBe("active");

    expect(await recoverOrphanedJobs(fail)).toBeGreaterThanOrEqual(2);
    // Failed with retries left: pg-boss runs them again after their retry delay.
    expect(await stateOf(dead)).toBe("retry");
    expect(await stateOf(unrecorded)).toBe("retry");
  });

  it("leaves the jobs this process runs alone", async () => {
    const mine = await activeJob(RUNNER_ID);
    await recoverOrphanedJobs(fail);
    expect(await stateOf(mine)).toBe("active");
    await queue().complete(QUEUE, mine);
  });
});
