/**
 * The project lifecycle behind the jobs in app/jobs/lifecycle.server.ts: provisioning (content
 * studio, then a site on the primary hosting provider, then the first deployment), polling the
 * deployment to success or failure, automatic deployment, and the sweep that resumes work a
 * crashed instance left behind.
 *
 * Every step is idempotent, so a job re-run after a crash at any point finishes the work without
 * duplicates: the vendors' create calls carry idempotency keys, deployments carry trigger keys,
 * and each recorded transition is a conditional UPDATE from the state before it.
 *
 * Statuses:
 *   studioCreationStatus  pending -> created (studio exists) -> success (dataset, CORS, invite)
 *   siteCreationStatus    pending -> created (site exists) -> deployed (deployment triggered)
 *
 * This module holds what every stage shares (names, providers, row helpers); each stage has its
 * own file beside it: queue, provision, poll, deploy, sweep.
 */
import { and, eq, ne, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects } from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import type { ContentStudioProvider } from "~/providers/content-studio/types";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import type { Deployment, HostingProvider, HostingProviderName } from "~/providers/hosting/types";
import { env } from "~/utils/env.server";
import { log } from "~/utils/logger.server";
import { deploymentErrorPage, emitProjectEvent } from "~/services/events/index.server";

export const PROVISION_JOB = "project.provision";
export const POLL_JOB = "project.poll";
export const DEPLOY_JOB = "project.deploy";
export const SWEEP_JOB = "project.sweep";

/** The sweep runs on a one-minute cron and, between ticks, re-enqueues itself this often. */
export const SWEEP_EVERY_SECONDS = 10;
/**
 * A project whose provisioning or polling has not written to its row for this long has lost its
 * job (the instance running it died): the sweep resumes it. Running jobs heartbeat well inside it.
 */
export const STALL_SECONDS = 30;
export const HEARTBEAT_MS = 5_000;

/** The providers the lifecycle talks to; tests pass wrappers around the real local ones. */
export type LifecycleProviders = {
  studio: () => ContentStudioProvider;
  hosting: (name: HostingProviderName) => HostingProvider;
};
export const PROVIDERS: LifecycleProviders = {
  studio: contentStudioProvider,
  hosting: hostingProvider,
};

export type ProjectRow = typeof projects.$inferSelect;
export type CreationStatus = ProjectRow["siteCreationStatus"];

export const RETRY = { retryLimit: 5, retryDelay: 5, retryBackoff: true } as const;

/** Business sites are primary on the second provider (Vercel), enterprise on the first. */
export function primaryProvider(siteType: ProjectRow["siteType"]): HostingProviderName {
  return siteType === "enterprise" ? "netlify" : "vercel";
}

/** Where the project's site lives: recorded once created, otherwise where it will be created. */
export function siteProvider(
  project: Pick<ProjectRow, "siteId" | "isSiteOnVercel" | "siteType">,
): HostingProviderName {
  if (project.siteId) return project.isSiteOnVercel ? "vercel" : "netlify";
  return primaryProvider(project.siteType);
}

/** The vendor-side site name: a slug of the project name plus its studioId (unique, stable). */
export function siteName(project: Pick<ProjectRow, "name" | "studioId">): string {
  const slug = project.name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug ? `${slug}-${project.studioId}` : `site-${project.studioId}`;
}

/**
 * The deployment a project in 'deployed' is waiting for: the latest retry's, else the first one.
 * (Automatic and manual deployments are newer still and are found as the latest deployment.)
 */
export function expectedTriggerKey(project: Pick<ProjectRow, "id" | "deployRetryCount">) {
  return project.deployRetryCount > 0
    ? `${project.id}:retry:${project.deployRetryCount}`
    : `${project.id}:initial`;
}

export const TERMINAL = new Set<Deployment["status"]>(["ready", "error", "canceled"]);

export function pollSeconds() {
  return env().PROVIDERS === "local" ? 2 : 10;
}

export async function loadProject(projectId: string): Promise<ProjectRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(projectId)) return undefined;
  const [row] = await db().select().from(projects).where(eq(projects.id, projectId));
  return row;
}

export async function reload(project: ProjectRow): Promise<ProjectRow> {
  const row = await loadProject(project.id);
  if (!row) throw new Error(`Project ${project.id} disappeared during provisioning`);
  return row;
}

export async function touch(projectId: string) {
  await db()
    .update(projects)
    .set({ updatedAt: sql`now()` })
    .where(eq(projects.id, projectId));
}

/** Keeps the row's updated_at fresh while a long step runs, so the sweep does not resume it. */
export function heartbeat(projectId: string) {
  const timer = setInterval(() => {
    touch(projectId).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

export function errorText(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 1000);
}

export async function recordError(projectId: string, error: unknown) {
  await db()
    .update(projects)
    .set({ lastProvisionError: errorText(error), updatedAt: sql`now()` })
    .where(eq(projects.id, projectId));
}

/** A permanent provider error: the project is 'failed' until someone retries it. */
export async function markFailed(projectId: string, error: unknown, studioToo: boolean) {
  await db().transaction(async (tx) => {
    const [row] = await tx
      .update(projects)
      .set({
        siteCreationStatus: "failed",
        ...(studioToo ? { studioCreationStatus: "failed" as const } : {}),
        lastProvisionError: errorText(error),
        updatedAt: sql`now()`,
      })
      .where(and(eq(projects.id, projectId), ne(projects.siteCreationStatus, "success")))
      .returning({ studioId: projects.studioId, retries: projects.deployRetryCount });
    if (!row) return;
    // Once per attempt (the retry count): a job re-run after a crash repeats nothing.
    await emitProjectEvent(tx, {
      projectId,
      type: "deployment.failed",
      payload: {
        deploymentId: null,
        permanent: false,
        errorPageUrl: deploymentErrorPage(row.studioId, false),
      },
      dedupeKey: `attempt:${row.retries}`,
    });
  });
}

/**
 * Runs a provider step: a retryable error is recorded and rethrown (pg-boss retries the job with
 * backoff); a permanent one marks the project failed and stops provisioning (returns false).
 */
export async function step(
  project: ProjectRow,
  failStudio: boolean,
  run: () => Promise<void>,
): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      // The vendor's words stay here and in last_provision_error; members see a generic message.
      log().error(
        { area: "lifecycle", projectId: project.id, reason: error.message },
        "permanent provider error",
      );
      await markFailed(project.id, error, failStudio);
      return false;
    }
    await recordError(project.id, error).catch(() => undefined);
    throw error;
  }
}

export const IN_PROGRESS: CreationStatus[] = ["pending", "created", "deployed"];
