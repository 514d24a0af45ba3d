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
