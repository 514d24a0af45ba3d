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
import { vendorSiteName } from "./status";
import type { DomainState, HostingProvider } from "./types";
import { httpProviderError } from "./vendor-errors.server";
import {
  ENV_TARGETS,
  projectEnvs,
  readByOurTargets,
  TITLE_META_KEY,
  toVercelDeployment,
  toVercelSite,
  vercelDomainRecords,
  type ProjectDomainLike,
  type ProjectEnvsBody,
  type VercelDeploymentLike,
} from "./vercel/mapping.server";

const PROVIDER = "vercel";
const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;
const TRIGGER_LOOKBACK = 30;
/** Meta key carrying our trigger key on each deployment we start. */
export const TRIGGER_META_KEY = "stackshiftTriggerKey";
/** Project domains listed per request while removing the others (Vercel's maximum is 100). */
const DOMAINS_PER_PAGE = 100;

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

  /**
   * The names of the project's production domains, first page (a site has one custom domain and
   * its *.vercel.app ones): not those of a branch or a custom environment, nor redirects.
   */
  async function productionDomains(siteId: string): Promise<string[]> {
    const page = await call(() =>
      vercel.projects.getProjectDomains({ idOrName: siteId, limit: DOMAINS_PER_PAGE, ...team }),
    );
    return page.domains
      .filter((d) => !d.gitBranch && !d.customEnvironmentId && !d.redirect)
      .map((d) => d.name);
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
      const project = await requireProject(siteId);
      return toVercelSite(project, await productionDomains(project.id));
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
