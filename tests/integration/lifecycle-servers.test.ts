/**
 * The lifecycle across real server processes (scripts/start.mjs) on one PostgreSQL database:
 * - SIGKILL in the middle of provisioning, then a restart, finishes every project with no
 *   duplicate studio, site or first deployment;
 * - three app instances deploy each of 120 projects (LIFECYCLE_CLUSTER_PROJECTS=N for more)
 *   automatically exactly once and mail each owner's studio invitation once (`npm run
 *   soak:instances` does it with 200 under load and kills).
 * PostgreSQL only: the embedded PGlite database belongs to one process.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, like, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localDeploys, localSites, localStudioInvites, localStudios, outbox } from "~/db/schema";
import { SWEEP_JOB } from "~/services/lifecycle/common.server";
import { createUser, sessionCookie } from "../helpers";
import {
  createOnServer,
  projectRow,
  startServer,
  stopServer,
  waitFor,
  waitForStatus,
  type Server,
} from "./lifecycle-support";

const postgres = Boolean(process.env.DATABASE_URL);
/**
 * Projects made across the three instances (measured: 77 s for 200 on a quiet 2-core machine).
 * More than one sweep claims (100), so the instances race over several sweeps.
 */
const CLUSTER_PROJECTS = Number(process.env.LIFECYCLE_CLUSTER_PROJECTS ?? 120);
const running: Server[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await stopServer(server, "SIGKILL");
});

function serverEnv(values: Record<string, string>) {
  return {
    DATABASE_URL: process.env.DATABASE_URL!,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-lifecycle-")),
    PROVIDERS: "local",
    LOCAL_DEPLOY_FAILURE_RATE: "0",
    // One process per server: these tests SIGKILL a server, which must take all of it down.
    WEB_CONCURRENCY: "1",
    ...values,
  };
}

async function start(env: Record<string, string>) {
  const server = await startServer(env);
  running.push(server);
  return server;
}

async function kill(server: Server) {
  await stopServer(server, "SIGKILL");
  running.splice(running.indexOf(server), 1);
}

async function count(query: Promise<{ n: number }[]>) {
  const [row] = await query;
  return row.n;
}

/** What the vendors hold for a project: studios, sites, first deployments, invitations sent. */
async function vendorRecords(projectId: string) {
  const n = sql<number>`count(*)::int`;
  const [studio] = await db()
    .select()
    .from(localStudios)
    .where(eq(localStudios.idempotencyKey, `${projectId}:studio`));
  return {
    studios: await count(
      db()
        .select({ n })
        .from(localStudios)
        .where(eq(localStudios.idempotencyKey, `${projectId}:studio`)),
    ),
    sites: await count(
      db()
        .select({ n })
        .from(localSites)
        .where(like(localSites.idempotencyKey, `${projectId}:%`)),
    ),
    initialDeploys: await count(
      db()
        .select({ n })
        .from(localDeploys)
        .where(eq(localDeploys.triggerKey, `${projectId}:initial`)),
    ),
    invitesSent: studio
      ? await count(
          db()
            .select({ n: sql<number>`coalesce(sum(${localStudioInvites.sentCount}), 0)::int` })
            .from(localStudioInvites)
            .where(eq(localStudioInvites.studioId, studio.id)),
        )
      : 0,
  };
}

describe.runIf(postgres)("real servers on one PostgreSQL", () => {
  it("finishes provisioning after SIGKILL at several points, with no duplicates", async () => {
    const env = serverEnv({ LOCAL_DEPLOY_STEP_SECONDS: "3", AUTO_DEPLOY_AFTER_MINUTES: "15" });
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);

    // 1. Killed the moment the create answered: provisioning is queued or just starting.
    let server = await start(env);
    const first = await createOnServer(server, cookie, "Killed at once");
    await kill(server);

    // 2. Killed as soon as its studio exists: in the middle of provisioning.
    server = await start(env);
    const second = await createOnServer(server, cookie, "Killed mid provisioning");
    await waitFor(
      async () =>
        (
          await db()
            .select({ id: localStudios.id })
            .from(localStudios)
            .where(eq(localStudios.idempotencyKey, `${second._id}:studio`))
        )[0],
      { every: 5, what: "the second project's studio" },
    );
    await kill(server);
    const atKill = await projectRow(second._id);
    console.info(
      `[sigkill] second project killed at studio=${atKill.studioCreationStatus} site=${atKill.siteCreationStatus}`,
    );

    // 3. Killed while its first deployment builds (polling in progress).
    server = await start(env);
    const third = await createOnServer(server, cookie, "Killed while deploying");
    await waitForStatus(third._id, ["deployed"], { timeout: 60_000 });
    await kill(server);

    // Started again: everything finishes (lost jobs are resumed by the sweep).
    server = await start(env);
    for (const project of [first, second, third]) {
      const row = await waitForStatus(project._id, ["success", "failed"], { timeout: 180_000 });
      expect(row.siteCreationStatus, project.studioId).toBe("success");
      expect(row.studioCreationStatus).toBe("success");
      expect(await vendorRecords(project._id)).toEqual({
        studios: 1,
        sites: 1,
        initialDeploys: 1,
        invitesSent: 1,
      });
    }
    await stopServer(server);
  }, 600_000);

  it(`deploys each of ${CLUSTER_PROJECTS} projects automatically and mails each once with three instances`, async () => {
    // Deployments stay queued, so the projects stay eligible; they are due after 6 seconds.
    const owner = await createUser();
    // A platform admin: one person's 200 projects in minutes are past the daily project limit.
    const env = serverEnv({
      LOCAL_DEPLOY_STEP_SECONDS: "600",
      AUTO_DEPLOY_AFTER_MINUTES: "0.1",
      PLATFORM_ADMIN_EMAILS: owner.email,
    });
    const cookie = await sessionCookie(owner.id);
    // Started together: booting instances take turns for the schema (decision 027).
    const instances = await Promise.all([start(env), start(env), start(env)]);
    // Created through all three at once, a few requests in flight per instance.
    const made: { _id: string; studioId: string; name: string }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, lane) => {
        while (next < CLUSTER_PROJECTS) {
          const i = next++;
          const name = `Cluster ${i}`;
          made.push({ ...(await createOnServer(instances[lane % 3], cookie, name)), name });
        }
      }),
    );
    const n = sql<number>`count(*)::int`;
    const autoDeployed = async () =>
      (
        await db().select({ n }).from(localDeploys).where(like(localDeploys.triggerKey, "%:auto"))
      )[0].n;
    await waitFor(async () => (await autoDeployed()) >= made.length, {
      timeout: 240_000,
      every: 1000,
      what: "every project's automatic deployment",
    });
    // More sweeps on all instances change nothing: two more run to their end (one every 10 s).
    const [{ now }] = (
      (await db().execute(sql`select now()::text as now`)) as unknown as {
        rows: { now: string }[];
      }
    ).rows;
    await waitFor(
      async () => {
        const { rows } = (await db().execute(
          sql`select count(*)::int as n from pgboss.job
              where name = ${SWEEP_JOB} and state = 'completed' and started_on > ${now}::timestamptz`,
        )) as unknown as { rows: { n: number }[] };
        return rows[0].n >= 2;
      },
      { timeout: 60_000, every: 500, what: "two more sweeps" },
    );
    expect(await autoDeployed()).toBe(made.length);
    const perProject = await db()
      .select({ key: localDeploys.triggerKey, n })
      .from(localDeploys)
      .groupBy(localDeploys.triggerKey);
    const count = new Map(perProject.map((r) => [r.key, r.n]));
    // The owner's content studio invitation: one mail per project, delivered once.
    const mails = await db()
      .select({ subject: outbox.subject, status: outbox.status, n })
      .from(outbox)
      .where(eq(outbox.to, owner.email))
      .groupBy(outbox.subject, outbox.status);
    for (const p of made) {
      expect(count.get(`${p._id}:auto`), p.name).toBe(1);
      // The first deployment, unless the automatic one came between its site and its trigger.
      expect(count.get(`${p._id}:initial`) ?? 0, p.name).toBeLessThanOrEqual(1);
      const row = await projectRow(p._id);
      expect(row.autoDeployedAt).not.toBeNull();
      expect(row.siteCreationStatus).toBe("deployed");
      const mail = mails.filter(
        (m) => m.subject === `You are invited to the content studio ${p.name}`,
      );
      expect(mail, p.name).toEqual([{ subject: expect.any(String), status: "kept", n: 1 }]);
    }
    for (const instance of instances) await stopServer(instance);
  }, 600_000);
});
