/**
 * The jobs behind custom domains: set a domain at its provider, re-check it with backoff until it
 * is verified or DOMAIN_CHECK_WINDOW_MS has passed, remove it, and release domains still
 * unverified after UNVERIFIED_DOMAIN_DAYS.
 */
import { and, asc, eq, isNotNull, lt, sql } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { projects, projectSites } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import type { DomainState } from "~/providers/hosting/types";
import { logEvent } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { UNVERIFIED_DOMAIN_DAYS, type DomainProvider } from "./domains.schema";

export const DOMAIN_APPLY_JOB = "domains.apply";
export const DOMAIN_CHECK_JOB = "domains.check";
export const DOMAIN_REMOVE_JOB = "domains.remove";
export const DOMAIN_RELEASE_JOB = "domains.release-unverified";
/** A pending domain is re-checked until verified or this long after it was set. */
export const DOMAIN_CHECK_WINDOW_MS = 72 * 3600_000;
/** Backoff of the re-checks: 5 s, 10 s, 20 s, ... at most an hour apart. */
const CHECK_FIRST_SECONDS = 5;
const CHECK_MAX_SECONDS = 3600;
export const RETRY = { retryLimit: 5, retryDelay: 5, retryBackoff: true } as const;

export type SiteRow = typeof projectSites.$inferSelect;

/** A site's domain columns once its custom domain is gone (reverted, or released unverified). */
export const NO_DOMAIN = {
  customDomain: null,
  domainStatus: null,
  domainSsl: false,
  domainRecords: [],
  domainSetAt: null,
  domainCheckedAt: null,
  domainVerifiedAt: null,
  domainError: null,
} satisfies Partial<typeof projectSites.$inferInsert>;

type DomainJob = { projectId: string; provider: DomainProvider; domain: string };

function checkDelaySeconds(attempt: number) {
  return Math.min(CHECK_FIRST_SECONDS * 2 ** attempt, CHECK_MAX_SECONDS);
}

export async function scheduleCheck(
  data: DomainJob,
  attempt: number,
  tx?: Tx,
  delaySeconds?: number,
) {
  await sendJob(
    DOMAIN_CHECK_JOB,
    { ...data, attempt },
    { ...RETRY, startAfter: delaySeconds ?? checkDelaySeconds(attempt) },
    tx,
  );
}

/** The row while it still holds this domain (a later change makes an old job a no-op). */
async function currentRow(data: DomainJob) {
  const [row] = await db()
    .select()
    .from(projectSites)
    .where(
      and(
        eq(projectSites.projectId, data.projectId),
        eq(projectSites.provider, data.provider),
        eq(projectSites.customDomain, data.domain),
      ),
    );
  return row?.siteId ? { ...row, siteId: row.siteId } : null;
}

async function saveState(data: DomainJob, state: DomainState) {
  const now = new Date();
  const holdsDomain = and(
    eq(projectSites.projectId, data.projectId),
    eq(projectSites.provider, data.provider),
    eq(projectSites.customDomain, data.domain),
  );
  await db().transaction(async (tx) => {
    // The state before, locked: each transition is told once, whoever checks concurrently.
    const [before] = await tx
      .select({ status: projectSites.domainStatus, ssl: projectSites.domainSsl })
      .from(projectSites)
      .where(holdsDomain)
      .for("update");
    if (!before) return;
    await tx
      .update(projectSites)
      .set({
        domainStatus: state.verified ? "verified" : "pending",
        domainSsl: state.ssl,
        domainRecords: state.records,
        domainCheckedAt: now,
        domainVerifiedAt: state.verified ? now : null,
        domainError: null,
      })
      .where(holdsDomain);
    const payload = { domain: data.domain, provider: data.provider };
    if (state.verified && before.status !== "verified") {
      await emitProjectEvent(tx, { projectId: data.projectId, type: "domain.verified", payload });
    }
    if (state.ssl && !before.ssl) {
      await emitProjectEvent(tx, {
        projectId: data.projectId,
        type: "domain.certificateReady",
        payload,
      });
    }
  });
}

/** Sets a domain the provider could not take when it was saved; then the checks start. */
export async function applyDomain(data: DomainJob) {
  const row = await currentRow(data);
  if (!row) return;
  let state: DomainState;
  try {
    state = await hostingProvider(data.provider).setCustomDomain(row.siteId, data.domain);
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      // Refused now (taken elsewhere since): say so on the card; retrying cannot help.
      await db()
        .update(projectSites)
        .set({
          domainError: "The hosting provider refused this domain",
          domainCheckedAt: new Date(),
        })
        .where(
          and(
            eq(projectSites.projectId, data.projectId),
            eq(projectSites.provider, data.provider),
            eq(projectSites.customDomain, data.domain),
          ),
        );
      return;
    }
    throw error; // pg-boss retries with backoff
  }
  await saveState(data, state);
  if (!state.verified) await scheduleCheck(data, 0);
}

/** One re-check of a pending domain; schedules the next until verified or the window ends. */
export async function checkDomain(data: DomainJob & { attempt?: number }) {
  const row = await currentRow(data);
  if (!row || row.domainStatus === "verified") return;
  const attempt = Number(data.attempt ?? 0);
  let state: DomainState;
  try {
    state = await hostingProvider(data.provider).getDomainStatus(row.siteId, data.domain);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // A vendor's Retry-After is honoured as the next check's time, never a loop of retries.
    if (error.details.retryAfterSeconds !== undefined || error.retryable) {
      const wait = error.details.retryAfterSeconds ?? checkDelaySeconds(attempt);
      if (withinWindow(row)) await scheduleCheck(data, attempt + 1, undefined, wait);
      return;
    }
    throw error;
  }
  await saveState(data, state);
  if (!state.verified && withinWindow(row)) await scheduleCheck(data, attempt + 1);
}

function withinWindow(row: SiteRow) {
  const since = row.domainSetAt?.getTime() ?? Date.now();
  return Date.now() - since < DOMAIN_CHECK_WINDOW_MS;
}

/** Takes a domain off the provider's site, unless the site holds it again by now. */
export async function removeDomain(data: {
  provider: DomainProvider;
  siteId: string;
  domain: string;
}) {
  const [again] = await db()
    .select({ projectId: projectSites.projectId })
    .from(projectSites)
    .where(
      and(
        eq(projectSites.provider, data.provider),
        eq(projectSites.siteId, data.siteId),
        eq(projectSites.customDomain, data.domain),
      ),
    )
    .limit(1);
  if (again) return;
  await hostingProvider(data.provider).removeCustomDomain(data.siteId, data.domain);
}

/**
 * The hourly job: releases custom domains still pending UNVERIFIED_DOMAIN_DAYS after they were
 * set, each in a transaction with its Activity Log entry and the provider's removal job. A row
 * verified or changed meanwhile is left alone. Nobody is mailed: an unverified domain never
 * served the site, so nothing visitors see changes; the log and Domain Settings show it.
 */
export async function releaseUnverifiedDomains(batch = 100): Promise<number> {
  const due = await db()
    .select()
    .from(projectSites)
    .where(
      and(
        isNotNull(projectSites.customDomain),
        eq(projectSites.domainStatus, "pending"),
        lt(projectSites.domainSetAt, sql`now() - make_interval(days => ${UNVERIFIED_DOMAIN_DAYS})`),
      ),
    )
    .orderBy(asc(projectSites.domainSetAt))
    .limit(batch);
  let released = 0;
  for (const row of due) {
    const domain = row.customDomain!;
    const done = await db().transaction(async (tx) => {
      const [cleared] = await tx
        .update(projectSites)
        .set(NO_DOMAIN)
        .where(
          and(
            eq(projectSites.projectId, row.projectId),
            eq(projectSites.provider, row.provider),
            eq(projectSites.customDomain, domain),
            eq(projectSites.domainStatus, "pending"),
          ),
        )
        .returning({ projectId: projectSites.projectId });
      if (!cleared) return false;
      await tx
        .update(projects)
        .set({ siteCustomDomain: null, updatedAt: new Date() })
        .where(and(eq(projects.id, row.projectId), eq(projects.siteCustomDomain, domain)));
      await logEvent(tx, {
        projectId: row.projectId,
        type: "domains.released",
        content: `The custom domain ${domain} was released: it was not verified within ${UNVERIFIED_DOMAIN_DAYS} days`,
        actorId: null,
      });
      await emitProjectEvent(tx, {
        projectId: row.projectId,
        type: "domain.released",
        payload: { domain, provider: row.provider, reason: "unverified" },
      });
      if (row.siteId) {
        await sendJob(
          DOMAIN_REMOVE_JOB,
          { provider: row.provider, siteId: row.siteId, domain },
          RETRY,
          tx,
        );
      }
      return true;
    });
    if (done) released += 1;
  }
  return released;
}

const asDomainJob = (data: Record<string, unknown>): DomainJob => ({
  projectId: String(data.projectId),
  provider: data.provider === "netlify" ? "netlify" : "vercel",
  domain: String(data.domain),
});

export const domainJobs: JobDefinition[] = [
  { name: DOMAIN_APPLY_JOB, handler: (data) => applyDomain(asDomainJob(data)) },
  {
    name: DOMAIN_CHECK_JOB,
    handler: (data) => checkDomain({ ...asDomainJob(data), attempt: Number(data.attempt ?? 0) }),
  },
  {
    name: DOMAIN_RELEASE_JOB,
    schedule: "41 * * * *",
    handler: async () => {
      await releaseUnverifiedDomains();
    },
  },
  {
    name: DOMAIN_REMOVE_JOB,
    handler: (data) =>
      removeDomain({
        provider: data.provider === "netlify" ? "netlify" : "vercel",
        siteId: String(data.siteId),
        domain: String(data.domain),
      }),
  },
];
