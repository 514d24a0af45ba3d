/**
 * The unsubscribe link of notification mails: a random token mailed once, kept as its sha256
 * (as sign-in and e-mail change links are), that turns off one person's mails of one project.
 * Opening the link only shows what it turns off; its POST does it (decision 024), and so does
 * the one-click POST of RFC 8058 that mail programs send to the List-Unsubscribe address.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { notificationUnsubscribeTokens, projects, users } from "~/db/schema";
import { plausibleToken, sha256 } from "~/services/accounts/index.server";
import { InvalidError } from "~/services/core";
import { absoluteUrl } from "~/services/core/index.server";
import { UNUSABLE_UNSUBSCRIBE } from "./schema";
import { setProjectMode } from "./settings.server";

/** A mail may sit unread for weeks; its link still works for 90 days. */
export const UNSUBSCRIBE_TTL_MS = 90 * 24 * 60 * 60 * 1000;

export const unsubscribePath = (token: string) => `/notifications/unsubscribe/${token}`;

/** A new link for one person and project, in the mail's transaction: its token and address. */
export async function newUnsubscribeLink(tx: Queryable, userId: string, projectId: string) {
  const token = randomBytes(32).toString("base64url");
  await tx.insert(notificationUnsubscribeTokens).values({
    tokenHash: sha256(token),
    userId,
    projectId,
    expiresAt: new Date(Date.now() + UNSUBSCRIBE_TTL_MS),
  });
  return { token, url: absoluteUrl(unsubscribePath(token)) };
}

/** What a link would turn off, or null for a token that is unknown or expired. */
export async function pendingUnsubscribe(token: string) {
  if (!plausibleToken(token)) return null;
  const [row] = await db()
    .select({
      userId: notificationUnsubscribeTokens.userId,
      projectId: notificationUnsubscribeTokens.projectId,
      email: users.email,
      projectName: projects.name,
    })
    .from(notificationUnsubscribeTokens)
    .innerJoin(users, eq(users.id, notificationUnsubscribeTokens.userId))
    .innerJoin(projects, eq(projects.id, notificationUnsubscribeTokens.projectId))
    .where(
      and(
        eq(notificationUnsubscribeTokens.tokenHash, sha256(token)),
        gt(notificationUnsubscribeTokens.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

/**
 * Turns off every notification mail of the link's project to the link's person (the project's
 * choice becomes 'Nothing'). Using the link again changes nothing more.
 */
export async function unsubscribe(token: string) {
  const pending = await pendingUnsubscribe(token);
  if (!pending) throw new InvalidError(UNUSABLE_UNSUBSCRIBE);
  await setProjectMode(db(), pending.userId, pending.projectId, "none");
  return { email: pending.email, projectName: pending.projectName };
}

/** Housekeeping: expired links go (the notifications.purge job). */
export async function purgeUnsubscribeTokens() {
  await db()
    .delete(notificationUnsubscribeTokens)
    .where(lt(notificationUnsubscribeTokens.expiresAt, new Date()));
}
