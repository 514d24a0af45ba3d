/**
 * Automatic deployment: a project AUTO_DEPLOY_AFTER_MINUTES old whose
 * site is neither failed nor successful is deployed once, exactly once, however many sweeps run
 * at the same time (here: concurrent sweeps and two pg-boss instances on one database; the
 * two-server version is in lifecycle-servers.test.ts).
 */
import { and, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { db } from "~/db/client.server";
import { localDeploys, projects } from "~/db/schema";
import { createBoss, queue } from "~/jobs/queue.server";
import { SWEEP_JOB } from "~/services/lifecycle/common.server";
import { autoDeploySweep, runLifecycleSweep } from "~/services/lifecycle/sweep.server";
import { createUser, sessionCookie } from "../helpers";
import {
  configure,
  createThroughApi,
  projectRow,
  startWorkers,
  waitFor,
  waitForStatus,
} from "./lifecycle-support";

let second: PgBoss | undefined;

beforeAll(async () => {
  configure({
    PROVIDERS: "local",
    // Deployments stay queued: the projects remain 'deployed', so they stay eligible.
    LOCAL_DEPLOY_STEP_SECONDS: "600",
    AUTO_DEPLOY_AFTER_MINUTES: "15",
  });
  await startWorkers();
});

afterAll(async () => {
  await second?.stop({ graceful: false, wait: true });
});

async function makeProjects(n: number, prefix: string) {
  const owner = await createUser();
  const cookie = await sessionCookie(owner.id);
  const made = [];
  for (let i = 0; i < n; i += 1) {
    const p = await createThroughApi(cookie, { name: `${prefix} ${i}` });
    made.push(await waitForStatus(p._id, ["deployed"]));
  }
  return made;
}

async function age(ids: string[], minutes: number) {
  await db()
    .update(projects)
    .set({ createdAt: sql`now() - (${minutes} * interval '1 minute')` })
    .where(inArray(projects.id, ids));
}

async function autoDeploys(projectId: string) {
  return db()
    .select()
    .from(localDeploys)
    .where(eq(localDeploys.triggerKey, `${projectId}:auto`));
}

describe("automatic deployment", () => {
  it("deploys each eligible project once, with concurrent sweeps", async () => {
    const [a, b, c, failed, succeeded, young, done] = await makeProjects(7, "Auto");
    await age([a.id, b.id, c.id, failed.id, succeeded.id, done.id], 16);
    await age([young.id], 14);
    await db()
      .update(projects)
      .set({ siteCreationStatus: "failed" })
      .where(eq(projects.id, failed.id));
    await db()
      .update(projects)
      .set({ siteCreationStatus: "success" })
      .where(eq(projects.id, succeeded.id));
    await db()
      .update(projects)
      .set({ autoDeployedAt: sql`now() - interval '1 minute'` })
      .where(eq(projects.id, done.id));

    const claims = (await Promise.all(Array.from({ length: 6 }, () => autoDeploySweep()))).flat();
    expect(claims.sort()).toEqual([a.id, b.id, c.id].sort());

    for (const p of [a, b, c]) {
      const rows = await waitFor(
        async () => {
          const found = await autoDeploys(p.id);
          return found.length > 0 ? found : null;
        },
        { what: `the automatic deployment of ${p.name}` },
      );
      expect(rows).toHaveLength(1);
      expect((await projectRow(p.id)).autoDeployedAt).not.toBeNull();
    }
    for (const p of [failed, succeeded, young, done]) {
      expect(await autoDeploys(p.id)).toHaveLength(0);
    }
    // Later sweeps find nothing more to do.
    expect(await autoDeploySweep()).toEqual([]);
    await runLifecycleSweep();
    await new Promise((r) => setTimeout(r, 1500));
    for (const p of [a, b, c]) expect(await autoDeploys(p.id)).toHaveLength(1);
    // The young one fires once it is old enough.
    await age([young.id], 15);
    expect(await autoDeploySweep()).toEqual([young.id]);
  });

  it("deploys once with two pg-boss instances working the sweep on one database", async () => {
    const made = await makeProjects(4, "Two instances");
    const ids = made.map((p) => p.id);
    await age(ids, 20);

    second = createBoss();
    await second.start();
    let secondRuns = 0;
    await second.work(SWEEP_JOB, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async () => {
      secondRuns += 1;
      await runLifecycleSweep();
    });
    // Both instances get sweep jobs at the same moment.
    await Promise.all([
      ...Array.from({ length: 4 }, () => queue().send(SWEEP_JOB, {})),
      ...Array.from({ length: 4 }, () => second!.send(SWEEP_JOB, {})),
    ]);
    await waitFor(
      async () => {
        const rows = await db()
          .select({ id: localDeploys.id })
          .from(localDeploys)
          .where(and(like(localDeploys.triggerKey, "%:auto")));
        const mine = await Promise.all(ids.map(autoDeploys));
        return mine.every((r) => r.length > 0) ? rows : null;
      },
      { what: "every project's automatic deployment" },
    );
    await new Promise((r) => setTimeout(r, 2000));
    for (const id of ids) expect(await autoDeploys(id)).toHaveLength(1);
    expect(secondRuns).toBeGreaterThan(0);
  });
});
