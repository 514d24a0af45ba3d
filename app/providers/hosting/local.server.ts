/**
 * The built-in hosting provider (PROVIDERS=local). It behaves like the vendor it is named after,
 * with its state in local_sites / local_deploys:
 * - createSite is idempotent on (provider, idempotencyKey); the site answers at
 *   `${APP_URL}/local/sites/{siteId}` (app/routes/local.sites.$siteId.tsx).
 * - triggerDeployment is idempotent on triggerKey and starts in the vendor's first state
 *   (Netlify "enqueued", Vercel "QUEUED"); the pg-boss job LOCAL_ADVANCE_JOB then moves it, one
 *   step every LOCAL_DEPLOY_STEP_SECONDS, to building and to ready or error.
 * - A deploy fails with probability LOCAL_DEPLOY_FAILURE_RATE, and ALWAYS when the site name
 *   contains "fail-deploy" (case-insensitive): a deterministic hook for demos and tests.
 * - A site whose name contains "slow-deploy" moves five times slower (each step waits
 *   5 x LOCAL_DEPLOY_STEP_SECONDS), so every state can be watched however slow the machine is.
 * - A ready deploy becomes the site's published deploy (the newest ready one wins).
 *   restoreDeployment publishes an earlier ready deploy again (a rollback); a newer deploy that
 *   becomes ready afterwards is published as usual, as on Netlify without a publishing lock.
 * - setCustomDomain stores the domain and when it was set (custom_domain, domain_set_at); the
 *   domain counts as verified, and served over HTTPS, LOCAL_DOMAIN_VERIFY_SECONDS later. Its
 *   records point at `{siteId}.local.stackshift.test` (apex: A 203.0.113.10, a documentation
 *   address). Two deterministic hooks on the domain's first label, for demos and tests:
 *   `unverified.` (unverified.example.com) never verifies, the pending state; `fail-domain.`
 *   is refused by setCustomDomain (422 "The provider refused the domain").
 * - setEnvironmentVariable keeps the site's variables in local_sites.env, one statement each
 *   way; nothing builds here, so nothing reads them but the tests.
 * - deleteSite removes the site row, and its deploys with it (local_deploys cascades); an
 *   unknown site is already deleted. An advance job still scheduled for one of its deploys
 *   then finds nothing to move and ends.
 */
import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
// The local provider is the vendor here: its state lives in our database (decision 009).
import { db } from "~/db/client.server";
import { localDeploys, localSites } from "~/db/schema";
import { queue } from "~/jobs/queue.server";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import { deploymentStatus, FIRST_STATE } from "./status";
import type {
  Deployment,
  DeploymentPage,
  DeploymentPageRequest,
  DomainRecord,
  DomainState,
  HostedSite,
  HostingProvider,
  HostingProviderName,
} from "./types";

export const LOCAL_ADVANCE_JOB = "local-hosting.advance";
/** Site names containing this always fail to deploy (see the module comment). */
export const FAIL_DEPLOY_HOOK = "fail-deploy";
/** Site names containing this deploy five times slower (see the module comment). */
export const SLOW_DEPLOY_HOOK = "slow-deploy";
const SLOW_DEPLOY_FACTOR = 5;
/** A custom domain with this first label never verifies (see the module comment). */
export const UNVERIFIED_DOMAIN_HOOK = "unverified";
/** A custom domain with this first label is refused (see the module comment). */
export const FAIL_DOMAIN_HOOK = "fail-domain";
/** The apex A record's address: TEST-NET-3 (RFC 5737), which nothing answers on. */
export const LOCAL_APEX_IP = "203.0.113.10";

const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

type SiteRow = typeof localSites.$inferSelect;
type DeployRow = typeof localDeploys.$inferSelect;

/** Ids shaped like the vendor's: Netlify uses UUIDs / 24 hex, Vercel prj_ / dpl_ + base62. */
function vercelId(prefix: string) {
  let id = prefix;
  for (let i = 0; i < 28; i += 1) id += BASE62[randomInt(BASE62.length)];
  return id;
}
const newSiteId = (provider: HostingProviderName) =>
  provider === "netlify" ? randomUUID() : vercelId("prj_");
const newDeployId = (provider: HostingProviderName) =>
  provider === "netlify" ? randomBytes(12).toString("hex") : vercelId("dpl_");

/** Our ids are [A-Za-z0-9_-]; anything else (a NUL byte from a URL, say) cannot match one. */
const isId = (value: string) => /^[A-Za-z0-9_-]{1,100}$/.test(value);

export function localSiteUrl(siteId: string) {
  return `${env().APP_URL}/local/sites/${encodeURIComponent(siteId)}`;
}

function notFound(provider: HostingProviderName, what: string) {
  return new ProviderError(`${what} not found`, {
    provider: `local-${provider}`,
    status: 404,
    code: "not_found",
  });
}

function isInProgress(provider: HostingProviderName, state: string) {
  const status = deploymentStatus(provider, state);
  return status === "queued" || status === "building";
}

// ---------------------------------------------------------------------------------------------
// Progress: one job per step, each step a compare-and-set on the deploy's state.

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

async function scheduleStep(step: Step, siteName: string) {
  await queue().sendAfter(
    LOCAL_ADVANCE_JOB,
    step,
    { id: stepJobId(step), retryLimit: 5, retryDelay: 2, retryBackoff: true },
    stepSeconds(siteName),
  );
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

// ---------------------------------------------------------------------------------------------
// Mapping rows to the vendor-neutral shapes.

async function publishedAt(site: SiteRow) {
  if (!site.publishedDeployId) return null;
  const [deploy] = await db()
    .select({ updatedAt: localDeploys.updatedAt })
    .from(localDeploys)
    .where(eq(localDeploys.id, site.publishedDeployId));
  return deploy ? deploy.updatedAt.toISOString() : null;
}

function toDeployment(site: SiteRow, row: DeployRow): Deployment {
  const provider = site.provider;
  const siteUrl = localSiteUrl(site.id);
  // A stable per-deploy page, like Netlify's {deploy}--{site}.netlify.app permalinks.
  const permalink = `${siteUrl}?deploy=${encodeURIComponent(row.id)}`;
  const repo = site.repoUrl?.replace(/^https?:\/\/github\.com\//, "") ?? undefined;
  return {
    id: row.id,
    state: row.state,
    status: deploymentStatus(provider, row.state),
    branch: row.branch,
    commitRef: row.commitRef,
    // Netlify has a build per deploy; derived so it is stable without a column of its own.
    buildId:
      provider === "netlify"
        ? createHash("sha256").update(`build:${row.id}`).digest("hex").slice(0, 24)
        : null,
    title: row.title,
    errorMessage: row.errorMessage,
    context: row.context,
    target: provider === "vercel" ? "production" : null,
    permalink,
    deploySslUrl: permalink,
    url: siteUrl,
    screenshotUrl: null,
    framework: "next",
    meta:
      provider === "vercel"
        ? {
            githubCommitMessage: row.title ?? undefined,
            githubRepo: repo,
            githubCommitRef: row.branch,
          }
        : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function toHostedSite(site: SiteRow): Promise<HostedSite> {
  const url = localSiteUrl(site.id);
  let productionReadyState: string | null = null;
  if (site.provider === "vercel") {
    const [latest] = await db()
      .select({ state: localDeploys.state })
      .from(localDeploys)
      .where(eq(localDeploys.siteId, site.id))
      .orderBy(desc(localDeploys.seq))
      .limit(1);
    productionReadyState = latest?.state ?? null;
  }
  return {
    id: site.id,
    name: site.name,
    url,
    // Netlify reports "current" for a live site; Vercel projects have no state of their own, so
    // the production readiness stands in ("new" before the first deployment).
    state: site.provider === "netlify" ? "current" : (productionReadyState ?? "new"),
    // The stand-in is served by the dashboard itself; plain http on localhost counts as its SSL.
    ssl: true,
    customDomain: site.customDomain,
    domainAliases: site.domainAliases,
    repoUrl: site.repoUrl,
    publishedDeploy: site.publishedDeployId
      ? { id: site.publishedDeployId, publishedAt: await publishedAt(site) }
      : null,
    productionReadyState,
    productionAlias:
      site.provider === "vercel" && site.publishedDeployId ? [url.replace(/^https?:\/\//, "")] : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Custom domains: the records a vendor would ask for, verified after a delay.

const firstLabel = (domain: string) => domain.split(".")[0];

/** Like Netlify's: an apex domain (two labels) gets an A record and a `www` CNAME. */
export function localDomainRecords(siteId: string, domain: string): DomainRecord[] {
  const target = `${siteId}.local.stackshift.test`;
  const labels = domain.split(".");
  if (labels.length === 2) {
    return [
      { type: "A", name: "@", value: LOCAL_APEX_IP },
      { type: "CNAME", name: "www", value: target },
    ];
  }
  return [{ type: "CNAME", name: labels.slice(0, -2).join("."), value: target }];
}

function localDomainState(site: SiteRow, domain: string): DomainState {
  const setAt = site.domainSetAt?.getTime() ?? Date.now();
  const verified =
    firstLabel(domain) !== UNVERIFIED_DOMAIN_HOOK &&
    Date.now() - setAt >= env().LOCAL_DOMAIN_VERIFY_SECONDS * 1000;
  // The local vendor "issues" the certificate the moment it sees the DNS.
  return { domain, verified, ssl: verified, records: localDomainRecords(site.id, domain) };
}

// ---------------------------------------------------------------------------------------------
// Pagination: Netlify numbered pages; Vercel opaque cursors built from seq.

function perPageOf(request: DeploymentPageRequest) {
  const n = Math.floor(request.perPage ?? DEFAULT_PER_PAGE);
  return Number.isFinite(n) ? Math.min(Math.max(n, 1), MAX_PER_PAGE) : DEFAULT_PER_PAGE;
}

function parseCursor(provider: HostingProviderName, cursor: string) {
  const match = /^c(\d{1,9})$/.exec(cursor);
  if (!match) {
    throw new ProviderError("Invalid pagination cursor", {
      provider: `local-${provider}`,
      status: 400,
      code: "bad_request",
    });
  }
  return Number(match[1]);
}
const cursorOf = (seq: number) => `c${seq}`;

async function numberedPage(
  site: SiteRow,
  request: DeploymentPageRequest,
): Promise<DeploymentPage> {
  const perPage = perPageOf(request);
  const page = Math.max(1, Math.floor(Number.isFinite(request.page) ? Number(request.page) : 1));
  const rows = await db()
    .select()
    .from(localDeploys)
    .where(eq(localDeploys.siteId, site.id))
    .orderBy(desc(localDeploys.seq))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return {
    results: rows.map((row) => toDeployment(site, row)),
    // Netlify's client cannot see the Link header, so "has next" is "this page came back full".
    pagination: {
      prev: page > 1 ? String(page - 1) : null,
      next: rows.length === perPage ? String(page + 1) : null,
    },
  };
}

async function cursorPage(site: SiteRow, request: DeploymentPageRequest): Promise<DeploymentPage> {
  const limit = perPageOf(request);
  const ofSite = eq(localDeploys.siteId, site.id);
  let rows: DeployRow[];
  if (request.prev) {
    // Newer than the cursor: the `limit` closest to it, then back to newest-first.
    const after = parseCursor(site.provider, request.prev);
    rows = (
      await db()
        .select()
        .from(localDeploys)
        .where(and(ofSite, gt(localDeploys.seq, after)))
        .orderBy(asc(localDeploys.seq))
        .limit(limit)
    ).reverse();
  } else {
    const before = request.next ? parseCursor(site.provider, request.next) : null;
    rows = await db()
      .select()
      .from(localDeploys)
      .where(before === null ? ofSite : and(ofSite, lt(localDeploys.seq, before)))
      .orderBy(desc(localDeploys.seq))
      .limit(limit);
  }
  const first = rows[0];
  const last = rows.at(-1);
  const exists = async (condition: ReturnType<typeof lt>) => {
    const [row] = await db()
      .select({ one: sql<number>`1` })
      .from(localDeploys)
      .where(and(ofSite, condition))
      .limit(1);
    return Boolean(row);
  };
  return {
    results: rows.map((row) => toDeployment(site, row)),
    pagination: {
      next: last && (await exists(lt(localDeploys.seq, last.seq))) ? cursorOf(last.seq) : null,
      prev: first && (await exists(gt(localDeploys.seq, first.seq))) ? cursorOf(first.seq) : null,
    },
  };
}

// ---------------------------------------------------------------------------------------------

export function createLocalHosting(name: HostingProviderName): HostingProvider {
  async function findSite(siteId: string) {
    if (!isId(siteId)) return undefined;
    const [row] = await db()
      .select()
      .from(localSites)
      .where(and(eq(localSites.id, siteId), eq(localSites.provider, name)));
    return row;
  }

  async function requireSite(siteId: string) {
    const site = await findSite(siteId);
    if (!site) throw notFound(name, `Site ${siteId}`);
    return site;
  }

  return {
    name,

    async createSite({ name: siteName, idempotencyKey, repoUrl }) {
      const template = env().SITE_TEMPLATE_REPO;
      await db()
        .insert(localSites)
        .values({
          id: newSiteId(name),
          provider: name,
          name: siteName,
          idempotencyKey,
          // Each local site has a repository of its own unless a template is configured (the
          // End To End Tests card reads its runs; a `missing-` name has none).
          repoUrl: repoUrl ?? `https://github.com/${template ?? `stackshift-sites/${siteName}`}`,
        })
        .onConflictDoNothing({ target: [localSites.provider, localSites.idempotencyKey] });
      const [row] = await db()
        .select()
        .from(localSites)
        .where(and(eq(localSites.provider, name), eq(localSites.idempotencyKey, idempotencyKey)));
      return toHostedSite(row);
    },

    async getSite(siteId) {
      return toHostedSite(await requireSite(siteId));
    },

    async listDeployments(siteId, page) {
      const site = await requireSite(siteId);
      return name === "netlify" ? numberedPage(site, page) : cursorPage(site, page);
    },

    async triggerDeployment(siteId, { triggerKey, title, branch }) {
      const site = await requireSite(siteId);
      await db()
        .insert(localDeploys)
        .values({
          id: newDeployId(name),
          siteId,
          state: FIRST_STATE[name],
          branch: branch ?? "main",
          commitRef: randomBytes(20).toString("hex"),
          title: title ?? "Production deploy",
          context: "production",
          triggerKey,
        })
        .onConflictDoNothing({ target: [localDeploys.siteId, localDeploys.triggerKey] });
      const [row] = await db()
        .select()
        .from(localDeploys)
        .where(and(eq(localDeploys.siteId, siteId), eq(localDeploys.triggerKey, triggerKey)));
      // Also on a re-run: if the first attempt died before scheduling, the chain starts now.
      if (isInProgress(name, row.state)) {
        await scheduleStep({ deployId: row.id, from: row.state }, site.name);
      }
      return toDeployment(site, row);
    },

    async getDeployment(siteId, deployId) {
      const site = await requireSite(siteId);
      const [row] = isId(deployId)
        ? await db()
            .select()
            .from(localDeploys)
            .where(and(eq(localDeploys.siteId, siteId), eq(localDeploys.id, deployId)))
        : [];
      if (!row) throw notFound(name, `Deploy ${deployId}`);
      return toDeployment(site, row);
    },

    async restoreDeployment(siteId, deployId) {
      if (!isId(siteId)) throw notFound(name, `Site ${siteId}`);
      if (!isId(deployId)) throw notFound(name, `Deploy ${deployId}`);
      return db().transaction(async (tx) => {
        // Locks the site like the advance job does, so a deploy finishing meanwhile publishes
        // before or after the restore, never half-way through it.
        const [site] = await tx
          .select()
          .from(localSites)
          .where(and(eq(localSites.id, siteId), eq(localSites.provider, name)))
          .for("update");
        if (!site) throw notFound(name, `Site ${siteId}`);
        const [row] = await tx
          .select()
          .from(localDeploys)
          .where(and(eq(localDeploys.siteId, siteId), eq(localDeploys.id, deployId)));
        if (!row) throw notFound(name, `Deploy ${deployId}`);
        if (deploymentStatus(name, row.state) !== "ready") {
          // Nothing to serve: a conflict with the deploy's state, not worth retrying as is.
          throw new ProviderError(`Deploy ${deployId} is not ready (${row.state})`, {
            provider: `local-${name}`,
            status: 409,
            code: "conflict",
          });
        }
        // publishedAt is the deploy's updatedAt here, so the republish moves it to now.
        const now = new Date();
        const [restored] = await tx
          .update(localDeploys)
          .set({ updatedAt: now })
          .where(eq(localDeploys.id, deployId))
          .returning();
        const [published] = await tx
          .update(localSites)
          .set({ publishedDeployId: deployId, updatedAt: now })
          .where(eq(localSites.id, siteId))
          .returning();
        return toDeployment(published, restored);
      });
    },

    async setCustomDomain(siteId, domain) {
      await requireSite(siteId);
      if (firstLabel(domain) === FAIL_DOMAIN_HOOK) {
        throw new ProviderError("The provider refused the domain", {
          provider: `local-${name}`,
          status: 422,
          code: "unprocessable",
        });
      }
      // The same domain again keeps its time, so a re-run does not restart the verification.
      // The app's clock, not the database's: getDomainStatus compares with Date.now().
      const now = new Date();
      const [row] = await db()
        .update(localSites)
        .set({
          customDomain: domain,
          domainSetAt: sql`case when ${localSites.customDomain} = ${domain}
            then coalesce(${localSites.domainSetAt}, ${now.toISOString()}::timestamptz)
            else ${now.toISOString()}::timestamptz end`,
          updatedAt: now,
        })
        .where(eq(localSites.id, siteId))
        .returning();
      return localDomainState(row, domain);
    },

    async removeCustomDomain(siteId, domain) {
      if (!isId(siteId)) return;
      // Only our domain: a site moved on to another one keeps it; a missing site has none.
      await db()
        .update(localSites)
        .set({ customDomain: null, domainSetAt: null, updatedAt: new Date() })
        .where(
          and(
            eq(localSites.id, siteId),
            eq(localSites.provider, name),
            eq(localSites.customDomain, domain),
          ),
        );
    },

    async getDomainStatus(siteId, domain) {
      const site = await requireSite(siteId);
      if (site.customDomain !== domain) throw notFound(name, `Domain ${domain} of site ${siteId}`);
      return localDomainState(site, domain);
    },

    async setEnvironmentVariable(siteId, key, value) {
      // Like the vendors: removing from a site that does not exist is done; setting is a 404.
      if (!isId(siteId)) {
        if (value === null) return;
        throw notFound(name, `Site ${siteId}`);
      }
      // In one statement, so two add-ons switched at once do not overwrite each other's key.
      const env =
        value === null
          ? sql`${localSites.env} - ${key}::text`
          : sql`${localSites.env} || jsonb_build_object(${key}::text, ${value}::text)`;
      const [row] = await db()
        .update(localSites)
        .set({ env, updatedAt: new Date() })
        .where(and(eq(localSites.id, siteId), eq(localSites.provider, name)))
        .returning({ id: localSites.id });
      if (!row && value !== null) throw notFound(name, `Site ${siteId}`);
    },

    async deleteSite(siteId) {
      // Not one of our ids: no such site, so nothing to delete.
      if (!isId(siteId)) return;
      // Only this vendor's site; deleting nothing (already gone) is fine.
      await db()
        .delete(localSites)
        .where(and(eq(localSites.id, siteId), eq(localSites.provider, name)));
    },
  };
}

/**
 * What the stand-in's public website shows: the site's name and the deploy it serves (a ready
 * `deployId` of this site when asked for one, else the published deploy), or null when there is
 * no such site. Used by app/routes/local.sites.$siteId.tsx.
 */
export async function localSitePage(
  siteId: string,
  deployId?: string | null,
): Promise<{ name: string; deploy: { id: string; publishedAt: string } | null } | null> {
  if (!isId(siteId) || (deployId != null && !isId(deployId))) return null;
  const [site] = await db().select().from(localSites).where(eq(localSites.id, siteId));
  if (!site) return null;
  const wanted = deployId ?? site.publishedDeployId;
  if (!wanted) return { name: site.name, deploy: null };
  const [deploy] = await db()
    .select()
    .from(localDeploys)
    .where(and(eq(localDeploys.siteId, site.id), eq(localDeploys.id, wanted)));
  const live = deploy && deploymentStatus(site.provider, deploy.state) === "ready";
  return {
    name: site.name,
    deploy: live ? { id: deploy.id, publishedAt: deploy.updatedAt.toISOString() } : null,
  };
}
