import { z } from "zod";

/** What marks a StackShift personal access token, so secret scanners can find leaked ones. */
export const TOKEN_PREFIX = "stackshift_pat_";

/** The lifetimes offered; a token always ends (a forgotten script's token does not live forever). */
export const TOKEN_LIFETIME_DAYS = [7, 30, 90, 365] as const;

/**
 * Tokens a person may hold at once (not revoked, not expired). A busy person keeps one per script
 * or CI pipeline, five to fifteen; the cap only stops a runaway script minting tokens.
 */
export const MAX_ACTIVE_TOKENS = 50;

export const TOKEN_SCOPES = ["read", "read-write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const createTokenSchema = z.object({
  name: z
    .string({ error: "Name the token, e.g. after the script that uses it" })
    .trim()
    .min(1, "Name the token, e.g. after the script that uses it")
    .max(60, "At most 60 characters"),
  scope: z.enum(TOKEN_SCOPES, { error: "Choose what the token may do" }),
  lifetimeDays: z.coerce
    .number({ error: "Choose when the token expires" })
    .refine((days) => (TOKEN_LIFETIME_DAYS as readonly number[]).includes(days), {
      message: "Choose when the token expires",
    }),
  /** None chosen: every project the owner can reach. */
  projectIds: z.array(z.uuid("Choose projects from the list")).max(100).default([]),
});
export type CreateTokenInput = z.output<typeof createTokenSchema>;

export const tokenIdSchema = z.object({ tokenId: z.uuid() });

/** A platform admin revoking a token found in the wild: the token itself, pasted. */
export const leakedTokenSchema = z.object({
  token: z
    .string({ error: "Paste the token" })
    .trim()
    .min(1, "Paste the token")
    .max(200, "That is not a StackShift token")
    .refine((t) => t.startsWith(TOKEN_PREFIX), "That is not a StackShift token"),
});
