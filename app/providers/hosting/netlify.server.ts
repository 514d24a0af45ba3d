/**
 * Netlify, the first hosting provider, through its SDK `@netlify/api` 14 (node 20 line).
 * API reference: https://open-api.netlify.com/ (the same document as @netlify/open-api's
 * swagger.json, in node_modules).
 * - createSite looks the site up by its name first, so a re-run returns the same site.
 * - triggerDeployment titles the build with the trigger key and looks for that title among the
 *   recent deploys first, so a retried job does not deploy twice.
 * - Deploys are listed by page number; the SDK hides the Link header, so "has next" means the
 *   page came back full.
 * - A custom domain is the site's `custom_domain` (PATCH /sites/{id}), with `www.` as its alias
 *   for an apex domain; POST /sites/{id}/ssl then asks for the certificate, and its 422 ("No
 *   custom domain configured", "bad dns") means the DNS does not point at Netlify yet.
 * - Environment variables are site-level variables of the env API (/accounts/{account}/env
 *   ?site_id=, as Netlify's CLI does it), valued for production, deploy previews and branch
 *   deploys. Not the site's `build_settings.env`: the swagger's getSite/updateSite say variables
 *   moved from there to this API.
 * - deleteSite is DELETE /sites/{id}; its 404 counts as done, since a retried cleanup may find
 *   the site removed by the attempt whose answer was lost.
 * - restoreDeployment is POST /sites/{id}/deploys/{deploy_id}/restore, which publishes the
 *   deploy again without a build and answers it; Netlify's refusals pass through as they are.
 */
import http from "node:http";
import https from "node:https";
import { NetlifyAPI } from "@netlify/api";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import { netlifyStatus, triggerMarker, vendorSiteName } from "./status";
import type { Deployment, DomainRecord, DomainState, HostedSite, HostingProvider } from "./types";
import { httpProviderError } from "./vendor-errors.server";

const PROVIDER = "netlify";
const DEFAULT_BASE_URL = "https://api.netlify.com/api/v1";
const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;
/** How far back a retried trigger looks for its deploy (Netlify allows ~3 deploys/min/site). */
const TRIGGER_LOOKBACK = 30;
/**
 * The deploy contexts an environment variable is set for: production and the two kinds of
 * preview (pull requests, other branches). Not `all`, which also reaches `netlify dev`.
 */
export const NETLIFY_ENV_CONTEXTS = ["production", "deploy-preview", "branch-deploy"] as const;
/** Every scope, which the CLI gives a new variable too; `builds` is the one that matters here. */
const NETLIFY_ENV_SCOPES = ["builds", "functions", "runtime", "post-processing"] as const;
/** Netlify's load balancer, the A record of an apex domain (Netlify's DNS docs). */
export const NETLIFY_APEX_IP = "75.2.60.5";

type NetlifySite = Awaited<ReturnType<NetlifyAPI["getSite"]>>;
type NetlifyDeploy = Awaited<ReturnType<NetlifyAPI["getSiteDeploy"]>>;
type NetlifyEnvVar = Awaited<ReturnType<NetlifyAPI["getEnvVar"]>>;

/**
 * The SDK retries 429s itself (sleeping until X-RateLimit-Reset, up to 5 times) but its errors
 * carry no headers. This agent remembers the rate-limit headers of the last 429 it saw, so the
 * ProviderError thrown once the SDK gives up still tells the job when to try again.
 */
function rateLimitAwareAgent(scheme: string) {
  const agent = scheme === "http" ? new http.Agent() : new https.Agent();
  const last429: { rateLimitReset: string | null; retryAfter: string | null } = {
    rateLimitReset: null,
    retryAfter: null,
  };
  // addRequest is how ClientRequest hands itself to an agent (stable, though untyped).
  const target = agent as unknown as {
    addRequest: (req: http.ClientRequest, options: unknown) => void;
  };
  const addRequest = target.addRequest.bind(agent);
  target.addRequest = (req, options) => {
    req.once("response", (res: http.IncomingMessage) => {
      if (res.statusCode !== 429) return;
      const header = (name: string) => {
        const value = res.headers[name];
        return (Array.isArray(value) ? value[0] : value) ?? null;
      };
      last429.rateLimitReset = header("x-ratelimit-reset");
      last429.retryAfter = header("retry-after");
    });
    addRequest(req, options);
  };
  return { agent, last429 };
}

/** `title` carries the trigger marker for idempotency; the dashboard shows it without. */
function displayTitle(title: string | undefined) {
  if (!title) return null;
  return title.replace(/\s*\[stackshift:[^\]]*\]\s*$/, "") || null;
}

export function toNetlifyDeployment(deploy: NetlifyDeploy & { links?: { permalink?: string } }) {
  const framework =
    deploy.framework === "next" || deploy.framework === "gatsby" ? deploy.framework : null;
  const result: Deployment = {
    id: deploy.id ?? "",
    state: deploy.state ?? "new",
    status: netlifyStatus(deploy.state ?? "new"),
    branch: deploy.branch ?? null,
    commitRef: deploy.commit_ref ?? null,
    buildId: deploy.build_id ?? null,
    title: displayTitle(deploy.title),
    errorMessage: deploy.error_message ?? null,
    context: deploy.context ?? null,
    target: null,
    // `links` is in real responses but not in the swagger; the deploy URL is the same permalink.
    permalink: deploy.links?.permalink ?? deploy.deploy_ssl_url ?? null,
    deploySslUrl: deploy.deploy_ssl_url ?? null,
    url: deploy.ssl_url ?? deploy.url ?? null,
    screenshotUrl: deploy.screenshot_url ?? null,
    framework,
    meta: null,
    createdAt: deploy.created_at ?? new Date(0).toISOString(),
    updatedAt: deploy.updated_at ?? deploy.created_at ?? new Date(0).toISOString(),
  };
  return result;
}

export function toNetlifySite(site: NetlifySite): HostedSite {
  const published = site.published_deploy;
  return {
    id: site.id ?? "",
    name: site.name ?? "",
    url: site.ssl_url || site.url || "",
    state: site.state ?? "current",
    ssl: Boolean(site.ssl),
    customDomain: site.custom_domain || null,
    domainAliases: site.domain_aliases ?? [],
    repoUrl: site.build_settings?.repo_url || null,
    publishedDeploy: published?.id
      ? { id: published.id, publishedAt: published.published_at ?? null }
      : null,
    productionReadyState: null,
    productionAlias: [],
  };
}

/** True when the variable has exactly `wanted`'s context values (and builds read it). */
function hasValues(variable: NetlifyEnvVar, wanted: { context: string; value: string }[]) {
  const current = variable.values ?? [];
  if (variable.scopes && !variable.scopes.includes("builds")) return false;
  return (
    current.length === wanted.length &&
    wanted.every((w) => current.some((c) => c.context === w.context && c.value === w.value))
  );
}

/** An apex domain has exactly two labels (example.com); anything longer is a subdomain. */
const isApexDomain = (domain: string) => domain.split(".").length === 2;

/**
 * The records to create at the registrar: an apex domain gets the load balancer's A record and a
 * `www` CNAME (its alias); a subdomain a CNAME named after its own labels.
 */
export function netlifyDomainRecords(domain: string, siteName: string): DomainRecord[] {
  const target = `${siteName}.netlify.app`;
  if (isApexDomain(domain)) {
    return [
      { type: "A", name: "@", value: NETLIFY_APEX_IP },
      { type: "CNAME", name: "www", value: target },
    ];
  }
  return [{ type: "CNAME", name: domain.split(".").slice(0, -2).join("."), value: target }];
}

export function createNetlifyHosting(options: {
  token: string;
  baseUrl?: string;
  accountSlug?: string;
}): HostingProvider {
  const base = new URL(options.baseUrl ?? DEFAULT_BASE_URL);
  const scheme = base.protocol.replace(/:$/, "");
  const { agent, last429 } = rateLimitAwareAgent(scheme);
  const api = new NetlifyAPI(options.token, {
    scheme,
    host: base.host,
    // The base URL includes the API prefix (https://api.netlify.com/api/v1).
    pathPrefix: base.pathname.replace(/\/+$/, "") || "/api/v1",
    agent: agent as never,
    userAgent: "stackshift-dashboard",
  });

  function toError(error: unknown): ProviderError {
    if (error instanceof ProviderError) return error;
    const e = error as {
      status?: unknown;
      json?: { code?: unknown; message?: unknown };
      data?: unknown;
      message?: string;
    };
    if (typeof e?.status === "number") {
      const message =
        (typeof e.json?.message === "string" && e.json.message) ||
        (typeof e.data === "string" && e.data.slice(0, 200)) ||
        e.message;
      return httpProviderError(PROVIDER, e.status, {
        message: message ? `Netlify: ${message}` : null,
        // Netlify's `code` repeats the status as a number; only a textual one says more.
        code: typeof e.json?.code === "string" ? e.json.code : null,
        ...(e.status === 429 ? last429 : {}),
      });
    }
    // No HTTP answer (DNS, refused, reset): retryable.
    return new ProviderError(`Netlify unreachable: ${e?.message ?? String(error)}`, {
      provider: PROVIDER,
    });
  }

  async function call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw toError(error);
    }
  }

  /**
   * Asks for the certificate of the site's custom domain: true once Netlify has one (the DNS
   * points at Netlify), false on its 422 ("No custom domain configured", "bad dns"), which only
   * means "not yet". Anything else (429, 5xx, 401) is an error like any other call's.
   */
  async function provisionCertificate(siteId: string) {
    try {
      await call(() => api.provisionSiteTLSCertificate({ site_id: siteId }));
      return true;
    } catch (error) {
      if (error instanceof ProviderError && error.details.status === 422) return false;
      throw error;
    }
  }

  /** The site's state for `domain`; a domain the site does not carry is "not found". */
  async function domainState(siteId: string, domain: string, site: NetlifySite) {
    if (site.custom_domain !== domain) {
      throw new ProviderError(`Netlify: ${domain} is not the custom domain of site ${siteId}`, {
        provider: PROVIDER,
        status: 404,
        code: "not_found",
      });
    }
    let current = site;
    let verified = Boolean(site.ssl);
    if (!verified && (await provisionCertificate(siteId))) {
      verified = true;
      // Read back: `ssl` says whether the certificate is live, which the answer above does not.
      current = await call(() => api.getSite({ site_id: siteId }));
    }
    const state: DomainState = {
      domain,
      verified,
      ssl: Boolean(current.ssl),
      records: netlifyDomainRecords(domain, current.name ?? ""),
    };
    return state;
  }

  /** The site-level variable `key`, or null when the site does not set it. */
  async function findEnvVar(account: string, siteId: string, key: string) {
    try {
      return await call(() => api.getEnvVar({ account_id: account, key, site_id: siteId }));
    } catch (error) {
      if (error instanceof ProviderError && error.details.status === 404) return null;
      throw error;
    }
  }

  /**
   * The env API is addressed by account; Netlify's CLI passes the site's account slug, so do we
   * (the id where a site carries no slug).
   */
  const accountOf = (site: NetlifySite) => site.account_slug || site.account_id || "";

  async function findSiteByName(name: string) {
    const sites = await call(() =>
      options.accountSlug
        ? api.listSitesForAccount({ account_slug: options.accountSlug, name, per_page: 100 })
        : api.listSites({ name, filter: "all", per_page: 100 }),
    );
    // `name` is a search, not an exact match.
    return sites.find((site) => site.name === name);
  }

  return {
    name: PROVIDER,

    async createSite({ name, idempotencyKey, repoUrl }) {
      const siteName = vendorSiteName(name, idempotencyKey);
      const existing = await findSiteByName(siteName);
      if (existing) return toNetlifySite(existing);
      const template = env().SITE_TEMPLATE_REPO;
      const repoPath = repoUrl?.replace(/^https?:\/\/github\.com\//, "") ?? template;
      const body = {
        name: siteName,
        ...(repoPath
          ? {
              repo: {
                provider: "github",
                repo_path: repoPath,
                repo_branch: "main",
                repo_url: `https://github.com/${repoPath}`,
              },
            }
          : {}),
      };
      try {
        const created = await call(() =>
          options.accountSlug
            ? api.createSiteInTeam({ account_slug: options.accountSlug, body })
            : api.createSite({ body }),
        );
        return toNetlifySite(created);
      } catch (error) {
        // Two runs raced, or the first one's answer was lost: the name is taken by our own site.
        if (error instanceof ProviderError && error.details.status === 422) {
          const raced = await findSiteByName(siteName);
          if (raced) return toNetlifySite(raced);
        }
        throw error;
      }
    },

    async getSite(siteId) {
      return toNetlifySite(await call(() => api.getSite({ site_id: siteId })));
    },

    async listDeployments(siteId, request) {
      const perPage = Math.min(
        Math.max(Math.floor(request.perPage ?? DEFAULT_PER_PAGE), 1),
        MAX_PER_PAGE,
      );
      const page = Math.max(1, Math.floor(request.page ?? 1) || 1);
      const deploys = await call(() =>
        api.listSiteDeploys({ site_id: siteId, page, per_page: perPage }),
      );
      return {
        results: deploys.map(toNetlifyDeployment),
        pagination: {
          prev: page > 1 ? String(page - 1) : null,
          next: deploys.length === perPage ? String(page + 1) : null,
        },
      };
    },

    async triggerDeployment(siteId, { triggerKey, title, branch }) {
      const marker = triggerMarker(triggerKey);
      const recent = await call(() =>
        api.listSiteDeploys({ site_id: siteId, page: 1, per_page: TRIGGER_LOOKBACK }),
      );
      const earlier = recent.find((deploy) => deploy.title?.includes(marker));
      if (earlier) return toNetlifyDeployment(earlier);

      const build = await call(() =>
        api.createSiteBuild({
          site_id: siteId,
          title: `${title ?? "Production deploy"} ${marker}`,
          ...(branch ? { branch } : {}),
        }),
      );
      if (!build.deploy_id) {
        throw new ProviderError("Netlify started a build without a deploy", {
          provider: PROVIDER,
          status: 502,
          code: "invalid_response",
        });
      }
      const deployId = build.deploy_id;
      return toNetlifyDeployment(
        await call(() => api.getSiteDeploy({ site_id: siteId, deploy_id: deployId })),
      );
    },

    async getDeployment(siteId, deployId) {
      return toNetlifyDeployment(
        await call(() => api.getSiteDeploy({ site_id: siteId, deploy_id: deployId })),
      );
    },

    async restoreDeployment(siteId, deployId) {
      // Addressed through the site, so a deploy of another site is Netlify's 404 too. Restoring
      // the deploy already published just publishes it again: safe for a retried job.
      return toNetlifyDeployment(
        await call(() => api.restoreSiteDeploy({ site_id: siteId, deploy_id: deployId })),
      );
    },

    async setCustomDomain(siteId, domain) {
      // PATCH replaces whatever domain the site had, so setting the same one again is harmless.
      const site = await call(() =>
        api.updateSite({
          site_id: siteId,
          body: {
            custom_domain: domain,
            domain_aliases: isApexDomain(domain) ? [`www.${domain}`] : [],
          },
        }),
      );
      return domainState(siteId, domain, site);
    },

    async removeCustomDomain(siteId, domain) {
      let site: NetlifySite;
      try {
        site = await call(() => api.getSite({ site_id: siteId }));
      } catch (error) {
        // A site that no longer exists carries no domain: already removed.
        if (error instanceof ProviderError && error.details.status === 404) return;
        throw error;
      }
      // Only our domain: a site moved on to another one keeps it.
      if (site.custom_domain !== domain) return;
      await call(() =>
        api.updateSite({
          site_id: siteId,
          // The swagger types custom_domain as a string; Netlify clears it on null.
          body: { custom_domain: null as unknown as string, domain_aliases: [] },
        }),
      );
    },

    async getDomainStatus(siteId, domain) {
      return domainState(siteId, domain, await call(() => api.getSite({ site_id: siteId })));
    },

    async setEnvironmentVariable(siteId, key, value) {
      let site: NetlifySite;
      try {
        site = await call(() => api.getSite({ site_id: siteId }));
      } catch (error) {
        // A site that no longer exists reads no variables: removing one from it is done.
        if (value === null && error instanceof ProviderError && error.details.status === 404) {
          return;
        }
        throw error;
      }
      const account = accountOf(site);
      if (value === null) {
        try {
          await call(() => api.deleteEnvVar({ account_id: account, key, site_id: siteId }));
        } catch (error) {
          // 404: the site does not set it, which is what we want.
          if (!(error instanceof ProviderError && error.details.status === 404)) throw error;
        }
        return;
      }
      const values = NETLIFY_ENV_CONTEXTS.map((context) => ({ context, value }));
      const existing = await findEnvVar(account, siteId, key);
      if (!existing) {
        await call(() =>
          api.createEnvVars({
            account_id: account,
            site_id: siteId,
            body: [{ key, scopes: [...NETLIFY_ENV_SCOPES], values }],
          }),
        );
        return;
      }
      // Already so (a re-run): no write.
      if (hasValues(existing, values)) return;
      // PUT replaces the whole variable: its scopes go back as they were, with builds added
      // (the builds must read it), and the values are ours alone.
      const scopes = existing.scopes ?? [...NETLIFY_ENV_SCOPES];
      await call(() =>
        api.updateEnvVar({
          account_id: account,
          key,
          site_id: siteId,
          body: {
            key,
            scopes: scopes.includes("builds") ? scopes : [...scopes, "builds"],
            values,
          },
        }),
      );
    },

    async deleteSite(siteId) {
      try {
        await call(() => api.deleteSite({ site_id: siteId }));
      } catch (error) {
        // Already gone (an earlier attempt, or someone in Netlify's UI): what we want.
        if (!(error instanceof ProviderError && error.details.status === 404)) throw error;
      }
    },
  };
}
