/**
 * The integrations a project can connect: the catalogue of /sites/integrations, the slug of each
 * integration's page, and the segment of its configure path
 * (`/studios/integrations/{segment}/{studioId}[/{adminUserId}]`). No zod: pages import it.
 */
export type IntegrationEntry = {
  /** The page: /sites/integrations/{slug}. */
  slug: "payments" | "social-accounts";
  name: string;
  text: string;
  /** The catalogue's compatibility label. */
  compatibility: "default" | "new";
  /** The configure path's segment (the instagram integration's is social-accounts). */
  configureSegment: string;
};

export const INTEGRATIONS: readonly IntegrationEntry[] = [
  {
    slug: "payments",
    name: "Stripe",
    text: "Connect your Stripe account to start accepting form payments.",
    compatibility: "default",
    configureSegment: "payments",
  },
  {
    slug: "social-accounts",
    name: "Social Accounts",
    text: "Connect your social media accounts to display public feed on your page.",
    compatibility: "new",
    configureSegment: "social-accounts",
  },
];

/**
 * Every id an integration of a project carries (the Integration entity's `id`): the catalogue's
 * entries and the AI Newsletter, which is switched on as an add-on rather than chosen here.
 */
export const INTEGRATION_IDS = [...INTEGRATIONS.map((entry) => entry.slug), "newsletter"] as const;

/** An integration's logo: an SVG of our own drawing in public/integrations/ (decision 045). */
export function integrationLogo(id: string): string {
  return `/integrations/${id}.svg`;
}

export function integrationBySlug(slug: string | undefined): IntegrationEntry | undefined {
  return INTEGRATIONS.find((entry) => entry.slug === slug);
}

export function integrationBySegment(segment: string | undefined): IntegrationEntry | undefined {
  return INTEGRATIONS.find((entry) => entry.configureSegment === segment);
}

/** Where Configure leads; platform admins' paths carry their user id. */
export function configurePath(
  entry: IntegrationEntry,
  studioId: string,
  platformAdminId: string | null,
): string {
  const base = `/studios/integrations/${entry.configureSegment}/${encodeURIComponent(studioId)}`;
  return platformAdminId ? `${base}/${platformAdminId}` : base;
}

/** The integrations search waits 1000 ms after the last keystroke (other searches 1500 ms). */
export const INTEGRATION_SEARCH_DEBOUNCE_MS = 1000;
/** Projects per page of an integration's list; Load More shows with 5 or more and a next page. */
export const INTEGRATION_PAGE_SIZE = 10;
export const LOAD_MORE_MIN_RESULTS = 5;
