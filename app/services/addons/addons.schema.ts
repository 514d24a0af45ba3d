import { z } from "zod";
import { repoPath } from "~/providers/test-runs/types";
import { ADDON_KEYS, chromaticTokenError, TOKEN_MESSAGES } from "./addon-catalog";

export * from "./addon-catalog";

/**
 * Input rules of add-ons, shared by the dashboard's confirmation form and the JSON API routes
 * (PUT /api/app/activate-cstudio, newsletter, studios/social-media, gpt3, chromatic, e2e-tests).
 */

const studioId = z
  .string({ error: "studioId is required" })
  .trim()
  .min(1, "studioId is required")
  .max(100, "studioId is too long");

/** A Visual Tests project token: format only (Chromatic has no API to check it against). */
export const chromaticToken = z
  .string({ error: TOKEN_MESSAGES.invalid })
  .max(1024, TOKEN_MESSAGES.format)
  .transform((value, ctx) => {
    const error = chromaticTokenError(value);
    if (error) {
      ctx.addIssue({ code: "custom", message: error });
      return z.NEVER;
    }
    return value.trim();
  });

/** The dashboard's confirmation: which add-on, on or off, and a token when setting Visual Tests up. */
export const addonFormSchema = z.object({
  addon: z.enum(ADDON_KEYS, { error: "Unknown add-on" }),
  enabled: z.enum(["true", "false"], { error: "enabled must be true or false" }),
  chromaticProjectToken: chromaticToken.optional(),
});

/** PUT /api/app/newsletter, /studios/social-media, /e2e-tests: {studioId, action}. */
export const addonActionSchema = z.object({
  studioId,
  action: z.enum(["enable", "disable"], { error: "action must be enable or disable" }),
  schemaVersion: z.number().int().min(1).max(100).optional(),
});

/** PUT /api/app/chromatic: the same, with the token when setting up. */
export const chromaticActionSchema = addonActionSchema.extend({
  chromaticProjectToken: chromaticToken.optional(),
});

/** PUT /api/app/activate-cstudio and /gpt3: value 'true' | 'false' and the sites' ids. */
export const addonValueSchema = z.object({
  studioId,
  value: z.enum(["true", "false"], { error: "value must be 'true' or 'false'" }),
  schemaVersion: z.number().int().min(1).max(100).optional(),
  netlifyAccountId: z.string().max(200).nullish(),
  netlifyStudioId: z.string().max(200).nullish(),
  netlifySiteId: z.string().max(200).nullish(),
  sites: z.array(z.unknown()).max(10).optional(),
});

/** GET /api/app/e2e-test-runs?repo=: a GitHub repository, `owner/name` or its URL. */
export const testRunsQuerySchema = z.object({
  repo: z
    .string({ error: "repo is required" })
    .trim()
    .min(1, "repo is required")
    .max(200, "repo is too long")
    .transform((value, ctx) => {
      const path = repoPath(value);
      if (!path) {
        ctx.addIssue({ code: "custom", message: "repo must be a GitHub repository: owner/name" });
        return z.NEVER;
      }
      return path;
    }),
});
