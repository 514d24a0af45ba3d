/**
 * What second factors an account has, and `users.two_factor_since`, the one flag every check
 * reads (User.hasSecondFactor): set when the first factor arrives, cleared when the last goes,
 * always in the transaction that adds or removes the factor.
 */
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { passkeys, recoveryCodes, totpFactors, users } from "~/db/schema";

/** Recomputes the account's flag from its factors' rows; true when it has one now. */
export async function refreshTwoFactorSince(tx: Queryable, userId: string): Promise<boolean> {
  const [row] = await tx
    .update(users)
    .set({
      twoFactorSince: sql`case
        when exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${userId})
          or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})
        then coalesce(${users.twoFactorSince}, now()) else null end`,
    })
    .where(eq(users.id, userId))
    .returning({ since: users.twoFactorSince });
  return Boolean(row?.since);
}

export type FactorsView = {
  /** The authenticator app, since when. */
  totp: { since: string } | null;
  passkeys: number;
  /** Unused recovery codes left; null when none were ever made. */
  recoveryCodesLeft: number | null;
};

export async function factorsOf(userId: string, store: Queryable = db()): Promise<FactorsView> {
  const [[totp], [keys], [codes], [unused]] = await Promise.all([
    store
      .select({ since: totpFactors.createdAt })
      .from(totpFactors)
      .where(eq(totpFactors.userId, userId)),
    store.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)),
    store.select({ n: count() }).from(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    store
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))),
  ]);
  return {
    totp: totp ? { since: totp.since.toISOString() } : null,
    passkeys: keys?.n ?? 0,
    recoveryCodesLeft: codes && codes.n > 0 ? (unused?.n ?? 0) : null,
  };
}

/**
 * After a factor's row was deleted (in `tx`): the flag follows, and with no factor left the
 * recovery codes go too (they stood in for a factor the account no longer has). True when a
 * factor is left.
 */
export async function afterFactorRemoved(tx: Queryable, userId: string): Promise<boolean> {
  const left = await refreshTwoFactorSince(tx, userId);
  if (!left) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  return left;
}
