/** Local rows in the vendor-neutral shapes, and deployment pages as each vendor pages them (Netlify numbered pages, Vercel opaque cursors built from seq). */
import { createHash } from "node:crypto";
import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { localDeploys } from "~/db/schema";
import { ProviderError } from "../../errors";
import { deploymentStatus } from "../status";
import type {
  Deployment,
  DeploymentPage,
  DeploymentPageRequest,
  HostedSite,
  HostingProviderName,
} from "../types";
import {
  DEFAULT_PER_PAGE,
  type DeployRow,
  MAX_PER_PAGE,
  type SiteRow,
  localSiteUrl,
} from "./shared.server";

export async function publishedAt(site: SiteRow) {
  if (!site.publishedDeployId) return null;
  const [deploy] = await db()
    .select({ updatedAt: localDeploys.updatedAt })
    .from(localDeploys)
    .where(eq(localDeploys.id, site.publishedDeployId));
  return deploy ? deploy.updatedAt.toISOString() : null;
}

export function toDeployment(site: SiteRow, row: DeployRow): Deployment {
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

export async function toHostedSite(site: SiteRow): Promise<HostedSite> {
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

export async function numberedPage(
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

export async function cursorPage(
  site: SiteRow,
  request: DeploymentPageRequest,
): Promise<DeploymentPage> {
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
