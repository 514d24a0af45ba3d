import { z } from "zod";

export { SOCIAL_MESSAGES } from "./social-accounts-rules";

export const SOCIAL_PLATFORMS = ["instagram"] as const;

const PROFESSIONAL_REQUIRED = "Tick this box: Instagram links professional accounts only";

/** The 'Link account' form: a platform, and the professional account box ticked. */
export const linkSocialAccountSchema = z.object({
  platform: z.enum(SOCIAL_PLATFORMS, { error: "Choose a platform" }),
  professional: z
    .string({ error: PROFESSIONAL_REQUIRED })
    .refine((v) => v === "on", { message: PROFESSIONAL_REQUIRED }),
  mode: z.enum(["popup", "tab"]).default("tab"),
});

export const unlinkSocialAccountSchema = z.object({
  accountId: z.uuid({ error: "Unknown account" }),
});

/** The return page's exchange (the code and state Instagram or Stripe sent back). */
export const oauthReturnSchema = z.object({
  code: z.string().trim().min(1, "code is required").max(2000),
  state: z.string().trim().min(1, "state is required").max(300),
});

const studioFields = {
  pageBuilderId: z.string().trim().max(100).optional(),
  sanityProjectId: z.string().trim().max(100).optional(),
  pageBuilderName: z.string().max(200).optional(),
  pageBuilderUserEmail: z.string().max(320).optional(),
  sanityProjectDataset: z.string().max(100).optional(),
};

const integration = z
  .object({ platform: z.literal("instagram", { error: "integration.platform must be instagram" }) })
  .loose();

/** POST /api/app/integrations/social-accounts: exchange_token (the state is required here too). */
export const socialExchangeApiSchema = z
  .object({
    action: z.literal("exchange_token", { error: "action must be exchange_token" }),
    integration,
    authorizationCode: z.string({ error: "authorizationCode is required" }).trim().min(1).max(2000),
    state: z.string({ error: "state is required" }).trim().min(1).max(300),
    accounts: z.unknown().optional(),
    ...studioFields,
  })
  .refine((v) => Boolean(v.pageBuilderId || v.sanityProjectId), {
    message: "pageBuilderId or sanityProjectId is required",
  });

/**
 * PATCH /api/app/integrations/social-accounts: unlink_account. The specification's body names
 * the project only: then the account is the one `integration.account.userName` names (the social
 * integration entry as the project entity gives it), else the project's only linked account.
 * `accountId` or `userName` choose one when a project has linked several.
 */
export const socialUnlinkApiSchema = z
  .object({
    action: z.literal("unlink_account", { error: "action must be unlink_account" }),
    integration: integration.extend({
      account: z
        .object({ userName: z.string().trim().min(1).max(100).optional() })
        .loose()
        .optional(),
    }),
    accountId: z.uuid({ error: "accountId must be an account's id" }).optional(),
    userName: z.string().trim().min(1).max(100).optional(),
    siteId: z.string().max(200).optional(),
    ...studioFields,
  })
  .refine((v) => Boolean(v.pageBuilderId || v.sanityProjectId), {
    message: "pageBuilderId or sanityProjectId is required",
  })
  .transform(({ integration: entry, ...rest }) => ({
    ...rest,
    integration: entry,
    userName: rest.userName ?? entry.account?.userName,
  }));
