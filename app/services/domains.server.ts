/**
 * Custom domains of a project's sites (the dashboard's Domain Settings and its dialog, PUT
 * /api/app/domains). A domain is stored on the site's project_sites row (unique across all sites)
 * and set at the hosting provider; it is pending until the provider sees its DNS records, and a
 * job re-checks it with backoff until it is verified or 72 hours have passed.
 *
 * Order of a change: the provider is asked first (a refusal changes nothing and says so), then
 * the row, the project's siteCustomDomain and the Activity Log entry commit together with the
 * follow-up jobs. A provider that is down does not lose the change: the row is written pending
 * and DOMAIN_APPLY_JOB sets it at the provider when it answers again. A domain still unverified
 * UNVERIFIED_DOMAIN_DAYS after it was set is released by DOMAIN_RELEASE_JOB.
 */
import { and, asc, eq, exists, gt, ilike, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import { db, type Queryable, type Tx } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { members, projects, projectSites, type DomainDnsRecord } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import type { DomainState } from "~/providers/hosting/types";
import type { User } from "./accounts.server";
import { logEvent } from "./activity.server";
import {
  DOMAIN_TAKEN_MESSAGE,
  UNVERIFIED_DOMAIN_DAYS,
  type DomainProvider,
} from "./domains.schema";
import { ConflictError, InvalidError } from "./errors";
import {
  actorOn,
  assertCan,
  authorizeOn,
  can,
  projectRowFor,
  requireProjectAction,
} from "./permissions.server";
import { SCHEMA_VERSION_DOMAINS, upgradeRequired } from "./project-status";
import { primaryProvider } from "./lifecycle/common.server";

export const DOMAIN_APPLY_JOB = "domains.apply";
export const DOMAIN_CHECK_JOB = "domains.check";
export const DOMAIN_REMOVE_JOB = "domains.remove";
export const DOMAIN_RELEASE_JOB = "domains.release-unverified";
/** A pending domain is re-checked until verified or this long after it was set. */
export const DOMAIN_CHECK_WINDOW_MS = 72 * 3600_000;
/** Backoff of the re-checks: 5 s, 10 s, 20 s, ... at most an hour apart. */
const CHECK_FIRST_SECONDS = 5;
const CHECK_MAX_SECONDS = 3600;
const RETRY = { retryLimit: 5, retryDelay: 5, retryBackoff: true } as const;

type SiteRow = typeof projectSites.$inferSelect;
type ProjectRow = typeof projects.$inferSelect;

export type SiteDomain = {
  provider: DomainProvider;
  siteId: string | null;
  url: string | null;
  /** The site the project's siteCustomDomain follows (business: Vercel, enterprise: Netlify). */
  primary: boolean;
  domain: string | null;
  status: "pending" | "verified" | null;
  ssl: boolean;
  records: DomainDnsRecord[];
  checkedAt: string | null;
  verifiedAt: string | null;
  error: string | null;
};

export type DomainSettingsView = {
  canEdit: boolean;
  /** Schema version 3 and later: one domain per site (provider), chosen in the dialog. */
  perSite: boolean;
  sites: SiteDomain[];
};

function toSiteDomain(row: SiteRow | undefined, provider: DomainProvider, primary: boolean) {
  return {
    provider,
    siteId: row?.siteId ?? null,
    url: row?.url ?? null,
    primary,
    domain: row?.customDomain ?? null,
    status: row?.domainStatus ?? null,
    ssl: row?.domainSsl ?? false,
    records: row?.domainRecords ?? [],
    checkedAt: row?.domainCheckedAt?.toISOString() ?? null,
    verifiedAt: row?.domainVerifiedAt?.toISOString() ?? null,
    error: row?.domainError ?? null,
  } satisfies SiteDomain;
}

async function siteRows(tx: Queryable, projectId: string) {
  return tx
    .select()
    .from(projectSites)
    .where(eq(projectSites.projectId, projectId))
    .orderBy(asc(projectSites.provider));
}

/**
 * The sites Domain Settings shows: the primary site before schema version 3; from 3 every site
 * the project has (the primary one listed even before it exists).
 */
function sitesOf(project: ProjectRow, rows: SiteRow[]): SiteDomain[] {
  const primary = primaryProvider(project.siteType);
  const perSite = !upgradeRequired(project.schemaVersion, SCHEMA_VERSION_DOMAINS);
  const providers = perSite
    ? [...new Set<DomainProvider>([primary, ...rows.map((r) => r.provider)])]
    : [primary];
  return providers.map((p) =>
    toSiteDomain(
      rows.find((r) => r.provider === p),
      p,
      p === primary,
    ),
  );
}

/** Domain Settings of the dashboard: what everyone who sees the project sees. */
export async function getDomainSettings(user: User, studioId: string): Promise<DomainSettingsView> {
  const actor = await requireProjectAction(user, studioId, "project.view");
  // The row the authorisation read (shared by the loaders of one view).
  const project = (await projectRowFor(user, studioId))!;
  return {
    canEdit: can(actor, "domain.edit"),
    perSite: !upgradeRequired(project.schemaVersion, SCHEMA_VERSION_DOMAINS),
    sites: sitesOf(project, await siteRows(db(), project.id)),
  };
}

/** The site a change is about: the asked provider (schema 3+) or the primary one. */
function chooseSite(project: ProjectRow, rows: SiteRow[], asked: DomainProvider | undefined) {
  const sites = sitesOf(project, rows);
  const site = asked ? sites.find((s) => s.provider === asked) : sites.find((s) => s.primary);
  if (!site) {
    throw new InvalidError("This project has no site on that provider", {
      provider: ["This project has no site on that provider"],
    });
  }
  if (!site.siteId) {
    throw new ConflictError("The site is not ready yet. Try again once it is created.");
  }
  return site as SiteDomain & { siteId: string };
}

/** A provider's refusal or outage, as the dashboard and the API say it. */
function providerRefusal(error: unknown): never {
  if (!(error instanceof ProviderError)) throw error;
  // The vendor's words stay in the log: they can name accounts and internals.
  console.warn(`[domains] ${error.details.provider} refused: ${error.message}`);
  if (error.details.status === 409) {
    throw new InvalidError(DOMAIN_TAKEN_MESSAGE, { domain: [DOMAIN_TAKEN_MESSAGE] });
  }
  throw new InvalidError("The hosting provider refused this domain", {
    domain: ["The hosting provider refused this domain"],
  });
}

export type DomainChange = { action: "update" | "revert"; domain: string | null; changed: boolean };

/**
 * Sets (`domain` non-empty, normalised by domains.schema.ts) or reverts (empty) the custom domain
 * of the project's site. Admin role, owner or platform admin (logged as support access).
 */
export async function changeDomain(
  user: User,
  input: { studioId: string; provider?: DomainProvider; domain: string },
): Promise<DomainChange> {
  // Checked here without a log entry; the change's transaction checks again and logs support.
  const actor = await actorOn(user, input.studioId);
  assertCan(actor, "domain.edit");
  const project = actor.project!;
  const [row] = await db().select().from(projects).where(eq(projects.id, project.id));
  const site = chooseSite(row, await siteRows(db(), row.id), input.provider);
  if (!input.domain) return revert(user, row, site);
  return update(user, row, site, input.domain);
}

async function update(
  user: User,
  project: ProjectRow,
  site: SiteDomain & { siteId: string },
  domain: string,
): Promise<DomainChange> {
  if (site.domain === domain) return { action: "update", domain, changed: false };
  const [taken] = await db()
    .select({ projectId: projectSites.projectId })
    .from(projectSites)
    .where(eq(projectSites.customDomain, domain))
    .limit(1);
  if (taken) throw new InvalidError(DOMAIN_TAKEN_MESSAGE, { domain: [DOMAIN_TAKEN_MESSAGE] });

  let state: DomainState | null = null;
  let unavailable: string | null = null;
  try {
    state = await hostingProvider(site.provider).setCustomDomain(site.siteId, domain);
  } catch (error) {
    if (!(error instanceof ProviderError) || !error.retryable) providerRefusal(error);
    // Down or rate-limited: keep the change and let the job set it when the provider answers.
    unavailable = "The hosting provider is not answering; the domain is set when it is back.";
    console.warn(`[domains] ${site.provider} unavailable, retrying later: ${error.message}`);
  }

  const now = new Date();
  try {
    await db().transaction(async (tx) => {
      await authorizeOn(user, project, "domain.edit", tx);
      await tx
        .update(projectSites)
        .set({
          customDomain: domain,
          domainStatus: state?.verified ? "verified" : "pending",
          domainSsl: state?.ssl ?? false,
          domainRecords: state?.records ?? [],
          domainSetAt: now,
          domainCheckedAt: state ? now : null,
          domainVerifiedAt: state?.verified ? now : null,
          domainError: unavailable,
        })
        .where(
          and(eq(projectSites.projectId, project.id), eq(projectSites.provider, site.provider)),
        );
      if (site.primary) {
        await tx
          .update(projects)
          .set({ siteCustomDomain: domain, updatedAt: now })
          .where(eq(projects.id, project.id));
      }
      await logEvent(tx, {
        projectId: project.id,
        type: "domains.set",
        content: `${user.name || user.email} set the custom domain to ${domain}`,
        actorId: user.id,
      });
      const data = { projectId: project.id, provider: site.provider, domain };
      if (!state) await sendJob(DOMAIN_APPLY_JOB, data, RETRY, tx);
      else if (!state.verified) await scheduleCheck(data, 0, tx);
      // The site's previous domain leaves the provider too (Vercel keeps several per project).
      if (site.domain) {
        await sendJob(
          DOMAIN_REMOVE_JOB,
          { provider: site.provider, siteId: site.siteId, domain: site.domain },
          RETRY,
          tx,
        );
      }
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another project took it between the check and the write: undo ours at the provider.
    if (state) {
      await sendJob(
        DOMAIN_REMOVE_JOB,
        { provider: site.provider, siteId: site.siteId, domain },
        RETRY,
      );
    }
    throw new InvalidError(DOMAIN_TAKEN_MESSAGE, { domain: [DOMAIN_TAKEN_MESSAGE] });
  }
  return { action: "update", domain, changed: true };
}

/** A site's domain columns once its custom domain is gone (reverted, or released unverified). */
const NO_DOMAIN = {
  customDomain: null,
  domainStatus: null,
  domainSsl: false,
  domainRecords: [],
  domainSetAt: null,
  domainCheckedAt: null,
  domainVerifiedAt: null,
  domainError: null,
} satisfies Partial<typeof projectSites.$inferInsert>;

async function revert(
  user: User,
  project: ProjectRow,
  site: SiteDomain & { siteId: string },
): Promise<DomainChange> {
  const previous = site.domain;
  if (!previous) return { action: "revert", domain: null, changed: false };
  await db().transaction(async (tx) => {
    await authorizeOn(user, project, "domain.edit", tx);
    await tx
      .update(projectSites)
      .set(NO_DOMAIN)
      .where(and(eq(projectSites.projectId, project.id), eq(projectSites.provider, site.provider)));
    if (site.primary) {
      await tx
        .update(projects)
        .set({ siteCustomDomain: null, updatedAt: new Date() })
        .where(eq(projects.id, project.id));
    }
    await logEvent(tx, {
      projectId: project.id,
      type: "domains.reverted",
      content: `${user.name || user.email} reverted the custom domain ${previous}`,
      actorId: user.id,
    });
    await sendJob(
      DOMAIN_REMOVE_JOB,
      { provider: site.provider, siteId: site.siteId, domain: previous },
      RETRY,
      tx,
    );
  });
  return { action: "revert", domain: null, changed: true };
}

// ---------------------------------------------------------------------------------------------
// Jobs

type DomainJob = { projectId: string; provider: DomainProvider; domain: string };

function checkDelaySeconds(attempt: number) {
  return Math.min(CHECK_FIRST_SECONDS * 2 ** attempt, CHECK_MAX_SECONDS);
}

async function scheduleCheck(data: DomainJob, attempt: number, tx?: Tx, delaySeconds?: number) {
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
  await db()
    .update(projectSites)
    .set({
      domainStatus: state.verified ? "verified" : "pending",
      domainSsl: state.ssl,
      domainRecords: state.records,
      domainCheckedAt: now,
      domainVerifiedAt: state.verified ? now : null,
      domainError: null,
    })
    .where(
      and(
        eq(projectSites.projectId, data.projectId),
        eq(projectSites.provider, data.provider),
        eq(projectSites.customDomain, data.domain),
      ),
    );
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

// ---------------------------------------------------------------------------------------------
// /sites/domains

export type DomainListEntry = {
  domain: string;
  studioId: string;
  projectName: string;
  provider: DomainProvider;
  status: "pending" | "verified";
  ssl: boolean;
  checkedAt: string | null;
};

export type DomainListPage = {
  domains: DomainListEntry[];
  query: string;
  nextCursor: string | null;
};

export const DOMAINS_PAGE_SIZE = 20;

/**
 * The user's own projects: owned or an accepted member (platform admins too; other projects they
 * reach as support through 'All projects'). Domains are few, so the query starts from them.
 */
function ownOrMember(user: User): SQL {
  return or(
    eq(projects.ownerId, user.id),
    exists(
      db()
        .select({ one: members.id })
        .from(members)
        .where(
          and(
            eq(members.projectId, projects.id),
            eq(members.userId, user.id),
            eq(members.status, "accepted"),
          ),
        ),
    ),
  )!;
}

/**
 * Every custom domain of the projects `user` may view, by domain name; searchable by domain or
 * project name; keyset pages (the cursor is the last domain shown, domains being unique).
 */
export async function listDomains(
  user: User,
  input: { query?: string; cursor?: string | null } = {},
): Promise<DomainListPage> {
  // Control characters (a NUL byte from a URL) are never part of a domain or a project name.
  const query = (input.query ?? "")
    // eslint-disable-next-line no-control-regex -- removing them is the point
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .toLowerCase()
    .slice(0, 200);
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const cursor = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await db()
    .select({
      domain: projectSites.customDomain,
      studioId: projects.studioId,
      projectName: projects.name,
      provider: projectSites.provider,
      status: projectSites.domainStatus,
      ssl: projectSites.domainSsl,
      checkedAt: projectSites.domainCheckedAt,
    })
    .from(projectSites)
    .innerJoin(projects, eq(projects.id, projectSites.projectId))
    .where(
      and(
        isNotNull(projectSites.customDomain),
        ownOrMember(user),
        query
          ? or(ilike(projectSites.customDomain, pattern), ilike(projects.name, pattern))
          : undefined,
        cursor ? gt(projectSites.customDomain, cursor) : undefined,
      ),
    )
    .orderBy(asc(projectSites.customDomain))
    .limit(DOMAINS_PAGE_SIZE + 1);
  const page = rows.slice(0, DOMAINS_PAGE_SIZE).map((r) => ({
    domain: r.domain ?? "",
    studioId: r.studioId,
    projectName: r.projectName,
    provider: r.provider,
    status: r.status ?? "pending",
    ssl: r.ssl,
    checkedAt: r.checkedAt?.toISOString() ?? null,
  }));
  const last = page.at(-1);
  return {
    domains: page,
    query,
    nextCursor: rows.length > DOMAINS_PAGE_SIZE && last ? encodeCursor(last.domain) : null,
  };
}

const encodeCursor = (domain: string) => Buffer.from(domain).toString("base64url");
function decodeCursor(cursor: string) {
  const value = Buffer.from(cursor, "base64url").toString("utf8");
  return /^[a-z0-9.-]{1,253}$/.test(value) ? value : null;
}
