/**
 * Vercel, the second hosting provider, through its SDK `@vercel/sdk` 1 (which validates every
 * response with zod), over Vercel's REST API (its reference is on vercel.com).
 * - createSite looks the project up by name (GET /v9/projects/{name}) before POST /v11/projects.
 * - triggerDeployment puts the trigger key in the deployment's `meta` and looks for it among
 *   the project's recent deployments first, so a retried job does not deploy twice.
 * - Deployments are listed newest first with cursors: `next` is Vercel's pagination.next (sent
 *   back as `until`), `prev` its pagination.prev (sent back as `since`).
 * - A custom domain is a project domain (POST /v10/projects/{id}/domains); the project's other
 *   custom domains are removed, so it has one, as on Netlify. Vercel's `verified` is about
 *   ownership (a TXT record when another account used the domain); whether the DNS points at
 *   Vercel is the domain config's `misconfigured` (GET /v6/domains/{domain}/config), so a domain
 *   counts as verified when both say so. Vercel issues the certificate itself from then on.
 * - An environment variable is set with POST /v10/projects/{id}/env?upsert=true (encrypted, for
 *   production and preview), which is idempotent on Vercel's side. Removing one lists the
 *   project's variables (GET /v10/projects/{id}/env) and deletes each of that key by id
 *   (DELETE /v9/projects/{id}/env/{envId}); a 404 there means it is gone already.
 * - deleteSite is DELETE /v9/projects/{idOrName} (with the team, like every call); its 404
 *   counts as done, since a retried cleanup may find the project removed by an earlier attempt.
 * - restoreDeployment is Vercel's promote (POST /v10/projects/{id}/promote/{deploymentId}),
 *   which points production at the deployment without a rebuild. It answers 201/202 with no
 *   body, so the deployment is read back with GET /v13/deployments/{id}.
 */
import type { Vercel } from "@vercel/sdk";
import { HTTPClientError } from "@vercel/sdk/models/httpclienterrors.js";
import { ResponseValidationError } from "@vercel/sdk/models/responsevalidationerror.js";
import { SDKValidationError } from "@vercel/sdk/models/sdkvalidationerror.js";
import { VercelError } from "@vercel/sdk/models/vercelerror.js";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import { vendorSiteName, vercelStatus } from "./status";
import type { Deployment, DomainRecord, DomainState, HostedSite, HostingProvider } from "./types";
import { httpProviderError } from "./vendor-errors.server";

const PROVIDER = "vercel";
const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;
const TRIGGER_LOOKBACK = 30;
/** Meta key carrying our trigger key on each deployment we start. */
export const TRIGGER_META_KEY = "stackshiftTriggerKey";
const TITLE_META_KEY = "stackshiftTitle";
/** Vercel's documented records, used when the domain config recommends none. */
export const VERCEL_APEX_IP = "76.76.21.21";
export const VERCEL_CNAME = "cname.vercel-dns.com";
/** Project domains listed per request while removing the others (Vercel's maximum is 100). */
const DOMAINS_PER_PAGE = 100;
/** The environments an environment variable is set for; `development` is `vercel dev`'s. */
const ENV_TARGETS = ["production", "preview"] as const;

/** The fields we read, common to the list item and the (three) full deployment shapes. */
type VercelDeploymentLike = {
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

export function toVercelSite(project: VercelProject): HostedSite {
  const production = project.targets?.production ?? null;
  const published = [production, ...(project.latestDeployments ?? [])].find(
    (d) => d && d.readyState === "READY" && (d.target ?? "production") === "production",
  );
  const domains = (project.alias ?? [])
    .filter((a) => a.target === "PRODUCTION")
    .map((a) => a.domain);
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
type ProjectDomainLike = {
  name: string;
  apexName: string;
  verified: boolean;
  verification?: { type: string; domain: string; value: string }[];
};

type DomainConfigLike = Awaited<ReturnType<Vercel["domains"]["getDomainConfig"]>>;

type ProjectEnvsBody = Awaited<ReturnType<Vercel["projects"]["filterProjectEnvs"]>>;

/**
 * The variables of a list answer. The SDK allows three shapes (a single variable, or `envs`
 * with either pagination or a hidden-count); the list is not paged by request, so `envs` is all.
 */
function projectEnvs(body: ProjectEnvsBody): { id?: string; key: string; target?: unknown }[] {
  return "envs" in body ? body.envs : [body];
}

/** Whether a variable applies to production or previews (`target` is a list or one name). */
function readByOurTargets(target: unknown) {
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

export function createVercelHosting(options: {
  token: string;
  teamId?: string;
  baseUrl?: string;
}): HostingProvider {
  // The SDK's entry module builds thousands of zod schemas as it loads (measured: 9 s of CPU,
  // the most of a server start), so it loads on the first request, not when the server starts:
  // a server restarted after a crash serves sooner, and one that never calls Vercel never pays.
  let vercel!: Vercel;
  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= import("@vercel/sdk").then((sdk) => {
      vercel = new sdk.Vercel({
        bearerToken: options.token,
        ...(options.baseUrl ? { serverURL: options.baseUrl } : {}),
      });
    }));
  const team = options.teamId ? { teamId: options.teamId } : {};

  function toError(error: unknown): ProviderError {
    if (error instanceof ProviderError) return error;
    if (error instanceof ResponseValidationError || error instanceof SDKValidationError) {
      // The answer did not match the SDK's schema: a vendor-side change, worth retrying later.
      return new ProviderError(`Vercel sent an unexpected response: ${error.message}`, {
        provider: PROVIDER,
        status: 502,
        code: "invalid_response",
      });
    }
    if (error instanceof VercelError) {
      let body: { error?: { code?: unknown; message?: unknown } } = {};
      try {
        body = JSON.parse(error.body);
      } catch {
        // A non-JSON error page: the status says enough.
      }
      const message = typeof body.error?.message === "string" ? body.error.message : null;
      return httpProviderError(PROVIDER, error.statusCode, {
        message: message ? `Vercel: ${message}` : null,
        code: typeof body.error?.code === "string" ? body.error.code : null,
        retryAfter: error.headers.get("retry-after"),
        rateLimitReset: error.headers.get("x-ratelimit-reset"),
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ProviderError(
      error instanceof HTTPClientError
        ? `Vercel unreachable: ${message}`
        : `Vercel request failed: ${message}`,
      { provider: PROVIDER },
    );
  }

  async function call<T>(request: () => Promise<T>): Promise<T> {
    await load();
    try {
      return await request();
    } catch (error) {
      throw toError(error);
    }
  }

  async function findProject(idOrName: string) {
    try {
      return await call(() => vercel.projects.getProject({ idOrName, ...team }));
    } catch (error) {
      if (error instanceof ProviderError && error.details.status === 404) return null;
      throw error;
    }
  }

  /** The project's domain `domain`, or null when the project does not have it. */
  async function findProjectDomain(siteId: string, domain: string) {
    try {
      return await call(() =>
        vercel.projects.getProjectDomain({ idOrName: siteId, domain, ...team }),
      );
    } catch (error) {
      if (error instanceof ProviderError && error.details.status === 404) return null;
      throw error;
    }
  }

  /** Removes the domain from the project; a domain it does not have is already removed. */
  async function removeProjectDomain(siteId: string, domain: string) {
    try {
      await call(() => vercel.projects.removeProjectDomain({ idOrName: siteId, domain, ...team }));
    } catch (error) {
      if (!(error instanceof ProviderError && error.details.status === 404)) throw error;
    }
  }

  /**
   * Removes the project's custom production domains other than `keep` (the site has one custom
   * domain, as on Netlify). Its *.vercel.app domains and the domains of a branch or custom
   * environment are not the site's custom domain and stay.
   */
  async function removeOtherDomains(siteId: string, keep: string) {
    const others: string[] = [];
    let until: number | undefined;
    do {
      const page = await call(() =>
        vercel.projects.getProjectDomains({
          idOrName: siteId,
          limit: DOMAINS_PER_PAGE,
          ...(until !== undefined ? { until } : {}),
          ...team,
        }),
      );
      for (const d of page.domains) {
        if (d.name === keep || d.name.endsWith(".vercel.app")) continue;
        if (d.gitBranch || d.customEnvironmentId) continue;
        others.push(d.name);
      }
      until = page.pagination.next ?? undefined;
    } while (until !== undefined);
    for (const name of others) await removeProjectDomain(siteId, name);
  }

  async function domainState(siteId: string, domain: ProjectDomainLike): Promise<DomainState> {
    const config = await call(() =>
      vercel.domains.getDomainConfig({ domain: domain.name, projectIdOrName: siteId, ...team }),
    );
    const verified = domain.verified && !config.misconfigured;
    // Vercel issues the certificate itself once the domain is verified and points at it.
    return {
      domain: domain.name,
      verified,
      ssl: verified,
      records: vercelDomainRecords(domain, config),
    };
  }

  async function requireProject(siteId: string) {
    const project = await findProject(siteId);
    if (!project) {
      throw new ProviderError(`Vercel: project ${siteId} not found`, {
        provider: PROVIDER,
        status: 404,
        code: "not_found",
      });
    }
    return project;
  }

  async function getDeployment(siteId: string, deployId: string) {
    const deployment = (await call(() =>
      vercel.deployments.getDeployment({ ...team, idOrUrl: deployId }),
    )) as VercelDeploymentLike & { projectId?: string };
    // Deployment ids are global; one of another project is "not found" for this site.
    if (deployment.projectId && deployment.projectId !== siteId) {
      throw new ProviderError(`Vercel: deployment ${deployId} not found`, {
        provider: PROVIDER,
        status: 404,
        code: "not_found",
      });
    }
    return toVercelDeployment(deployment);
  }

  return {
    name: PROVIDER,

    async createSite({ name, idempotencyKey, repoUrl }) {
      const projectName = vendorSiteName(name, idempotencyKey);
      const existing = await findProject(projectName);
      if (existing) return toVercelSite(existing);
      const repo = repoUrl?.replace(/^https?:\/\/github\.com\//, "") ?? env().SITE_TEMPLATE_REPO;
      try {
        await call(() =>
          vercel.projects.createProject({
            ...team,
            requestBody: {
              name: projectName,
              framework: "nextjs",
              ...(repo ? { gitRepository: { type: "github", repo } } : {}),
            },
          }),
        );
      } catch (error) {
        // 409: a parallel run (or a lost answer) created it already; the lookup below finds it.
        if (!(error instanceof ProviderError && error.details.status === 409)) throw error;
      }
      // Read back through GET: the create answer lacks targets and link details.
      return toVercelSite(await requireProject(projectName));
    },

    async getSite(siteId) {
      return toVercelSite(await requireProject(siteId));
    },

    async listDeployments(siteId, request) {
      const limit = Math.min(
        Math.max(Math.floor(request.perPage ?? DEFAULT_PER_PAGE), 1),
        MAX_PER_PAGE,
      );
      const cursor = (value: string | undefined) => {
        if (value === undefined) return undefined;
        if (!/^\d{1,15}$/.test(value)) {
          throw new ProviderError("Invalid pagination cursor", {
            provider: PROVIDER,
            status: 400,
            code: "bad_request",
          });
        }
        return Number(value);
      };
      const until = cursor(request.next);
      const since = until === undefined ? cursor(request.prev) : undefined;
      const body = await call(() =>
        vercel.deployments.getDeployments({
          ...team,
          projectId: siteId,
          limit,
          ...(until !== undefined ? { until } : {}),
          ...(since !== undefined ? { since } : {}),
        }),
      );
      return {
        results: body.deployments.map(toVercelDeployment),
        pagination: {
          next: body.pagination.next === null ? null : String(body.pagination.next),
          prev: body.pagination.prev === null ? null : String(body.pagination.prev),
        },
      };
    },

    async triggerDeployment(siteId, { triggerKey, title, branch }) {
      const recent = await call(() =>
        vercel.deployments.getDeployments({ ...team, projectId: siteId, limit: TRIGGER_LOOKBACK }),
      );
      const earlier = recent.deployments.find((d) => d.meta?.[TRIGGER_META_KEY] === triggerKey);
      if (earlier) return toVercelDeployment(earlier);

      const project = await requireProject(siteId);
      const link = project.link;
      const ref = branch ?? (link && "productionBranch" in link ? link.productionBranch : "main");
      const gitSource =
        link?.type === "github" && link.repoId
          ? { type: "github" as const, repoId: link.repoId, ref }
          : link?.type === "github" && link.repo
            ? { type: "github" as const, org: link.org, repo: link.repo, ref }
            : undefined;
      const created = await call(() =>
        vercel.deployments.createDeployment({
          ...team,
          requestBody: {
            name: project.name,
            project: project.id,
            target: "production",
            meta: {
              [TRIGGER_META_KEY]: triggerKey,
              ...(title ? { [TITLE_META_KEY]: title } : {}),
            },
            ...(gitSource ? { gitSource } : {}),
          },
        }),
      );
      return toVercelDeployment(created as VercelDeploymentLike);
    },

    getDeployment,

    async restoreDeployment(siteId, deployId) {
      // Vercel decides what may be promoted (unknown: 404, not ready: 409); its answer passes
      // through. Promoting the current production deployment again is harmless for a retry.
      await call(() =>
        vercel.projects.requestPromote({ projectId: siteId, deploymentId: deployId, ...team }),
      );
      // The promote answer has no body (202: still switching); the deployment is read back.
      return getDeployment(siteId, deployId);
    },

    async setCustomDomain(siteId, domain) {
      let added: ProjectDomainLike;
      try {
        added = await call(() =>
          vercel.projects.addProjectDomain({
            idOrName: siteId,
            ...team,
            requestBody: { name: domain },
          }),
        );
      } catch (error) {
        const inUse =
          error instanceof ProviderError &&
          (error.details.status === 409 || error.details.code === "domain_already_in_use");
        if (!inUse) throw error;
        // Already in use: by this project (a re-run, or a lost answer) it is ours, so read it back.
        const own = await findProjectDomain(siteId, domain);
        if (!own) {
          throw new ProviderError(`Vercel: ${domain} is already in use by another Vercel project`, {
            provider: PROVIDER,
            status: 409,
            code: error.details.code ?? "domain_already_in_use",
          });
        }
        added = own;
      }
      await removeOtherDomains(siteId, domain);
      return domainState(siteId, added);
    },

    async removeCustomDomain(siteId, domain) {
      await removeProjectDomain(siteId, domain);
    },

    async getDomainStatus(siteId, domain) {
      let current: ProjectDomainLike | null = null;
      try {
        current = await call(() =>
          vercel.projects.verifyProjectDomain({ idOrName: siteId, domain, ...team }),
        );
      } catch (error) {
        // 400: Vercel could not verify it yet (the TXT record is missing): not an error.
        if (!(error instanceof ProviderError && error.details.status === 400)) throw error;
      }
      if (!current?.verified) {
        // The verify answer lacks the TXT challenge; the project domain carries it.
        current = await findProjectDomain(siteId, domain);
        if (!current) {
          throw new ProviderError(`Vercel: ${domain} is not a domain of project ${siteId}`, {
            provider: PROVIDER,
            status: 404,
            code: "not_found",
          });
        }
      }
      return domainState(siteId, current);
    },

    async setEnvironmentVariable(siteId, key, value) {
      if (value !== null) {
        const answer = await call(() =>
          vercel.projects.createProjectEnv({
            idOrName: siteId,
            upsert: "true",
            ...team,
            requestBody: { key, value, type: "encrypted", target: [...ENV_TARGETS] },
          }),
        );
        // A 201 can still refuse the variable (say, a clash with one of another type): a
        // conflict that trying again does not resolve.
        const refused = answer.failed[0]?.error;
        if (refused) {
          throw httpProviderError(PROVIDER, 409, {
            message: `Vercel: ${refused.message}`,
            code: refused.code,
          });
        }
        return;
      }
      let listed: ProjectEnvsBody;
      try {
        listed = await call(() => vercel.projects.filterProjectEnvs({ idOrName: siteId, ...team }));
      } catch (error) {
        // A project that no longer exists reads no variables: removing one from it is done.
        if (error instanceof ProviderError && error.details.status === 404) return;
        throw error;
      }
      // Every variable of that key the builds read: one per target set, or branch-specific ones.
      const ours = projectEnvs(listed).filter((e) => e.key === key && readByOurTargets(e.target));
      for (const { id } of ours) {
        if (!id) continue;
        try {
          await call(() => vercel.projects.removeProjectEnv({ idOrName: siteId, id, ...team }));
        } catch (error) {
          // Removed meanwhile (a parallel run): already gone.
          if (!(error instanceof ProviderError && error.details.status === 404)) throw error;
        }
      }
    },

    async deleteSite(siteId) {
      try {
        await call(() => vercel.projects.deleteProject({ idOrName: siteId, ...team }));
      } catch (error) {
        // Already gone (an earlier attempt, or someone in Vercel's UI): what we want.
        if (!(error instanceof ProviderError && error.details.status === 404)) throw error;
      }
    },
  };
}
