/**
 * The second step of a sign-in, and of a proof before the irreversible: a code from the
 * authenticator app or a recovery code, typed into one field. Wrong codes count exactly like
 * wrong passwords of the account from the client's address (the same counters, decision 004), so
 * the six digits cannot be searched: at 5 tries per address per lockout window, a million codes
 * are out of reach.
 */
import { db } from "~/db/client.server";
import { InvalidError } from "~/services/core";
import { reserveLoginTry } from "~/services/core/index.server";
import {
  issueRecoveryCodes,
  looksLikeRecoveryCode,
  spendRecoveryCode,
} from "./recovery-codes.server";
import { spendTotpCode } from "./totp.server";
import { refreshTwoFactorSince } from "./factors.server";

export type SecondFactorUsed = { method: "totp" } | { method: "recovery"; left: number };

export const WRONG_CODE = "This code is not right, or it was used already";

/**
 * Checks `typed` for the account; throws InvalidError (beside the field `code`) when it is not a
 * code the account may use now, RateLimitedError when too many were wrong.
 */
export async function checkSecondFactor(
  account: { id: string; email: string },
  typed: string,
  clientIp: string,
): Promise<SecondFactorUsed> {
  const attempt = await reserveLoginTry(account.email, clientIp);
  let used: SecondFactorUsed | null = null;
  if (looksLikeRecoveryCode(typed)) {
    const spent = await spendRecoveryCode(account.id, typed);
    if (spent.ok) used = { method: "recovery", left: spent.left };
  } else if (await spendTotpCode(account.id, typed)) {
    used = { method: "totp" };
  }
  if (!used) {
    await attempt.failed();
    throw new InvalidError(WRONG_CODE, { code: [WRONG_CODE] });
  }
  await attempt.succeeded();
  return used;
}

/** A new set of ten recovery codes (the caller asked for a recent proof); the old set stops working. */
export async function makeNewRecoveryCodes(user: { id: string }): Promise<string[]> {
  return db().transaction(async (tx) => {
    if (!(await refreshTwoFactorSince(tx, user.id))) {
      throw new InvalidError("Set up an authenticator app or a passkey first");
    }
    return issueRecoveryCodes(tx, user.id);
  });
}
