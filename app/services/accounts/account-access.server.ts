/**
 * Recovery ends every access (docs/decisions/040-recovery-ends-every-access.md). A password reset,
 * a password change, the e-mail revert and 'Sign out everywhere else' are what a person does who
 * fears someone else is in their account: each ends every session but the one asking (when it
 * asks from inside the account) and revokes every personal access token, which a stolen session
 * could have made and which would otherwise outlive the recovery by up to a year.
 */
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { Queryable } from "~/db/client.server";
import { apiTokens, sessions } from "~/db/schema";

export type AccessEnded = { sessions: number; tokens: number };

/**
 * Ends the account's sessions (all of them, or all but `keepSessionRowId`: a row id, the sha256
 * of the cookie's session id, see sessionRowId) and revokes its active tokens as revoked by the
 * owner. Runs in the caller's transaction, so it commits with the change that recovers the
 * account or not at all. Says how many of each ended, for the page to tell the owner.
 */
export async function endEveryAccess(
  tx: Queryable,
  userId: string,
  { keepSessionRowId }: { keepSessionRowId?: string } = {},
): Promise<AccessEnded> {
  const now = new Date();
  const ended = await tx
    .delete(sessions)
    .where(
      keepSessionRowId
        ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionRowId))
        : eq(sessions.userId, userId),
    )
    .returning({ id: sessions.id });
  const revoked = await tx
    .update(apiTokens)
    .set({ revokedAt: now, revokedBy: userId })
    .where(
      and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, now)),
    )
    .returning({ id: apiTokens.id });
  return { sessions: ended.length, tokens: revoked.length };
}
