import { z } from "zod";
import { apiVersionError, DEFAULT_STRIPE_API_VERSION } from "./payment-rules";

export * from "./payment-rules";

const required = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(255, `${label} is too long`);

/** 'Add Stripe Account': the dialog's form and the JSON API's add-account. */
export const addPaymentAccountSchema = z.object({
  accountName: required("Account name").max(100, "Account name is too long"),
  publishableKey: required("Stripe publishable key").refine((v) => v.startsWith("pk_"), {
    message: "A publishable key starts with pk_",
  }),
  secretKey: required("Stripe secret key").refine(
    (v) => v.startsWith("sk_") || v.startsWith("rk_"),
    { message: "A secret key starts with sk_ (or rk_ for a restricted key)" },
  ),
  apiVersion: z
    .string()
    .max(100, "Invalid API Version")
    .optional()
    .transform((value, ctx) => {
      const error = apiVersionError(value ?? "");
      if (error) {
        ctx.addIssue({ code: "custom", message: error });
        return z.NEVER;
      }
      return value?.trim() || DEFAULT_STRIPE_API_VERSION;
    }),
});
export type AddPaymentAccountInput = z.output<typeof addPaymentAccountSchema>;

export const removePaymentAccountSchema = z.object({
  accountId: z.uuid({ error: "Unknown account" }),
});

/** The project of a payments API call: ours (_id or studioId), or its content studio's id. */
const studioRef = z
  .object({
    pagebuilderId: z.string().trim().max(100).optional(),
    projectId: z.string().trim().max(100).optional(),
  })
  .loose()
  .refine((s) => Boolean(s.pagebuilderId || s.projectId), {
    message: "studio.pagebuilderId or studio.projectId is required",
  });

/**
 * remove-account's `account`: the specification's payment account fields (`stripePKey`, one per
 * project, or `accountName`), or our `id`; each one given must fit the same account.
 */
const removeAccountRef = z
  .object({
    id: z.uuid({ error: "account.id must be an account's id" }).optional(),
    accountName: z.string().trim().min(1).max(100).optional(),
    stripePKey: z.string().trim().min(1).max(255).optional(),
  })
  .loose()
  .refine((a) => Boolean(a.id || a.accountName || a.stripePKey), {
    message: "account.stripePKey, account.accountName or account.id is required",
  });

/** POST /api/app/integrations/payments: add-account, connect-account or remove-account. */
export const paymentsApiSchema = z.discriminatedUnion(
  "action",
  [
    z.object({
      action: z.literal("add-account"),
      studio: studioRef,
      stripeAccounts: z.object({
        accountName: z.string({ error: "accountName is required" }),
        stripePKey: z.string({ error: "stripePKey is required" }),
        stripeSKey: z.string({ error: "stripeSKey is required" }),
        apiVersion: z.string().optional(),
      }),
    }),
    z.object({
      action: z.literal("connect-account"),
      integration: z.unknown().optional(),
      studio: studioRef,
      authorizationCode: z
        .string({ error: "authorizationCode is required" })
        .trim()
        .min(1)
        .max(2000),
      state: z.string({ error: "state is required" }).trim().min(1).max(300),
    }),
    z.object({
      action: z.literal("remove-account"),
      studio: studioRef,
      account: removeAccountRef,
    }),
  ],
  { error: "action must be connect-account, add-account or remove-account" },
);

/** GET /api/app/integrations/payments?action=get-accounts&studioSanityId= (or &studioId=). */
export const paymentsQuerySchema = z
  .object({
    action: z.literal("get-accounts", { error: "action must be get-accounts" }),
    studioSanityId: z.string().trim().min(1).max(100).optional(),
    studioId: z.string().trim().min(1).max(100).optional(),
  })
  .refine((q) => Boolean(q.studioSanityId || q.studioId), {
    message: "studioSanityId or studioId is required",
  });

/**
 * POST /api/payments/stripe?resource=products|prices&action=list: the stored account to read
 * (its key never travels), the state to list, and a page.
 */
export const stripeListQuerySchema = z.object({
  resource: z.enum(["products", "prices"], { error: "resource must be products or prices" }),
  action: z.literal("list", { error: "action must be list" }),
});

export const stripeListBodySchema = z.object({
  accountId: z.uuid({ error: "accountId must be a payment account's id" }),
  active: z.boolean({ error: "active must be true or false" }).default(true),
  limit: z.number().int().min(1).max(100).default(20),
  startingAfter: z.string().trim().min(1).max(200).optional(),
  product: z.string().trim().min(1).max(200).optional(),
});
export type StripeListInput = z.output<typeof stripeListBodySchema>;
