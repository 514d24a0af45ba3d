import { SCHEMA_VERSION_CARDS, SCHEMA_VERSION_END_TO_END_TESTS } from "~/services/projects";

/**
 * The add-ons a project can switch on, without zod so the dashboard's cards can import it. Each
 * names its project flag, the schema version it needs, its Activity Log events, and what the
 * providers are told: the studio's feature flag and the environment variable the site reads.
 */
export const ADDON_KEYS = [
  "ecommerce",
  "aiNewsletter",
  "socialMedia",
  "gpt",
  "visualTests",
  "endToEndTests",
] as const;
export type AddonKey = (typeof ADDON_KEYS)[number];

export type AddonColumn =
  | "isCStudioEnabled"
  | "isAINewsletterEnabled"
  | "isSocialMediaEnabled"
  | "isGPT3Enabled"
  | "isVisualTestsEnabled"
  | "isEndToEndTestsEnabled";

export type AddonDefinition = {
  label: string;
  description: string;
  /** The name in 'Oops. Failed to update {name} for {project}.' */
  failureName: string;
  column: AddonColumn;
  /** The lowest schema version the add-on works with (the card says so below it). */
  requires?: number;
  /** Activity Log events `{event}.enabled` / `{event}.disabled`. */
  event: "ecommerce" | "newsletter" | "socialMedia" | "gpt" | "visualTests" | "e2eTests";
  studioFlag: string;
  siteEnv: string;
};

export const ADDONS: Record<AddonKey, AddonDefinition> = {
  ecommerce: {
    label: "Ecommerce",
    description: "Products, prices and a checkout on the site, managed in the studio.",
    failureName: "Ecommerce",
    column: "isCStudioEnabled",
    event: "ecommerce",
    studioFlag: "ecommerce",
    siteEnv: "STACKSHIFT_ECOMMERCE_ENABLED",
  },
  aiNewsletter: {
    label: "AI Newsletter",
    description: "Newsletters drafted with AI from the site's content, sent to subscribers.",
    failureName: "AI Newsletter",
    column: "isAINewsletterEnabled",
    requires: SCHEMA_VERSION_CARDS,
    event: "newsletter",
    studioFlag: "aiNewsletter",
    siteEnv: "STACKSHIFT_AI_NEWSLETTER_ENABLED",
  },
  socialMedia: {
    label: "Social Media",
    description: "Plan and publish social media posts from the studio.",
    failureName: "Social Media",
    column: "isSocialMediaEnabled",
    requires: SCHEMA_VERSION_CARDS,
    event: "socialMedia",
    studioFlag: "socialMedia",
    siteEnv: "STACKSHIFT_SOCIAL_MEDIA_ENABLED",
  },
  gpt: {
    label: "GPT",
    description: "Writing help in the studio's text fields.",
    failureName: "GPT3",
    column: "isGPT3Enabled",
    requires: SCHEMA_VERSION_CARDS,
    event: "gpt",
    studioFlag: "gpt",
    siteEnv: "STACKSHIFT_GPT_ENABLED",
  },
  visualTests: {
    label: "Visual Tests",
    description: "Screenshots of every page compared on each deployment (Chromatic).",
    failureName: "Visual Tests",
    column: "isVisualTestsEnabled",
    event: "visualTests",
    studioFlag: "visualTests",
    siteEnv: "STACKSHIFT_VISUAL_TESTS_ENABLED",
  },
  endToEndTests: {
    label: "End To End Tests",
    description: "Browser tests of the site's main paths on each deployment (GitHub Actions).",
    failureName: "End To End Tests",
    column: "isEndToEndTestsEnabled",
    requires: SCHEMA_VERSION_END_TO_END_TESTS,
    event: "e2eTests",
    studioFlag: "endToEndTests",
    siteEnv: "STACKSHIFT_E2E_TESTS_ENABLED",
  },
};

export const isAddonKey = (value: unknown): value is AddonKey =>
  typeof value === "string" && (ADDON_KEYS as readonly string[]).includes(value);

/** The Visual Tests token rules, word for word as the product words them. */
export const CHROMATIC_TOKEN_PREFIX = "chpt_";
export const CHROMATIC_TOKEN_MIN = 10;
export const TOKEN_MESSAGES = {
  prefix: "Token must start with 'chpt_'",
  short: "Token appears to be too short",
  format: "Token format is invalid",
  invalid: "Your project token seems to be invalid!",
  badSubmit: "Invalid token format",
} as const;

/** The first rule a Visual Tests token breaks, or null when it has the right format. */
export function chromaticTokenError(raw: string): string | null {
  const token = raw.trim();
  if (!token) return TOKEN_MESSAGES.invalid;
  if (!token.startsWith(CHROMATIC_TOKEN_PREFIX)) return TOKEN_MESSAGES.prefix;
  if (token.length < CHROMATIC_TOKEN_MIN) return TOKEN_MESSAGES.short;
  if (!/^chpt_[A-Za-z0-9]+$/.test(token) || token.length > 200) return TOKEN_MESSAGES.format;
  return null;
}

export const addonToasts = {
  enabled: (label: string, project: string) => `${label} enabled for ${project}.`,
  disabled: (label: string, project: string) => `${label} disabled for ${project}.`,
  failed: (name: string, project: string) => `Oops. Failed to update ${name} for ${project}.`,
};
