import { z } from "zod";

/**
 * An e-mail address as every form reads it: trimmed, at most 254 characters, valid, lowercase.
 * A module of its own: other areas' forms (the invite form) use it without making the account
 * forms' schemas when their page loads.
 */
export const email = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email is too long")
  .pipe(z.email("Enter a valid email address"))
  .transform((e) => e.toLowerCase());
