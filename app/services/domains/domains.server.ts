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
 *
 * Its jobs are in domain-jobs.server.ts, the cross-project list in domain-list.server.ts.
 */
import { and, asc, eq } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { projects, projectSites, type DomainDnsRecord } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import type { DomainState } from "~/providers/hosting/types";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { DOMAIN_TAKEN_MESSAGE, type DomainProvider } from "./domains.schema";
import { ConflictError, InvalidError } from "~/services/core";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";
import { SCHEMA_VERSION_DOMAINS, upgradeRequired } from "~/services/projects";
import { primaryProvider } from "~/services/lifecycle/index.server";
import {
  DOMAIN_APPLY_JOB,
  DOMAIN_REMOVE_JOB,
  NO_DOMAIN,
  RETRY,
  type SiteRow,
  scheduleCheck,
} from "./domain-jobs.server";
import { log } from "~/utils/logger.server";

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
  const { actor, project } = await projectForAction(user, studioId, "project.view");
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
  log().warn(
    { area: "domains", provider: error.details.provider, reason: error.message },
    "provider refused a domain change",
  );
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
  const { project: row } = await projectForAction(user, input.studioId, "domain.edit", {
    mode: "check",
  });
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
    log().warn(
      { area: "domains", provider: site.provider, reason: error.message },
      "provider unavailable, retrying later",
    );
  }

  const now = new Date();
  try {
    await withProjectAction(user, project.id, "domain.edit", async ({ tx }) => {
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
      // Verified (and its certificate issued) at once: a domain already proved at the provider.
      if (state?.verified) {
        const payload = { domain, provider: site.provider };
        await emitProjectEvent(tx, { projectId: project.id, type: "domain.verified", payload });
        if (state.ssl) {
          await emitProjectEvent(tx, {
            projectId: project.id,
            type: "domain.certificateReady",
            payload,
          });
        }
      }
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

async function revert(
  user: User,
  project: ProjectRow,
  site: SiteDomain & { siteId: string },
): Promise<DomainChange> {
  const previous = site.domain;
  if (!previous) return { action: "revert", domain: null, changed: false };
  await withProjectAction(user, project.id, "domain.edit", async ({ tx }) => {
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
    await emitProjectEvent(tx, {
      projectId: project.id,
      type: "domain.released",
      payload: { domain: previous, provider: site.provider, reason: "reverted" },
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
