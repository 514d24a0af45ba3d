/**
 * Vercel, the second hosting provider, through its SDK `@vercel/sdk` 1 (which validates every
 * response with zod), over Vercel's REST API (its reference is on vercel.com).
 * - createSite looks the project up by name (GET /v9/projects/{name}) before POST /v11/projects.
 * - triggerDeployment puts the trigger key in the deployment's `meta` and looks for it among
 *   the project's recent deployments first, so a retried job does not deploy twice.
 * - Deployments are listed newest first with cursors: `next` is Vercel's pagination.next (sent
 *   back as `until`), `prev` its pagination.prev (sent back as `since`).
 */
import { Vercel } from "@vercel/sdk";
import { HTTPClientError } from "@vercel/sdk/models/httpclienterrors.js";
import { ResponseValidationError } from "@vercel/sdk/models/responsevalidationerror.js";
import { SDKValidationError } from "@vercel/sdk/models/sdkvalidationerror.js";
import { VercelError } from "@vercel/sdk/models/vercelerror.js";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import { vendorSiteName, vercelStatus } from "./status";
import type { Deployment, HostedSite, HostingProvider } from "./types";
import { httpProviderError } from "./vendor-errors.server";

const PROVIDER = "vercel";
const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;
const TRIGGER_LOOKBACK = 30;
/** Meta key carrying our trigger key on each deployment we start. */
export const TRIGGER_META_KEY = "stackshiftTriggerKey";
const TITLE_META_KEY = "stackshiftTitle";

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

export function createVercelHosting(options: {
  token: string;
  teamId?: string;
  baseUrl?: string;
}): HostingProvider {
  const vercel = new Vercel({
    bearerToken: options.token,
    ...(options.baseUrl ? { serverURL: options.baseUrl } : {}),
  });
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

    async getDeployment(siteId, deployId) {
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
    },
  };
}
