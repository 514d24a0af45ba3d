/** Local deployments move on by jobs: one job per step, each step a compare-and-set on the deploy's state. */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { localDeploys, localSites } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import { env } from "~/utils/env.server";
import { deploymentStatus } from "../status";
import type { HostingProviderName } from "../types";
import {
  FAIL_DEPLOY_HOOK,
  LOCAL_ADVANCE_JOB,
  SLOW_DEPLOY_FACTOR,
  SLOW_DEPLOY_HOOK,
  isInProgress,
} from "./shared.server";

type Step = { deployId: string; from: string };

function stepSeconds(siteName: string) {
  const slow = siteName.toLowerCase().includes(SLOW_DEPLOY_HOOK);
  return env().LOCAL_DEPLOY_STEP_SECONDS * (slow ? SLOW_DEPLOY_FACTOR : 1);
}

/**
 * One pg-boss job id per (deploy, from-state): scheduling the same step twice (a retried trigger,
 * a re-run advance job) inserts nothing the second time, so a state is never doubled.
 */
function stepJobId(step: Step) {
  const hex = createHash("sha256").update(`${step.deployId}\u0000${step.from}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function scheduleStep(step: Step, siteName: string) {
  await sendJob(LOCAL_ADVANCE_JOB, step, {
    id: stepJobId(step),
    retryLimit: 5,
    retryDelay: 2,
    retryBackoff: true,
    startAfter: stepSeconds(siteName),
  });
}

function nextState(
  provider: HostingProviderName,
  from: string,
  siteName: string,
): { state: string; errorMessage: string | null } | null {
  const status = deploymentStatus(provider, from);
  if (status === "queued") {
    return { state: provider === "netlify" ? "building" : "BUILDING", errorMessage: null };
  }
  if (status !== "building") return null;
  const forced = siteName.toLowerCase().includes(FAIL_DEPLOY_HOOK);
  if (forced || Math.random() < env().LOCAL_DEPLOY_FAILURE_RATE) {
    const reason = forced
      ? `the site name contains "${FAIL_DEPLOY_HOOK}"`
      : "LOCAL_DEPLOY_FAILURE_RATE";
    // Worded like each vendor's build failure, with the local reason appended.
    const vendor =
      provider === "netlify"
        ? "Build script returned non-zero exit code: 2"
        : 'Command "npm run build" exited with 1';
    return {
      state: provider === "netlify" ? "error" : "ERROR",
      errorMessage: `${vendor} (local failure: ${reason})`,
    };
  }
  return { state: provider === "netlify" ? "ready" : "READY", errorMessage: null };
}

/**
 * The handler of LOCAL_ADVANCE_JOB: moves a deploy one state on. Safe to re-run: when the deploy
 * has already left `from`, it only makes sure the following step is scheduled.
 */
export async function advanceLocalDeploy(data: Record<string, unknown>) {
  const deployId = typeof data.deployId === "string" ? data.deployId : "";
  const from = typeof data.from === "string" ? data.from : "";
  if (!deployId || !from) return;

  const outcome = await db().transaction(async (tx) => {
    // Locks the deploy and its site: a parallel run waits, then sees the new state.
    const [row] = await tx
      .select({ deploy: localDeploys, site: localSites })
      .from(localDeploys)
      .innerJoin(localSites, eq(localSites.id, localDeploys.siteId))
      .where(eq(localDeploys.id, deployId))
      .for("update");
    if (!row) return null;
    const { deploy, site } = row;
    if (deploy.state !== from) {
      return { provider: site.provider, state: deploy.state, siteName: site.name };
    }

    const next = nextState(site.provider, from, site.name);
    if (!next) return null;
    const now = new Date();
    await tx
      .update(localDeploys)
      .set({ state: next.state, errorMessage: next.errorMessage, updatedAt: now })
      .where(eq(localDeploys.id, deployId));
    if (deploymentStatus(site.provider, next.state) === "ready") {
      // Publish unless a newer deploy is already live (vendors serve the latest ready deploy).
      const [current] = site.publishedDeployId
        ? await tx
            .select({ seq: localDeploys.seq })
            .from(localDeploys)
            .where(eq(localDeploys.id, site.publishedDeployId))
        : [];
      if (!current || current.seq < deploy.seq) {
        await tx
          .update(localSites)
          .set({ publishedDeployId: deployId, updatedAt: now })
          .where(eq(localSites.id, site.id));
      }
    }
    return { provider: site.provider, state: next.state, siteName: site.name };
  });

  // Scheduled after commit: pg-boss uses its own connection (and PGlite has only one).
  if (outcome && isInProgress(outcome.provider, outcome.state)) {
    await scheduleStep({ deployId, from: outcome.state }, outcome.siteName);
  }
}
