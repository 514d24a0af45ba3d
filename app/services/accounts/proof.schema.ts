import { z } from "zod";

/** The forms of /auth/confirm (app/routes/auth.confirm.tsx): one proof each. */
export const CONFIRM_INTENTS = { password: "confirm-password", code: "confirm-code" } as const;

const returnTo = z.string().max(2000).optional();

export const confirmPasswordSchema = z.object({
  password: z
    .string({ error: "Enter your password" })
    .min(1, "Enter your password")
    .max(200, "Password is too long"),
  returnTo,
});

export const confirmCodeSchema = z.object({
  code: z
    .string({ error: "Enter a code" })
    .trim()
    .min(1, "Enter a code")
    .max(64, "This is longer than any code"),
  returnTo,
});
