import { z } from "zod";

/**
 * Input rules of the second-factor forms, shared by the actions and the forms. One field takes a
 * code from the authenticator app or a recovery code, however it is spaced.
 */
export const codeSchema = z.object({
  code: z
    .string({ error: "Enter the code from your authenticator app, or a recovery code" })
    .trim()
    .min(6, "Enter the code from your authenticator app, or a recovery code")
    .max(40, "This is longer than any code"),
});

/** The first code from the app, proving it holds the secret the set-up page shows. */
export const enableTotpSchema = z.object({
  code: z
    .string({ error: "Enter the 6-digit code your app shows" })
    .trim()
    .regex(/^\d{3} ?\d{3}$/, "Enter the 6-digit code your app shows"),
});
