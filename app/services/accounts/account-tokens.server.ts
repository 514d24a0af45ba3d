/**
 * Password resets and the accounts' token housekeeping: the reset job, the link's check, the new
 * password, and the hourly purge of spent tokens and rate-limit counters. Sign-up, confirmation
 * and sign-in are accounts.server.ts.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { db } from "~/db/client.server";
import { emailVerifications, passwordResets, users } from "~/db/schema";
import { enqueue } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { endEveryAccess, type AccessEnded } from "./account-access.server";
import { plausibleToken, sha256, toUser, type User } from "./accounts.server";
import { InvalidError } from "~/services/core";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { hashPassword } from "./passwords.server";
import { purgeRateLimits, tryConsume } from "~/services/core/index.server";
import { purgeSignInLinks } from "./sign-in-links.server";

const RESET_TTL_MS = 60 * 60 * 1000;

/**
 * The password-reset job: mails a reset link if the account exists and the address has not had
 * too many resets lately. The page answers the same at once whatever happens here.
 */
export async function requestPasswordReset(address: string) {
  const user = await db().query.users.findFirst({
    where: eq(users.email, address.toLowerCase()),
  });
  if (!user) return;
  if (!(await tryConsume("resetMails", user.email))) return;
  const token = randomBytes(32).toString("base64url");
  const mailId = await db().transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      tokenHash: sha256(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_TTL_MS),
    });
    const link = absoluteUrl(`/auth/reset/${token}`);
    // An address never confirmed (an account from before confirmation) gets no typed name
    // (decision 028): whoever made the account chose it, perhaps for a stranger's mailbox.
    const greeting = user.emailVerifiedAt ? `Hello ${user.name},` : "Hello,";
    return queueMail(tx, {
      to: user.email,
      subject: "Reset your StackShift password",
      awaited: true,
      text: `${greeting}\n\nSomeone asked to reset the password of your StackShift account. Open this link within an hour to choose a new one:\n\n${link}\n\nIf it was not you, ignore this email.`,
      secrets: [token],
    });
  });
  await dispatchMail([mailId]);
}

export const PASSWORD_RESET_JOB = "accounts.password-reset";

/** Queues the reset work, so the forgot page answers in the same time for every address. */
export async function queuePasswordReset(address: string) {
  await enqueue(PASSWORD_RESET_JOB, { email: address.toLowerCase() });
}

export async function resetTokenIsValid(token: string) {
  if (!plausibleToken(token)) return false;
  const row = await db().query.passwordResets.findFirst({
    where: and(
      eq(passwordResets.tokenHash, sha256(token)),
      isNull(passwordResets.usedAt),
      gt(passwordResets.expiresAt, new Date()),
    ),
  });
  return Boolean(row);
}

/**
 * Sets the new password, spends every reset token of the account, ends all its sessions and
 * revokes its API tokens (decision 040), in one transaction. The token is checked before the
 * (deliberately slow) password hash is computed.
 */
export async function resetPassword(
  token: string,
  newPassword: string,
): Promise<{ user: User; ended: AccessEnded }> {
  const invalid = () =>
    new InvalidError("This reset link is invalid or has expired. Request a new one.");
  if (!(await resetTokenIsValid(token))) throw invalid();
  const passwordHash = await hashPassword(newPassword);
  return db().transaction(async (tx) => {
    const now = new Date();
    const [reset] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResets.tokenHash, sha256(token)),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, now),
        ),
      )
      .returning();
    if (!reset) throw invalid();
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
    // Opening the mailed link proves the address too (`npm run accounts:unproven` lists no more).
    const [row] = await tx
      .update(users)
      .set({ passwordHash, emailVerifiedAt: now, updatedAt: now })
      .where(eq(users.id, reset.userId))
      .returning();
    const ended = await endEveryAccess(tx, reset.userId);
    return { user: toUser(row), ended };
  });
}

/** Housekeeping of the accounts tables (the accounts.purge job). */
export async function purgeAccountTokens() {
  const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000);
  await db().delete(passwordResets).where(lt(passwordResets.expiresAt, dayAgo));
  await db().delete(emailVerifications).where(lt(emailVerifications.expiresAt, dayAgo));
}

export const accountJobs: JobDefinition[] = [
  {
    name: PASSWORD_RESET_JOB,
    handler: async (data) => {
      if (typeof data.email === "string") await requestPasswordReset(data.email);
    },
  },
  {
    name: "accounts.purge",
    schedule: "17 * * * *",
    handler: async () => {
      await purgeAccountTokens();
      await purgeSignInLinks();
      await purgeRateLimits();
    },
  },
];
