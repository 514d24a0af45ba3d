import { z } from "zod";
import { DOMAIN_MESSAGES, normalizeDomain } from "./domain-names";

export {
  DOMAIN_MAX,
  DOMAIN_MESSAGES,
  normalizeDomain,
  UNVERIFIED_DOMAIN_DAYS,
} from "./domain-names";

/**
 * Input rules of custom domains, shared by the Domain Settings dialog (the browser: Confirm stays
 * disabled while the value is not a domain), its action and PUT /api/app/domains. No server
 * imports.
 */

/** A custom domain, normalised; an empty value is allowed where it means "revert". */
const domainOrEmpty = z
  .string({ error: DOMAIN_MESSAGES.required })
  .max(1024, DOMAIN_MESSAGES.tooLong)
  .optional()
  .transform((value, ctx) => {
    if (!value?.trim()) return "";
    const result = normalizeDomain(value);
    if ("error" in result) {
      ctx.addIssue({ code: "custom", message: result.error });
      return z.NEVER;
    }
    return result.domain;
  });

export const HOSTING_PROVIDERS = ["netlify", "vercel"] as const;
export type DomainProvider = (typeof HOSTING_PROVIDERS)[number];
const provider = z.enum(HOSTING_PROVIDERS, { error: "provider must be netlify or vercel" });

/**
 * The dialog's form: the domain (empty reverts) and, from schema version 3, which site. The
 * action is derived from the value, as the product does: update when typed, revert when cleared.
 */
export const domainFormSchema = z.object({
  domain: domainOrEmpty,
  provider: provider.optional(),
  /** Without JavaScript the dialog has a 'Revert Domain' button beside Confirm: it sends this. */
  action: z.enum(["update", "revert"]).optional(),
});

/** PUT /api/app/domains. `type` is accepted and not used. */
export const domainApiSchema = z
  .object({
    type: z.string().max(100).optional(),
    action: z.enum(["update", "revert"], { error: "action must be update or revert" }),
    domain: domainOrEmpty,
    studioId: z
      .string({ error: "studioId is required" })
      .trim()
      .min(1, "studioId is required")
      .max(100, "studioId is too long"),
    schemaVersion: z.number().int().min(1).max(100).optional(),
    provider: provider.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.action === "update" && !value.domain) {
      ctx.addIssue({ code: "custom", path: ["domain"], message: DOMAIN_MESSAGES.required });
    }
  });

/** The product's toasts for domains, word for word. */
export const DOMAIN_TOASTS = {
  set: "Custom domain set successfully!",
  reverted: "Custom domain reverted successfully!",
  failed: "Oops. Unable to add domain.",
  failedDescription: "Please try again...",
} as const;

/** Shown when the domain is already another project's. */
export const DOMAIN_TAKEN_MESSAGE = "This domain is already used by another project";
