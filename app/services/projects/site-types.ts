/**
 * The site types and their labels, apart from the zod schemas in projects.schema.ts so the pages
 * that only show a label do not bring zod to the browser (docs/performance.md, first-load JS).
 */
export const SITE_TYPES = ["business", "enterprise"] as const;
export type SiteType = (typeof SITE_TYPES)[number];

export const SITE_TYPE_LABEL: Record<SiteType, string> = {
  business: "Business",
  enterprise: "Enterprise",
};
