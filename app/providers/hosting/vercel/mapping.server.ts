/**
 * The Vercel adapter's reading of Vercel's answers (vercel.server.ts makes the calls): a
 * deployment, a project as a site, the DNS records of a project domain, and which environment
 * variables are ours.
 */
import type { Vercel } from "@vercel/sdk";
import { vercelStatus } from "../status";
import type { Deployment, DomainRecord, HostedSite } from "../types";

export const TITLE_META_KEY = "stackshiftTitle";
/** Vercel's documented records, used when the domain config recommends none. */
export const VERCEL_APEX_IP = "76.76.21.21";
export const VERCEL_CNAME = "cname.vercel-dns.com";
/** The environments an environment variable is set for; `development` is `vercel dev`'s. */
export const ENV_TARGETS = ["production", "preview"] as const;

/** The fields we read, common to the list item and the (three) full deployment shapes. */
export type VercelDeploymentLike = {
  id?: string;
  uid?: string;
  readyState?: string;
  url?: string;
  meta?: { [k: string]: string };
  target?: string | null;
  inspectorUrl?: string | null;
  createdAt?: number;
  buildingAt?: number;
  ready?: number;
  errorMessage?: string | null;
  projectSettings?: { framework?: string | null };
};

type VercelProject = Awaited<ReturnType<Vercel["projects"]["getProject"]>>;

const iso = (ms: number | undefined) =>
  ms ? new Date(ms).toISOString() : new Date(0).toISOString();

function frameworkOf(value: string | null | undefined): Deployment["framework"] {
  if (value === "nextjs") return "next";
  if (value === "gatsby") return "gatsby";
  return null;
}

export function toVercelDeployment(d: VercelDeploymentLike): Deployment {
  const meta = d.meta ?? {};
  const url = d.url ? `https://${d.url}` : null;
  const readyState = d.readyState ?? "QUEUED";
  const picked = {
    ...(meta.githubCommitMessage ? { githubCommitMessage: meta.githubCommitMessage } : {}),
    ...(meta.githubRepo ? { githubRepo: meta.githubRepo } : {}),
    ...(meta.githubCommitRef ? { githubCommitRef: meta.githubCommitRef } : {}),
    ...(meta.branchAlias ? { branchAlias: meta.branchAlias } : {}),
    ...(meta.deployHookName ? { deployHookName: meta.deployHookName } : {}),
  };
  return {
    id: d.uid ?? d.id ?? "",
    state: readyState,
    status: vercelStatus(readyState),
    branch: meta.githubCommitRef ?? null,
    commitRef: meta.githubCommitSha ?? null,
    buildId: null,
    title: meta[TITLE_META_KEY] ?? meta.githubCommitMessage ?? null,
    errorMessage: d.errorMessage ?? null,
    context: d.target === "production" ? "production" : "preview",
    target: d.target ?? null,
    permalink: d.inspectorUrl ?? url,
    deploySslUrl: url,
    url,
    screenshotUrl: null,
    framework: frameworkOf(d.projectSettings?.framework),
    meta: Object.keys(picked).length > 0 ? picked : null,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.ready ?? d.buildingAt ?? d.createdAt),
  };
}

/**
 * The site of a Vercel project. `projectDomains`: the names of the project's own production
 * domains (GET /v9/projects/{id}/domains), where a custom domain is listed as soon as it is
 * added; the project's `alias` lists it only once a production deployment serves it.
 */
export function toVercelSite(project: VercelProject, projectDomains: string[] = []): HostedSite {
  const production = project.targets?.production ?? null;
  const published = [production, ...(project.latestDeployments ?? [])].find(
    (d) => d && d.readyState === "READY" && (d.target ?? "production") === "production",
  );
  const aliases = (project.alias ?? [])
    .filter((a) => a.target === "PRODUCTION")
    .map((a) => a.domain);
  const domains = [...new Set([...projectDomains, ...aliases])];
  const customDomain = domains.find((d) => !d.endsWith(".vercel.app")) ?? null;
  const alias = production?.alias ?? [];
  const link = project.link;
  const repoUrl =
    link && link.type === "github" && link.repo
      ? `https://github.com/${link.org}/${link.repo}`
      : null;
  return {
    id: project.id,
    name: project.name,
    url: `https://${customDomain ?? alias[0] ?? `${project.name}.vercel.app`}`,
    // Projects have no state of their own; production readiness stands in, "new" before any.
    state: production?.readyState ?? "new",
    ssl: true,
    customDomain,
    domainAliases: domains.filter((d) => d !== customDomain),
    repoUrl,
    publishedDeploy: published
      ? {
          id: published.id,
          publishedAt: published.readyAt ? new Date(published.readyAt).toISOString() : null,
        }
      : null,
    productionReadyState: production?.readyState ?? null,
    productionAlias: alias,
  };
}

/** The fields we read from a project domain (add, get and verify answers share them). */
export type ProjectDomainLike = {
  name: string;
  apexName: string;
  verified: boolean;
  verification?: { type: string; domain: string; value: string }[];
};

type DomainConfigLike = Awaited<ReturnType<Vercel["domains"]["getDomainConfig"]>>;

export type ProjectEnvsBody = Awaited<ReturnType<Vercel["projects"]["filterProjectEnvs"]>>;

/**
 * The variables of a list answer. The SDK allows three shapes (a single variable, or `envs`
 * with either pagination or a hidden-count); the list is not paged by request, so `envs` is all.
 */
export function projectEnvs(
  body: ProjectEnvsBody,
): { id?: string; key: string; target?: unknown }[] {
  return "envs" in body ? body.envs : [body];
}

/** Whether a variable applies to production or previews (`target` is a list or one name). */
export function readByOurTargets(target: unknown) {
  const targets = Array.isArray(target) ? target : [target];
  return targets.some((t) => (ENV_TARGETS as readonly unknown[]).includes(t));
}

/** A record name as the registrar's zone of `apexName` wants it: "@" for the apex itself. */
function recordName(fqdn: string, apexName: string) {
  if (fqdn === apexName) return "@";
  return fqdn.endsWith(`.${apexName}`) ? fqdn.slice(0, -(apexName.length + 1)) : fqdn;
}

function bestRanked<T extends { rank: number }>(values: T[]) {
  return [...values].sort((a, b) => a.rank - b.rank)[0];
}

/**
 * The records to create: the A record of an apex domain or the CNAME of a subdomain (the
 * config's first-ranked recommendation, else Vercel's documented values), then any ownership
 * TXT record Vercel still asks for.
 */
export function vercelDomainRecords(
  domain: ProjectDomainLike,
  config: Pick<DomainConfigLike, "recommendedIPv4" | "recommendedCNAME"> | null,
): DomainRecord[] {
  const records: DomainRecord[] = [];
  if (domain.name === domain.apexName) {
    const ip = bestRanked(config?.recommendedIPv4 ?? [])?.value[0];
    records.push({ type: "A", name: "@", value: ip || VERCEL_APEX_IP });
  } else {
    // Recommendations are fully qualified ("....vercel-dns.com."); registrars want no dot.
    const cname = bestRanked(config?.recommendedCNAME ?? [])?.value.replace(/\.$/, "");
    records.push({
      type: "CNAME",
      name: recordName(domain.name, domain.apexName),
      value: cname || VERCEL_CNAME,
    });
  }
  if (!domain.verified) {
    for (const v of domain.verification ?? []) {
      records.push({ type: v.type, name: recordName(v.domain, domain.apexName), value: v.value });
    }
  }
  return records;
}
