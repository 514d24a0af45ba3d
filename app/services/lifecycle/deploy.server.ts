/** Deployments on request (manual, automatic) and retries of a failed project. */
import { and, eq, inArray, sql } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { projects } from "~/db/schema";
import { ProviderError } from "~/providers/errors";
import { forgetSite } from "~/services/core/index.server";
import type { Deployment } from "~/providers/hosting/types";
import {
  PROVIDERS,
  type ProjectRow,
  loadProject,
  markFailed,
  recordError,
  siteProvider,
  IN_PROGRESS,
} from "./common.server";
import { enqueuePoll, enqueueProvisioning } from "./queue.server";
import { log } from "~/utils/logger.server";
import { emitProjectEvent } from "~/services/events/index.server";

/** The deployment job: triggers (idempotently per trigger key) and starts polling. */
export async function deployProject(
  data: { projectId: string; triggerKey: string },
  providers = PROVIDERS,
) {
  const project = await loadProject(data.projectId);
  if (!project?.siteId || project.permanentErrorAt) return;
  const siteId = project.siteId;
  let deployment: Deployment;
  try {
    deployment = await providers.hosting(siteProvider(project)).triggerDeployment(siteId, {
      triggerKey: data.triggerKey,
      title: data.triggerKey.endsWith(":auto")
        ? "StackShift: automatic deployment"
        : "StackShift: deployment",
    });
    // Site Builds shows the new deployment on the next view, not after the cache's window.
    forgetSite(siteProvider(project), siteId);
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      if (IN_PROGRESS.includes(project.siteCreationStatus)) {
        await markFailed(project.id, error, false);
      }
      log().error(
        { area: "lifecycle", projectId: project.id, reason: error.message },
        "deployment refused",
      );
      return;
    }
    await recordError(project.id, error).catch(() => undefined);
    throw error;
  }
  const started = (tx: Tx) =>
    emitProjectEvent(tx, {
      projectId: project.id,
      type: "deployment.started",
      payload: {
        deploymentId: deployment.id,
        trigger: data.triggerKey.endsWith(":auto") ? "automatic" : "manual",
      },
      dedupeKey: deployment.id,
    });
  if (IN_PROGRESS.includes(project.siteCreationStatus)) {
    // Still coming up (the automatic deployment's case): this deployment now decides it.
    await db().transaction(async (tx) => {
      await tx
        .update(projects)
        .set({ siteCreationStatus: "deployed", updatedAt: sql`now()` })
        .where(and(eq(projects.id, project.id), inArray(projects.siteCreationStatus, IN_PROGRESS)));
      await started(tx);
      await enqueuePoll({ projectId: project.id }, { tx });
    });
  } else {
    await db().transaction(async (tx) => {
      await started(tx);
      await enqueuePoll({ projectId: project.id, deployId: deployment.id }, { tx });
    });
  }
}

/**
 * Marks a failed project for another attempt inside the caller's transaction (the retry's
 * counter and status commit together with its job): with a site, the poll job triggers the
 * retry's deployment (`{id}:retry:{n}`) and follows it; without one, provisioning runs again.
 */
export async function scheduleRetry(tx: Tx, project: ProjectRow, retryCount: number) {
  if (project.siteId) {
    await tx
      .update(projects)
      .set({
        deployRetryCount: retryCount,
        siteCreationStatus: "deployed",
        lastProvisionError: null,
        updatedAt: sql`now()`,
      })
      .where(eq(projects.id, project.id));
    await enqueuePoll({ projectId: project.id }, { now: true, tx });
  } else {
    await tx
      .update(projects)
      .set({
        deployRetryCount: retryCount,
        siteCreationStatus: "pending",
        ...(project.studioCreationStatus === "failed"
          ? { studioCreationStatus: "pending" as const }
          : {}),
        lastProvisionError: null,
        updatedAt: sql`now()`,
      })
      .where(eq(projects.id, project.id));
    await enqueueProvisioning(project.id, tx);
  }
}
