/**
 * A deleted project's hosted sites and content studio, still to be deleted at their providers.
 * The project's deletion writes one `external_deletions` row per site and studio in its own
 * transaction (recordExternalDeletions), beside the cleanup job it sends. A row goes only when
 * its provider confirms the deletion (a 404 counts: the thing is gone); every failed attempt
 * records the error and the time of the next one, with backoff.
 *
 * Two jobs make the attempts: the project's cleanup job (project-deletion.server.ts, at once and
 * retried by pg-boss ten times) and DELETION_RETRY_JOB, a pg-boss schedule every ten minutes
 * (one process of the cluster fires it) that tries the rows that are due. So a studio whose
 * deletion failed past the cleanup job's retries, or that a vendor refused (a token without the
 * right), is tried again until it goes, and stays listed meanwhile (pendingDeletions, on
 * /metrics and in docs/operations.md). Decision 025, amendment of 2026-11-27.
 */
import { and, asc, count, eq, inArray, lte, min, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { externalDeletions } from "~/db/schema";
import type { JobDefinition } from "~/jobs/types";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import type { HostingProviderName } from "~/providers/hosting/types";
import { log } from "~/utils/logger.server";
import { reportPendingDeletions } from "~/utils/metrics.server";

export const DELETION_RETRY_JOB = "deletions.retry";
/** Every ten minutes; each row waits its own backoff in between. */
export const DELETION_RETRY_SCHEDULE = "*/10 * * * *";

/** `studio`: the configured content studio provider; else the site's hosting provider. */
export type DeletionTarget = "studio" | HostingProviderName;

/** The wait after the first failure, doubled after each further one, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 10 * 60_000;
const MAX_BACKOFF_MS = 12 * 3_600_000;
/** A claimed row is not claimed again meanwhile (a run that died gives it back after this). */
const CLAIM_MS = 15 * 60_000;
/** Rows one run of the retry job tries. */
const BATCH = 50;

export function backoffMs(attempts: number) {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * In the project deletion's transaction: a row per site and studio to delete at the providers.
 * A row already there (the same resource) is left as it is.
 */
export async function recordExternalDeletions(
  tx: Queryable,
  input: {
    projectName: string;
    studio: string | null;
    sites: { provider: HostingProviderName; siteId: string }[];
  },
) {
  const rows = [
    ...input.sites.map((s) => ({ target: s.provider, resourceId: s.siteId })),
    ...(input.studio ? [{ target: "studio" as const, resourceId: input.studio }] : []),
  ].map((r) => ({ ...r, projectName: input.projectName }));
  if (rows.length === 0) return;
  await tx.insert(externalDeletions).values(rows).onConflictDoNothing();
}

async function deleteAtProvider(target: DeletionTarget, resourceId: string) {
  if (target === "studio") await contentStudioProvider().deleteStudio(resourceId);
  else await hostingProvider(target).deleteSite(resourceId);
}

/**
 * One attempt at one resource. Done: its row goes. Refused or unreachable: the row (made here
 * if a cleanup job of an older version sent none) records the error, the attempt and when to
 * try next, and the ProviderError is returned for the caller to decide whether to retry sooner.
 */
export async function attemptDeletion(
  item: { target: DeletionTarget; resourceId: string; projectName: string },
  now = new Date(),
): Promise<"deleted" | ProviderError> {
  const where = and(
    eq(externalDeletions.target, item.target),
    eq(externalDeletions.resourceId, item.resourceId),
  );
  try {
    await deleteAtProvider(item.target, item.resourceId);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // One statement: a new row, or one more attempt on the row, with the backoff its attempts
    // call for (on conflict, `attempts` is the count before this one).
    const [row] = await db()
      .insert(externalDeletions)
      .values({
        target: item.target,
        resourceId: item.resourceId,
        projectName: item.projectName,
        attempts: 1,
        lastError: error.message.slice(0, 500),
        nextAttemptAt: new Date(now.getTime() + backoffMs(1)),
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [externalDeletions.target, externalDeletions.resourceId],
        set: {
          attempts: sql`${externalDeletions.attempts} + 1`,
          lastError: error.message.slice(0, 500),
          nextAttemptAt: sql`${now.toISOString()}::timestamptz + least(${MAX_BACKOFF_MS}::float8, ${FIRST_BACKOFF_MS}::float8 * power(2, ${externalDeletions.attempts})) * interval '1 millisecond'`,
          updatedAt: now,
        },
      })
      .returning({ attempts: externalDeletions.attempts });
    log().warn(
      {
        area: "deletions",
        target: item.target,
        resourceId: item.resourceId,
        name: item.projectName,
        attempts: row.attempts,
        reason: error.message,
      },
      "deleting a deleted project's resource failed; tried again later",
    );
    return error;
  }
  await db().delete(externalDeletions).where(where);
  return "deleted";
}

export type RetryOutcome = { attempted: number; deleted: number; failed: number };

/**
 * DELETION_RETRY_JOB: the rows due at `now`, oldest due first, each tried once. Rows are claimed
 * first (their next attempt moved CLAIM_MS on, rows another run holds skipped), so two runs never
 * try the same row at once.
 */
export async function retryExternalDeletions({
  now = new Date(),
  limit = BATCH,
}: { now?: Date; limit?: number } = {}): Promise<RetryOutcome> {
  const claimed = await db().transaction(async (tx) => {
    const due = await tx
      .select()
      .from(externalDeletions)
      .where(lte(externalDeletions.nextAttemptAt, now))
      .orderBy(asc(externalDeletions.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    await tx
      .update(externalDeletions)
      .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MS) })
      .where(
        inArray(
          externalDeletions.id,
          due.map((row) => row.id),
        ),
      );
    return due;
  });
  const outcome: RetryOutcome = { attempted: claimed.length, deleted: 0, failed: 0 };
  for (const row of claimed) {
    const result = await attemptDeletion(row, now);
    if (result === "deleted") {
      outcome.deleted += 1;
      log().info(
        {
          area: "deletions",
          target: row.target,
          resourceId: row.resourceId,
          name: row.projectName,
          attempts: row.attempts + 1,
        },
        "a deleted project's resource deleted on a later try",
      );
    } else outcome.failed += 1;
  }
  return outcome;
}

export type PendingDeletions = {
  target: DeletionTarget;
  pending: number;
  /** Seconds since the oldest pending row was written (the project was deleted). */
  oldestSeconds: number;
}[];

/** What is still to delete, by target: for /metrics and the operators' query. */
export async function pendingDeletions(now = new Date()): Promise<PendingDeletions> {
  const rows = await db()
    .select({
      target: externalDeletions.target,
      pending: count(),
      oldest: min(externalDeletions.createdAt),
    })
    .from(externalDeletions)
    .groupBy(externalDeletions.target);
  return rows.map((r) => ({
    target: r.target,
    pending: r.pending,
    oldestSeconds: r.oldest
      ? Math.max(0, Math.round((now.getTime() - new Date(r.oldest).getTime()) / 1000))
      : 0,
  }));
}

// Read at scrape time (stackshift_external_deletions_pending and _oldest_seconds).
reportPendingDeletions(() => pendingDeletions());

export const externalDeletionJobs: JobDefinition[] = [
  {
    name: DELETION_RETRY_JOB,
    schedule: DELETION_RETRY_SCHEDULE,
    handler: async () => {
      const outcome = await retryExternalDeletions();
      if (outcome.attempted > 0) {
        log().info({ area: "deletions", ...outcome }, "pending provider deletions tried");
      }
    },
  },
];
