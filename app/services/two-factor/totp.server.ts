/**
 * The authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps, as every app reads a
 * QR code). @epic-web/totp computes and checks the codes; the secret is 20 random bytes (RFC 4226
 * asks for 160 bits; the library's own default is 80), encrypted at rest. A code is accepted for
 * the step before and after the current one (clock drift), and never twice: `last_step` moves
 * forward with each accepted code, in one UPDATE, so the same code sent twice at once wins once.
 */
import { randomBytes } from "node:crypto";
import { getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import base32Encode from "base32-encode";
import { and, eq, lt } from "drizzle-orm";
import QRCode from "qrcode";
import { db } from "~/db/client.server";
import { totpFactors } from "~/db/schema";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import type { User } from "~/services/accounts/index.server";
import { ConflictError, InvalidError, NotFoundError } from "~/services/core";
import { afterFactorRemoved, refreshTwoFactorSince } from "./factors.server";
import { issueRecoveryCodes } from "./recovery-codes.server";

const PERIOD = 30;
const DIGITS = 6;
const ALGORITHM = "SHA-1";

/** A fresh secret, base32 (what apps take typed in). */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20), "RFC4648", { padding: false });
}

export const isTotpSecret = (value: unknown): value is string =>
  typeof value === "string" && /^[A-Z2-7]{32}$/.test(value);

/** What the set-up page shows: the QR code (an SVG) and the key in groups of four, to type. */
export async function totpSetupView(user: User, secret: string) {
  const uri = getTOTPAuthUri({
    period: PERIOD,
    digits: DIGITS,
    algorithm: ALGORITHM,
    secret,
    accountName: user.email,
    issuer: "StackShift",
  });
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { qrSvg, key: secret.match(/.{4}/g)!.join(" "), uri };
}

const currentStep = (now: number) => Math.floor(now / 1000 / PERIOD);

/** The step a code is valid for (now, or one step either side), or null. */
async function stepOf(secret: string, code: string, now = Date.now()): Promise<number | null> {
  const digits = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(digits)) return null;
  const result = await verifyTOTP({
    otp: digits,
    secret,
    period: PERIOD,
    digits: DIGITS,
    algorithm: ALGORITHM,
    window: 1,
  });
  return result ? currentStep(now) + result.delta : null;
}

export const CODE_NOT_RIGHT = "This code is not right. Check the time on your phone and try again.";

/**
 * Turns the authenticator app on once the person typed a code it made for `secret` (proving the
 * app has it). The first factor of the account comes with ten recovery codes, returned here to be
 * shown once; null when the account had codes already (a passkey came first).
 */
export async function enableTotp(
  user: User,
  secret: string,
  code: string,
): Promise<{ recoveryCodes: string[] | null }> {
  if (!isTotpSecret(secret)) throw new InvalidError("Start the set-up again");
  const step = await stepOf(secret, code);
  if (step === null) throw new InvalidError(CODE_NOT_RIGHT, { code: [CODE_NOT_RIGHT] });
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(totpFactors)
      .values({ userId: user.id, secret: encryptSecret(secret), lastStep: step })
      .onConflictDoNothing()
      .returning({ userId: totpFactors.userId });
    if (!row) {
      throw new ConflictError("An authenticator app is already set up for your account");
    }
    const hadFactor = user.hasSecondFactor === true;
    await refreshTwoFactorSince(tx, user.id);
    const existing = await tx.query.recoveryCodes.findFirst({
      where: (r, { eq: is }) => is(r.userId, user.id),
    });
    return {
      recoveryCodes: hadFactor && existing ? null : await issueRecoveryCodes(tx, user.id),
    };
  });
}

/** Checks a code from the account's app; true at most once per code. */
export async function spendTotpCode(userId: string, code: string, now = Date.now()) {
  const [row] = await db()
    .select({ secret: totpFactors.secret })
    .from(totpFactors)
    .where(eq(totpFactors.userId, userId));
  if (!row) return false;
  const step = await stepOf(decryptSecret(row.secret), code, now);
  if (step === null) return false;
  const [moved] = await db()
    .update(totpFactors)
    .set({ lastStep: step })
    .where(and(eq(totpFactors.userId, userId), lt(totpFactors.lastStep, step)))
    .returning({ userId: totpFactors.userId });
  return Boolean(moved);
}

/**
 * Turns the authenticator app off (the caller asked for a recent proof). With no factor left the
 * recovery codes go too: they stood in for a factor the account no longer has.
 */
export async function disableTotp(user: User): Promise<{ factorLeft: boolean }> {
  return db().transaction(async (tx) => {
    const gone = await tx
      .delete(totpFactors)
      .where(eq(totpFactors.userId, user.id))
      .returning({ userId: totpFactors.userId });
    if (gone.length === 0) throw new NotFoundError("No authenticator app is set up");
    return { factorLeft: await afterFactorRemoved(tx, user.id) };
  });
}
