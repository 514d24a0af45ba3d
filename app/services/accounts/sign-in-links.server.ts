/**
 * Sign-in links (decision 041): past its ceiling of failed passwords, an account's right password
 * from a browser that never signed in to it gets no session; a link is mailed to the account's
 * address instead. The link only shows a page (decision 024); that page's POST signs the browser
 * in, once, within 15 minutes. Only the token's sha256 is stored.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { db } from "~/db/client.server";
import { signInLinks, users } from "~/db/schema";
import { plausibleToken, sha256, toUser, type User } from "./accounts.server";
import { InvalidError } from "~/services/core";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { tryConsume } from "~/services/core/index.server";

/** Long enough to switch to the mailbox and back; short enough that an old mail is useless. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;

/**
 * Mails the account a link that finishes this sign-in. Silent past 5 links an hour (someone who
 * knows the password could otherwise fill the mailbox); the page says the same either way.
 */
export async function mailSignInLink(user: User, redirectTo: string): Promise<void> {
  if (!(await tryConsume("signInLinkMails", user.id))) return;
  const token = randomBytes(32).toString("base64url");
  const mailId = await db().transaction(async (tx) => {
    await tx.insert(signInLinks).values({
      tokenHash: sha256(token),
      userId: user.id,
      redirectTo,
      expiresAt: new Date(Date.now() + SIGN_IN_LINK_TTL_MS),
    });
    return queueMail(tx, {
      to: user.email,
      subject: "Finish signing in to StackShift",
      awaited: true,
      text: [
        `Hello ${user.name},`,
        "",
        "Your StackShift account has had many failed sign-ins lately, so the right password from a browser that has not signed in to it before also needs this link. Open it within 15 minutes and press the button to finish signing in:",
        "",
        absoluteUrl(`/auth/sign-in/${token}`),
        "",
        "If you did not just sign in, someone else knows your password: choose a new one with 'Forgot password' on the login page. That also signs out every session and revokes every API token of the account.",
      ].join("\n"),
      secrets: [token],
    });
  });
  await dispatchMail([mailId]);
}

const invalid = () =>
  new InvalidError(
    "This sign-in link is invalid or has expired (it works once, for 15 minutes). Log in again to get a new one.",
  );

/** The account a sign-in link names while it still works. Reads only. */
export async function pendingSignInLink(token: string): Promise<{ email: string } | null> {
  if (!plausibleToken(token)) return null;
  const [row] = await db()
    .select({ email: users.email })
    .from(signInLinks)
    .innerJoin(users, eq(users.id, signInLinks.userId))
    .where(
      and(
        eq(signInLinks.tokenHash, sha256(token)),
        isNull(signInLinks.usedAt),
        gt(signInLinks.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

/** Spends a sign-in link (its page's POST): the account to sign in and where to go then. */
export async function spendSignInLink(token: string): Promise<{ user: User; redirectTo: string }> {
  if (!plausibleToken(token)) throw invalid();
  const now = new Date();
  const [link] = await db()
    .update(signInLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(signInLinks.tokenHash, sha256(token)),
        isNull(signInLinks.usedAt),
        gt(signInLinks.expiresAt, now),
      ),
    )
    .returning();
  if (!link) throw invalid();
  const [row] = await db().select().from(users).where(eq(users.id, link.userId));
  if (!row) throw invalid();
  return { user: toUser(row), redirectTo: link.redirectTo };
}

/** Housekeeping (the accounts.purge job): links a day past their expiry. */
export async function purgeSignInLinks() {
  await db()
    .delete(signInLinks)
    .where(lt(signInLinks.expiresAt, new Date(Date.now() - 24 * 60 * 60 * 1000)));
}
