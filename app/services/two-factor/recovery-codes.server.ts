/**
 * Recovery codes: ten single-use codes, shown once when made, for signing in without the
 * authenticator app or the passkey. A code is 16 base32 characters (80 random bits) shown as four
 * groups; only sha256(user id, code) is kept, so a leaked table yields no usable code (80 bits
 * cannot be searched) and a code of one account means nothing for another.
 */
import { createHash, randomBytes } from "node:crypto";
import base32Encode from "base32-encode";
import { and, eq, isNull } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { recoveryCodes } from "~/db/schema";

export const RECOVERY_CODE_COUNT = 10;

const codeHash = (userId: string, code: string) =>
  createHash("sha256").update(`${userId}:${code}`, "utf8").digest("hex");

/** Lower case, without spaces and dashes: how a code is compared, however it was typed. */
export function normalizeRecoveryCode(typed: string) {
  return typed.toLowerCase().replace(/[\s-]/g, "");
}

/** Could this be a recovery code (rather than a 6-digit code from the app)? */
export const looksLikeRecoveryCode = (typed: string) =>
  /^[a-z2-7]{16}$/.test(normalizeRecoveryCode(typed));

function newCode() {
  const plain = base32Encode(randomBytes(10), "RFC4648", { padding: false }).toLowerCase();
  return plain.match(/.{4}/g)!.join("-");
}

/**
 * A new set of codes for the account, replacing every earlier one (used or not). Returns the
 * codes: the only time they exist outside the person's hands.
 */
export async function issueRecoveryCodes(tx: Queryable, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values(
      codes.map((code) => ({ userId, codeHash: codeHash(userId, normalizeRecoveryCode(code)) })),
    );
  return codes;
}

/**
 * Spends a recovery code: true once per code (two requests with the same code at once: one wins),
 * false for a wrong, used or replaced one. Returns how many unused codes are left.
 */
export async function spendRecoveryCode(
  userId: string,
  typed: string,
): Promise<{ ok: false } | { ok: true; left: number }> {
  const normalized = normalizeRecoveryCode(typed);
  if (!/^[a-z2-7]{16}$/.test(normalized)) return { ok: false };
  return db().transaction(async (tx) => {
    const [spent] = await tx
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, codeHash(userId, normalized)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    if (!spent) return { ok: false as const };
    const left = await tx
      .select({ id: recoveryCodes.id })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return { ok: true as const, left: left.length };
  });
}
