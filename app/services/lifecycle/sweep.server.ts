/** The sweep: automatic deployment and resuming work a dead instance left behind. */
import { and, eq, inArray, isNotNull, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects } from "~/db/schema";
import { env } from "~/utils/env.server";
import { IN_PROGRESS, PROVISION_JOB, STALL_SECONDS } from "./common.server";
import { enqueueDeploy, kickSweep, send } from "./queue.server";

/**
 * Automatic deployment: once a project is AUTO_DEPLOY_AFTER_MINUTES old and its site is
 * neither failed nor successful, deploy it once. Each candidate is claimed with a conditional
 * UPDATE whose row lock makes exactly one instance win, and the deployment job is enqueued in
 * the same transaction: claimed if and only if the job exists. Returns the claimed project ids.
 */
export async function autoDeploySweep(): Promise<string[]> {
  const minutes = env().AUTO_DEPLOY_AFTER_MINUTES;
  const eligible = and(
    isNull(projects.autoDeployedAt),
    isNull(projects.permanentErrorAt),
    isNotNull(projects.siteId),
    notInArray(projects.siteCreationStatus, ["failed", "success"]),
    sql`${projects.createdAt} <= now() - (${minutes}::double precision * interval '1 minute')`,
  );
  const candidates = await db()
    .select({ id: projects.id })
    .from(projects)
    .where(eligible)
    .orderBy(projects.createdAt)
    .limit(100);
  const claimed: string[] = [];
  for (const { id } of candidates) {
    const won = await db().transaction(async (tx) => {
      const [row] = await tx
        .update(projects)
        .set({ autoDeployedAt: sql`now()` })
        .where(and(eq(projects.id, id), eligible))
        .returning({ id: projects.id });
      if (row) await enqueueDeploy(id, `${id}:auto`, tx);
      return Boolean(row);
    });
    if (won) claimed.push(id);
  }
  return claimed;
}

/**
 * Projects still on their way whose row nobody has touched for STALL_SECONDS lost their job (an
 * instance died mid-provisioning or mid-poll): provisioning runs again and carries on from where
 * the row says it is. One resume per project per minute, however many instances sweep.
 */
export async function resumeStalledProjects(): Promise<string[]> {
  const rows = await db()
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        isNull(projects.permanentErrorAt),
        ne(projects.siteCreationStatus, "failed"),
        ne(projects.studioCreationStatus, "failed"),
        or(
          inArray(projects.siteCreationStatus, IN_PROGRESS),
          inArray(projects.studioCreationStatus, ["pending", "created"]),
        ),
        sql`${projects.updatedAt} < now() - (${STALL_SECONDS} * interval '1 second')`,
      ),
    )
    .limit(100);
  for (const { id } of rows) {
    await send(
      PROVISION_JOB,
      { projectId: id },
      { singletonKey: `resume:${id}`, singletonSeconds: 60, expireInSeconds: 600 },
    );
  }
  return rows.map((r) => r.id);
}

export async function runLifecycleSweep() {
  try {
    await autoDeploySweep();
    await resumeStalledProjects();
  } finally {
    await kickSweep();
  }
}
