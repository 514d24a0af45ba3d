/**
 * The project's derived statuses: the project badge, the hosting providers of the deployment
 * list, and the schema-version thresholds. Pure functions with no server imports: the dashboard's
 * loader derives them and the browser may call them too. Unit-tested in project-status.test.ts.
 */

/** What the hosting provider reports about a site or studio (the API's site/studioDetails). */
export type HostingDetailsLike = {
  state?: string | null;
  ssl?: boolean | null;
  published_deploy?: unknown;
  targets?: { production?: { readyState?: string | null } | null } | null;
} | null;

export type StatusInput = {
  /** ISO date the project was created. */
  _createdAt: string;
  siteCreationStatus: string;
  studioCreationStatus: string;
  siteDetails: HostingDetailsLike;
  studioDetails: HostingDetailsLike;
};

// ---------------------------------------------------------------------------------------------
// Project badge

export type BuildState = "building" | "getting-ready" | "ready" | "error";

export const BUILD_STATE_LABEL: Record<BuildState, string> = {
  building: "In Progress",
  "getting-ready": "Getting Ready",
  ready: "Ready",
  error: "Build Error",
};

/**
 * How long a project counts as 'New': its first 24 hours. The product leaves the age open; a
 * day covers provisioning, the automatic deployment at 15 minutes and a retry or two, and
 * a project a user made yesterday still reads as new to them.
 */
export const NEW_PROJECT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Site or studio `state` values that mean a build is under way. Netlify spells queued 'enqueued'. */
const BUILDING_STATES = new Set(["new", "building", "enqueued", "queued"]);
/** Vercel's targets.production.readyState values that mean a build is under way. */
const BUILDING_READY_STATES = new Set(["queued", "building", "initializing"]);

const lower = (value: string | null | undefined) => (value ?? "").toLowerCase();

function readyStateOf(details: HostingDetailsLike) {
  return lower(details?.targets?.production?.readyState);
}

/** A deploy is published: Netlify's published_deploy, or Vercel's production target READY. */
export function isPublished(details: HostingDetailsLike): boolean {
  return Boolean(details?.published_deploy) || readyStateOf(details) === "ready";
}

/** True during the project's first NEW_PROJECT_MAX_AGE_MS (a clock skewed into the future too). */
export function isNewProject(project: Pick<StatusInput, "_createdAt">, now: Date): boolean {
  const created = Date.parse(project._createdAt);
  if (Number.isNaN(created)) return false;
  return now.getTime() - created < NEW_PROJECT_MAX_AGE_MS;
}

/**
 * The project badge, decided in this order:
 * 1. error: a state of error (site, studio, Vercel readyState, or a failed creation status) while
 *    nothing is published. With a published deploy the site still serves, so a later failed
 *    build does not turn the project into 'Build Error'.
 * 2. building: a new project (the hosting provider has not reported the site yet), a site or
 *    studio state of new/building (Netlify's 'enqueued' too), or a readyState of queued/building.
 *    A rebuild of a published site is 'In Progress' again: building is checked before ready.
 * 3. getting ready: published without SSL; 4. ready: published with SSL.
 * Anything else (reported, nothing published, no error) is still on its way: building.
 */
export function buildState(project: StatusInput): BuildState {
  const site = project.siteDetails;
  const studio = project.studioDetails;
  const published = isPublished(site);
  const errored =
    lower(site?.state) === "error" ||
    lower(studio?.state) === "error" ||
    readyStateOf(site) === "error" ||
    project.siteCreationStatus === "failed" ||
    project.studioCreationStatus === "failed";
  if (errored && !published) return "error";

  const building =
    !site ||
    BUILDING_STATES.has(lower(site.state)) ||
    BUILDING_STATES.has(lower(studio?.state)) ||
    BUILDING_READY_STATES.has(readyStateOf(site));
  if (building) return "building";

  if (published) return site.ssl ? "ready" : "getting-ready";
  return "building";
}

export type ProjectBadge = {
  state: BuildState;
  /** 'In Progress', 'Getting Ready', 'Ready' or 'Build Error'. */
  label: string;
  /**
   * 'New' is a second badge beside the state, never instead of it: age and build state are
   * independent facts, and a new project that failed must still read 'Build Error'.
   */
  isNew: boolean;
};

export function projectBadge(project: StatusInput, now: Date): ProjectBadge {
  const state = buildState(project);
  return { state, label: BUILD_STATE_LABEL[state], isNew: isNewProject(project, now) };
}

// ---------------------------------------------------------------------------------------------
// Live

/** 'Live' when the site finished creating and has its own domain. */
export function isLive(project: {
  siteCreationStatus: string;
  siteCustomDomain: string | null;
}): boolean {
  return project.siteCreationStatus === "success" && Boolean(project.siteCustomDomain?.trim());
}

// ---------------------------------------------------------------------------------------------
// Schema versions: the site template version each feature needs

/** A site without a schema version is version 1. */
export const DEFAULT_SCHEMA_VERSION = 1;
/** Domain handling (Domain Settings layout) and the AI newsletter and similar cards. */
export const SCHEMA_VERSION_CARDS = 3;
export const SCHEMA_VERSION_DOMAINS = 3;
export const SCHEMA_VERSION_END_TO_END_TESTS = 4;
export const SCHEMA_VERSION_THEME_PREVIEW = 6;

/**
 * The version the dashboard's header badge checks: below it, domain handling and the add-on
 * cards are unavailable. Single features (end-to-end tests 4, theme preview 6) carry their own
 * badge where they appear.
 */
export const DASHBOARD_REQUIRED_SCHEMA_VERSION = SCHEMA_VERSION_CARDS;

export function upgradeRequired(schemaVersion: number | null | undefined, required: number) {
  return (schemaVersion ?? DEFAULT_SCHEMA_VERSION) < required;
}

/**
 * The highest schema version the dashboard knows (its last threshold, theme preview). New
 * projects are created at the site template's version, SITE_SCHEMA_VERSION, which defaults to it.
 */
export const LATEST_SCHEMA_VERSION = Math.max(
  SCHEMA_VERSION_CARDS,
  SCHEMA_VERSION_DOMAINS,
  SCHEMA_VERSION_END_TO_END_TESTS,
  SCHEMA_VERSION_THEME_PREVIEW,
);

/** The dashboard's 'UPGRADE REQUIRED': the version the site needs, or null when it has it. */
export function dashboardUpgradeTo(schemaVersion: number | null | undefined): number | null {
  return upgradeRequired(schemaVersion, DASHBOARD_REQUIRED_SCHEMA_VERSION)
    ? DASHBOARD_REQUIRED_SCHEMA_VERSION
    : null;
}

/** The 'UPGRADE REQUIRED' badge's tooltip. */
export function upgradeTooltip(required: number) {
  return `StackShift v${required} required`;
}

// ---------------------------------------------------------------------------------------------
// Hosting providers: whose deployments the list shows, and which one a site deploys to

export type HostingProvider = "netlify" | "vercel";

/** The first (Netlify) and the second (Vercel) hosting provider, in that order. */
export const HOSTING_PROVIDERS: readonly HostingProvider[] = ["netlify", "vercel"];

export const PROVIDER_LABEL: Record<HostingProvider, string> = {
  netlify: "Netlify",
  vercel: "Vercel",
};

export type ProjectSite = {
  provider: HostingProvider;
  siteId: string | null;
  url: string | null;
  customDomain: string | null;
};

export type ProviderRow = {
  provider: HostingProvider;
  primary: boolean;
  label: "Primary" | "Not Deployed" | "Deployed";
  /** The project's site on this provider, if it has one. */
  site: ProjectSite | null;
};

/**
 * Business sites are primary on the second provider (Vercel) and 'Not Deployed' on the first;
 * enterprise sites are primary on the first (Netlify) and 'Deployed' on the second.
 */
export function siteProviders(project: {
  siteType: "business" | "enterprise";
  sites?: ProjectSite[] | null;
}): ProviderRow[] {
  const primary: HostingProvider = project.siteType === "enterprise" ? "netlify" : "vercel";
  const secondaryLabel = project.siteType === "enterprise" ? "Deployed" : "Not Deployed";
  return HOSTING_PROVIDERS.map((provider) => ({
    provider,
    primary: provider === primary,
    label: provider === primary ? "Primary" : secondaryLabel,
    site: project.sites?.find((s) => s.provider === provider) ?? null,
  }));
}

// ---------------------------------------------------------------------------------------------
// Addresses

/**
 * An address safe to put in an href: http(s) URLs as they are, a bare host name (a custom
 * domain) as https, anything else (javascript:, garbage) null.
 */
export function externalUrl(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(candidate);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    if (!url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** The site's address for 'Visit' and the domain line: its custom domain, else its URL. */
export function siteAddress(project: {
  siteCustomDomain: string | null;
  siteUrl: string | null;
}): string | null {
  return externalUrl(project.siteCustomDomain) ?? externalUrl(project.siteUrl);
}

/**
 * The project navigation's external link: the publish site address only. A
 * project without one gets no link, not its site URL: 'Visit' already opens that.
 */
export function publishedSiteUrl(project: { publishForgeSiteUrl: string | null }): string | null {
  return externalUrl(project.publishForgeSiteUrl);
}

/**
 * The picker counts matches up to this many and then says "1000+": an exact count over tens of
 * thousands of projects would cost every page its layout loader runs on.
 */
export const PICKER_COUNT_CAP = 1000;
