/** Enqueueing the lifecycle's jobs: one job per slot for the chains that re-enqueue themselves. */
import { createHash, randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import type { Tx } from "~/db/client.server";
import { sendJob } from "~/jobs/queue.server";
import {
  DEPLOY_JOB,
  POLL_JOB,
  PROVISION_JOB,
  SWEEP_EVERY_SECONDS,
  SWEEP_JOB,
  pollSeconds,
  RETRY,
} from "./common.server";

export async function send(
  name: string,
  data: Record<string, unknown>,
  options: PgBoss.SendOptions = {},
  tx?: Tx,
) {
  return sendJob(name, data, { ...RETRY, ...options }, tx);
}

/**
 * A job id per (key, time slot): chains that re-enqueue themselves (polling, the sweep) ask for
 * the slot their next run starts in, so however many instances or code paths ask for the same
 * slot, pg-boss inserts one job (the rest hit the primary key and insert nothing).
 */
function slotJobId(key: string, startAfterSeconds: number, slotSeconds: number) {
  const slot = Math.floor((Date.now() / 1000 + startAfterSeconds) / slotSeconds);
  const hex = createHash("sha256").update(`${key}\u0000${slot}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Starts (or keeps alive) the sweep between its cron ticks: one run per slot, cluster-wide. */
export async function kickSweep(tx?: Tx) {
  await send(
    SWEEP_JOB,
    {},
    {
      id: slotJobId("sweep", SWEEP_EVERY_SECONDS, SWEEP_EVERY_SECONDS),
      startAfter: SWEEP_EVERY_SECONDS,
      retryLimit: 0,
      expireInSeconds: 120,
    },
    tx,
  );
}

export async function enqueueProvisioning(projectId: string, tx?: Tx) {
  await send(PROVISION_JOB, { projectId }, { expireInSeconds: 600 }, tx);
  await kickSweep(tx);
}

export type PollData = { projectId: string; deployId?: string };

export async function enqueuePoll(data: PollData, options: { now?: boolean; tx?: Tx } = {}) {
  const seconds = pollSeconds();
  const delay = options.now ? 0 : seconds;
  await send(
    POLL_JOB,
    data,
    {
      // A chain's next poll: one per project and slot, so two chains (two paths started one)
      // merge into one. A first poll starts now, whatever ran in this slot before.
      ...(options.now
        ? {}
        : { id: slotJobId(`poll:${data.projectId}:${data.deployId ?? ""}`, delay, seconds) }),
      startAfter: delay,
      expireInSeconds: 120,
    },
    options.tx,
  );
}

export async function enqueueDeploy(projectId: string, triggerKey: string, tx?: Tx) {
  await send(DEPLOY_JOB, { projectId, triggerKey }, { expireInSeconds: 300 }, tx);
}

/** Queues a deployment of the project now (POST /api/app/deployments); a fresh trigger key. */
export async function enqueueManualDeployment(projectId: string) {
  const triggerKey = `${projectId}:manual:${randomUUID()}`;
  await enqueueDeploy(projectId, triggerKey);
  return triggerKey;
}
