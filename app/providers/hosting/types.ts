/**
 * Hosting: a site lives on one of two hosting providers. Netlify is the first provider, Vercel the
 * second. Business sites are primary on the second, enterprise sites on the first.
 */
export type HostingProviderName = "netlify" | "vercel";

/** A site as the dashboard needs it (for the API's siteDetails), vendor-neutral. */
export type HostedSite = {
  id: string;
  name: string;
  /** Public address of the published site. */
  url: string;
  /** Netlify `state` ("current", ...) or Vercel project state; free text from the vendor. */
  state: string;
  ssl: boolean;
  customDomain: string | null;
  domainAliases: string[];
  repoUrl: string | null;
  /** The deploy currently published, or null before the first successful deploy. */
  publishedDeploy: { id: string; publishedAt: string | null } | null;
  /** Vercel's production target readiness (QUEUED, BUILDING, READY, ERROR, ...). */
  productionReadyState: string | null;
  productionAlias: string[];
};

/** A deployment, vendor-neutral; vendor fields that do not exist are null. */
export type Deployment = {
  id: string;
  /** Netlify deploy state or Vercel readyState, as the vendor reports it. */
  state: string;
  /** Normalised: queued | building | ready | error | canceled. */
  status: "queued" | "building" | "ready" | "error" | "canceled";
  branch: string | null;
  commitRef: string | null;
  buildId: string | null;
  title: string | null;
  errorMessage: string | null;
  context: string | null;
  target: string | null;
  permalink: string | null;
  deploySslUrl: string | null;
  url: string | null;
  screenshotUrl: string | null;
  framework: "next" | "gatsby" | null;
  meta: {
    githubCommitMessage?: string;
    githubRepo?: string;
    githubCommitRef?: string;
    branchAlias?: string;
    deployHookName?: string;
  } | null;
  createdAt: string;
  updatedAt: string;
};

/** Netlify pages by number (?page=); Vercel by opaque cursors (?next= / ?prev=). */
export type DeploymentPageRequest = {
  page?: number;
  next?: string;
  prev?: string;
  perPage?: number;
};

export type DeploymentPage = {
  results: Deployment[];
  pagination: { prev: string | null; next: string | null };
};

/** A DNS record to create at the registrar for a custom domain. */
export type DomainRecord = { type: string; name: string; value: string };

/** What the provider says about a site's custom domain. */
export type DomainState = {
  domain: string;
  /** True once the provider sees the DNS records pointing at it. */
  verified: boolean;
  /** True once the provider serves the domain over HTTPS. */
  ssl: boolean;
  /** The records to create: apex A (or ALIAS) and `www` CNAME, plus any verification TXT. */
  records: DomainRecord[];
};

export interface HostingProvider {
  readonly name: HostingProviderName;
  /** Idempotent: the same idempotencyKey returns the site created the first time. */
  createSite(input: {
    name: string;
    idempotencyKey: string;
    repoUrl?: string;
  }): Promise<HostedSite>;
  getSite(siteId: string): Promise<HostedSite>;
  listDeployments(siteId: string, page: DeploymentPageRequest): Promise<DeploymentPage>;
  /**
   * Starts a production deployment. Idempotent per `triggerKey` (a retried job must not deploy
   * twice): the same key returns the deployment started the first time.
   */
  triggerDeployment(
    siteId: string,
    input: { triggerKey: string; title?: string; branch?: string },
  ): Promise<Deployment>;
  getDeployment(siteId: string, deployId: string): Promise<Deployment>;
  /**
   * Rolls the site back (or forward): publishes an earlier ready deployment of the site again as
   * its production deployment, without rebuilding it, and returns that deployment as it now
   * stands. A deployment the site does not have is a ProviderError 404; one that is not ready
   * is refused with the vendor's own answer (a 409 or 422-like ProviderError, not retryable).
   */
  restoreDeployment(siteId: string, deployId: string): Promise<Deployment>;
  /** Points `domain` (lowercase ASCII, already validated) at the site, replacing any other; idempotent. */
  setCustomDomain(siteId: string, domain: string): Promise<DomainState>;
  /** Removes the site's custom domain; idempotent (a site without it, or with another, is fine). */
  removeCustomDomain(siteId: string, domain: string): Promise<void>;
  /** The domain's current state (asks the provider to verify / issue the certificate where that is a call). */
  getDomainStatus(siteId: string, domain: string): Promise<DomainState>;
  /**
   * Sets (`value`) or removes (null) an environment variable the site's builds read, for
   * production and previews; idempotent. Takes effect at the next deployment.
   */
  setEnvironmentVariable(siteId: string, key: string, value: string | null): Promise<void>;
  /**
   * Deletes the site and its deployments at the provider. Idempotent: a site that is already
   * gone resolves, so a retried cleanup job can run it again; any other refusal is a
   * ProviderError like the other calls'.
   */
  deleteSite(siteId: string): Promise<void>;
}
