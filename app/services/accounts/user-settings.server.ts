/**
 * A user's own settings: name, e-mail (with the current password; changed once the new address's
 * link is confirmed from a browser signed in to the account; the old address may revert it),
 * password (with the current one; other sessions end), the active sessions (each can be signed
 * out), the studio splash preference, and deleting the account (with the password; refused while
 * it owns projects). Wrong current passwords count like failed logins.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { emailChanges, members, projects, sessions, users } from "~/db/schema";
import { endEveryAccess, type AccessEnded } from "./account-access.server";
import { checkCurrentPassword, type User } from "./accounts.server";
import { logEvent } from "~/services/activity/index.server";
import { ConflictError, InvalidError, NotFoundError } from "~/services/core";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { hashPassword } from "./passwords.server";
import { consume } from "~/services/core/index.server";
import { sessionRowId } from "./sessions.server";
import {
  queueStudioAddressChange,
  queueStudioSyncForAccount,
} from "~/services/studio/index.server";

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;
/** How long the old address may undo a change (the notice's link). */
export const EMAIL_REVERT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * What proves the signed-in person holds the account before a change that could take it over:
 * the current password, or for an account without one a single sign-on within the last minutes.
 */
export type Reauth = { currentPassword?: string; ssoFresh: boolean; clientIp: string };

async function assertHolder(user: User, reauth: Reauth, field = "currentPassword") {
  const [row] = await db()
    .select({ hash: users.passwordHash, oidcSubject: users.oidcSubject })
    .from(users)
    .where(eq(users.id, user.id));
  if (!row) throw new NotFoundError("Account not found");
  if (!row.hash && !row.oidcSubject) {
    // Neither a password (an undone e-mail change voids it) nor single sign-on: a reset first.
    throw new InvalidError(NO_PASSWORD, { [field]: [NO_PASSWORD] });
  }
  if (!row.hash) {
    if (!reauth.ssoFresh) {
      throw new InvalidError(SSO_AGAIN, { [field]: [SSO_AGAIN] });
    }
    return;
  }
  if (!reauth.currentPassword) {
    throw new InvalidError("Enter your current password", {
      [field]: ["Enter your current password"],
    });
  }
  await checkCurrentPassword(user.id, reauth.currentPassword, reauth.clientIp, field);
}

export const SSO_AGAIN =
  "Sign in with single sign-on again first ('Sign in again with single sign-on' under Profile); then you have 10 minutes.";

/** An account without a password and without single sign-on (an undone e-mail change voids it). */
export const NO_PASSWORD =
  "Your account has no password now: choose one with 'Forgot password' on the login page first.";

export type AccountView = {
  name: string;
  email: string;
  /** Signed in through single sign-on without a password of ours: the password is managed there. */
  ssoOnly: boolean;
  /** The account has a password of ours (none after an undone e-mail change, until a reset). */
  hasPassword: boolean;
  /** A single sign-on identity is linked to the account. */
  ssoLinked: boolean;
  hideStudioSplash: boolean;
  /** An address waiting for its confirmation link, if any. */
  pendingEmail: string | null;
};

export async function getAccount(user: User): Promise<AccountView> {
  const [row] = await db().select().from(users).where(eq(users.id, user.id));
  if (!row) throw new NotFoundError("Account not found");
  const [pending] = await db()
    .select({ newEmail: emailChanges.newEmail })
    .from(emailChanges)
    .where(
      and(
        eq(emailChanges.userId, user.id),
        isNull(emailChanges.usedAt),
        gt(emailChanges.expiresAt, new Date()),
      ),
    )
    .orderBy(sql`${emailChanges.createdAt} desc`)
    .limit(1);
  return {
    name: row.name,
    email: row.email,
    ssoOnly: !row.passwordHash && Boolean(row.oidcSubject),
    hasPassword: Boolean(row.passwordHash),
    ssoLinked: Boolean(row.oidcSubject),
    hideStudioSplash: row.hideStudioSplash,
    pendingEmail: pending?.newEmail ?? null,
  };
}

export async function updateName(user: User, name: string): Promise<void> {
  await db().update(users).set({ name, updatedAt: new Date() }).where(eq(users.id, user.id));
}

/**
 * Mails a confirmation link to the new address, after the current password (or a fresh single
 * sign-on); the account's address changes only when that link's page is confirmed from a browser
 * signed in to this account (so nobody moves an account to an address they do not read, and a
 * scanner opening the link changes nothing). An address another account uses is refused here,
 * and again when the change applies.
 */
export async function requestEmailChange(
  user: User,
  newEmail: string,
  reauth: Reauth,
): Promise<void> {
  const address = newEmail.trim().toLowerCase();
  if (address === user.email) {
    throw new InvalidError("This is already your address", {
      email: ["This is already your address"],
    });
  }
  await assertHolder(user, reauth);
  const [taken] = await db().select({ id: users.id }).from(users).where(eq(users.email, address));
  if (taken) {
    throw new InvalidError("Another account uses this address", {
      email: ["Another account uses this address"],
    });
  }
  // Each request mails a stranger's mailbox: limited per user (a relay would need many), and per
  // address like every confirmation mail. Both waits are shown beside the Email field.
  await consume("emailChangeUser", user.id, {
    what: "Too many e-mail changes asked today.",
    field: "email",
  });
  await consume("verificationMails", address, {
    what: `Too many mails to ${address}.`,
    field: "email",
  });
  const token = randomBytes(32).toString("base64url");
  const mailId = await db().transaction(async (tx) => {
    await tx.insert(emailChanges).values({
      tokenHash: sha256(token),
      userId: user.id,
      newEmail: address,
      expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_MS),
    });
    const link = absoluteUrl(`/auth/email-change/${token}`);
    return queueMail(tx, {
      to: address,
      subject: "Confirm your new StackShift e-mail address",
      awaited: true,
      text: `Hello,\n\nOpen this link within 24 hours, in the browser where you asked for this change while signed in to StackShift, and confirm to make ${address} the e-mail address of that account:\n\n${link}\n\nIf you did not ask for this, ignore this email; nothing changes.`,
      secrets: [token],
    });
  });
  await dispatchMail([mailId]);
}

/**
 * A person's member rows follow their address, so invitations and claims find the person, not an
 * address they left (a later account there claims only rows still `invited` without a user). An
 * open invitation to the new address in a project the person is already in is spent.
 */
async function moveMemberRows(tx: Queryable, userId: string, address: string) {
  await tx.execute(sql`
    delete from ${members} m
     where m.invited_email = ${address} and m.user_id is null and m.status = 'invited'
       and exists (select 1 from ${members} o where o.project_id = m.project_id and o.user_id = ${userId})`);
  await tx.execute(sql`
    update ${members} set invited_email = ${address}, updated_at = now()
     where user_id = ${userId}
       and not exists (select 1 from ${members} o
                        where o.project_id = ${members.projectId} and o.invited_email = ${address})`);
}

const plausibleToken = (token: string) => token.length > 0 && token.length <= 200;

/**
 * The e-mail change a mailed link names while that link still works: the confirmation link (to
 * the new address) until used or expired, the revert link (to the old one) for 7 days after.
 */
async function liveChange(token: string, link: "confirm" | "revert") {
  if (!plausibleToken(token)) return undefined;
  const [hash, done, expires] =
    link === "confirm"
      ? [emailChanges.tokenHash, emailChanges.usedAt, emailChanges.expiresAt]
      : [emailChanges.revertTokenHash, emailChanges.revertedAt, emailChanges.revertExpiresAt];
  const [row] = await db()
    .select()
    .from(emailChanges)
    .where(and(eq(hash, sha256(token)), isNull(done), gt(expires, new Date())));
  return row;
}

/** The change a confirmation link names, while it can still be confirmed. Reads only. */
export async function pendingEmailChange(token: string) {
  const row = await liveChange(token, "confirm");
  return row ? { userId: row.userId, newEmail: row.newEmail } : null;
}

/**
 * Confirms a change from its link's page (a POST from a browser signed in to the account that
 * asked): the address becomes the new one, the person's member rows follow it, every other session
 * of the account ends, and the old address gets a notice with a link that reverts the change
 * within 7 days.
 */
export async function confirmEmailChange(
  token: string,
  user: User,
  currentSessionId: string,
): Promise<{ email: string }> {
  const invalid = () =>
    new InvalidError(
      "This confirmation link is invalid or has expired. Ask for a new one in your settings.",
    );
  if (!plausibleToken(token)) throw invalid();
  const revertToken = randomBytes(32).toString("base64url");
  let mailId: string;
  let email: string;
  try {
    ({ mailId, email } = await db().transaction(async (tx) => {
      const now = new Date();
      const [change] = await tx
        .update(emailChanges)
        .set({
          usedAt: now,
          revertTokenHash: sha256(revertToken),
          revertExpiresAt: new Date(now.getTime() + EMAIL_REVERT_TTL_MS),
        })
        .where(
          and(
            eq(emailChanges.tokenHash, sha256(token)),
            eq(emailChanges.userId, user.id),
            isNull(emailChanges.usedAt),
            gt(emailChanges.expiresAt, now),
          ),
        )
        .returning();
      if (!change) throw invalid();
      const [before] = await tx
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(eq(users.id, user.id))
        .for("update");
      if (!before) throw invalid();
      await tx
        .update(emailChanges)
        .set({ oldEmail: before.email })
        .where(eq(emailChanges.tokenHash, change.tokenHash));
      await tx
        .update(users)
        .set({ email: change.newEmail, emailVerifiedAt: now, updatedAt: now })
        .where(eq(users.id, user.id));
      await moveMemberRows(tx, user.id, change.newEmail);
      await queueStudioAddressChange(tx, user.id, before.email, change.newEmail);
      await tx
        .delete(sessions)
        .where(and(eq(sessions.userId, user.id), ne(sessions.id, sessionRowId(currentSessionId))));
      const link = absoluteUrl(`/auth/email-revert/${revertToken}`);
      const id = await queueMail(tx, {
        to: before.email,
        subject: "Your StackShift e-mail address was changed",
        text: `Hello ${before.name},\n\nThe e-mail address of your StackShift account was changed from ${before.email} to ${change.newEmail}, and every other session of the account was signed out.\n\nIf this was not you, open this link within 7 days to restore ${before.email} and sign out every session:\n\n${link}\n\nThen choose a new password with "Forgot password".`,
        secrets: [revertToken],
      });
      return { mailId: id, email: change.newEmail };
    }));
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ConflictError("Another account took this address meanwhile");
    throw error;
  }
  await dispatchMail([mailId]);
  return { email };
}

/** The applied change a revert link names, while it can still be reverted. Reads only. */
export async function pendingRevert(token: string) {
  const row = await liveChange(token, "revert");
  return row?.oldEmail ? { oldEmail: row.oldEmail, newEmail: row.newEmail } : null;
}

/**
 * Reverts an applied change from the old address's notice (a POST from its page): the old address
 * comes back (proved again by this mail), member rows follow, every session of the account ends,
 * its API tokens are revoked, its password stops working (whoever moved the address may have set
 * it: the owner chooses a new one with Forgot password) and waiting changes are spent. Refused
 * when another account took the old address meanwhile.
 */
export async function revertEmailChange(
  token: string,
): Promise<{ email: string; ended: AccessEnded }> {
  const invalid = () =>
    new InvalidError("This link is invalid or has expired (it works once, for 7 days).");
  if (!plausibleToken(token)) throw invalid();
  try {
    return await db().transaction(async (tx) => {
      const now = new Date();
      const [change] = await tx
        .update(emailChanges)
        .set({ revertedAt: now })
        .where(
          and(
            eq(emailChanges.revertTokenHash, sha256(token)),
            isNull(emailChanges.revertedAt),
            gt(emailChanges.revertExpiresAt, now),
          ),
        )
        .returning();
      if (!change?.oldEmail) throw invalid();
      const [current] = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, change.userId));
      await tx
        .update(users)
        .set({ email: change.oldEmail, emailVerifiedAt: now, passwordHash: null, updatedAt: now })
        .where(eq(users.id, change.userId));
      await moveMemberRows(tx, change.userId, change.oldEmail);
      if (current && current.email !== change.oldEmail) {
        await queueStudioAddressChange(tx, change.userId, current.email, change.oldEmail);
      }
      const ended = await endEveryAccess(tx, change.userId);
      await tx
        .update(emailChanges)
        .set({ usedAt: now })
        .where(and(eq(emailChanges.userId, change.userId), isNull(emailChanges.usedAt)));
      return { email: change.oldEmail, ended };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError(
        "Another account uses this address now, so it cannot be restored. Contact support.",
      );
    }
    throw error;
  }
}

/**
 * Changes the password after checking the current one; every other session of the account ends
 * (this one stays signed in) and its API tokens are revoked (decision 040).
 */
export async function changePassword(
  user: User,
  currentSessionId: string,
  input: { currentPassword: string; newPassword: string },
  clientIp = "unknown",
): Promise<AccessEnded> {
  await checkCurrentPassword(user.id, input.currentPassword, clientIp);
  const passwordHash = await hashPassword(input.newPassword);
  return db().transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    return endEveryAccess(tx, user.id, { keepSessionRowId: sessionRowId(currentSessionId) });
  });
}

/** A session as the list shows it; `handle` names it without revealing its secret id. */
export type SessionView = {
  handle: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  current: boolean;
};

const handleOf = (id: string) => sha256(`session:${id}`).slice(0, 24);

export async function listSessions(user: User, currentSessionId: string): Promise<SessionView[]> {
  const rows = await db()
    .select({
      id: sessions.id,
      data: sessions.data,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, new Date())))
    .orderBy(asc(sessions.createdAt));
  return rows.map((r) => ({
    handle: handleOf(r.id),
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    userAgent: typeof r.data.userAgent === "string" ? r.data.userAgent : null,
    current: r.id === sessionRowId(currentSessionId),
  }));
}

/** Signs out one of the user's sessions (not this one: that is Log out). */
export async function signOutSession(
  user: User,
  currentSessionId: string,
  handle: string,
): Promise<void> {
  const rows = await db()
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, user.id));
  const current = sessionRowId(currentSessionId);
  const target = rows.find((r) => handleOf(r.id) === handle && r.id !== current);
  if (!target) throw new NotFoundError("This session has ended already");
  await db()
    .delete(sessions)
    .where(and(eq(sessions.id, target.id), eq(sessions.userId, user.id)));
}

/**
 * 'Sign out everywhere else': every other session ends and the account's API tokens are revoked
 * (decision 040), since a session that is not the person's may have made some.
 */
export async function signOutOtherSessions(
  user: User,
  currentSessionId: string,
): Promise<AccessEnded> {
  return db().transaction((tx) =>
    endEveryAccess(tx, user.id, { keepSessionRowId: sessionRowId(currentSessionId) }),
  );
}

/**
 * Deletes the account, its memberships and sessions, and says so in the Activity Log of each
 * project it was a member of. Needs the password (an account without one: its address typed and a
 * fresh single sign-on). Refused while it owns projects (their names are said): ownership moves
 * first, or the projects are deleted.
 */
export async function deleteAccount(
  user: User,
  confirmation: Reauth & { typedEmail?: string },
): Promise<void> {
  const [row] = await db()
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  if (row && !row.hash && confirmation.typedEmail?.trim().toLowerCase() !== user.email) {
    throw new InvalidError("Type your e-mail address to confirm", {
      typedEmail: ["Type your e-mail address to confirm"],
    });
  }
  await assertHolder(user, confirmation, row?.hash ? "currentPassword" : "typedEmail");
  const owned = await db()
    .select({ name: projects.name })
    .from(projects)
    .where(eq(projects.ownerId, user.id))
    .orderBy(asc(projects.name))
    .limit(11);
  if (owned.length > 0) {
    const names = owned.slice(0, 10).map((p) => p.name);
    const more = owned.length > 10 ? " and more" : "";
    throw new ConflictError(
      `You own ${names.join(", ")}${more}. Transfer or delete ${owned.length === 1 ? "it" : "them"} first.`,
    );
  }
  await db().transaction(async (tx) => {
    const memberships = await tx
      .select({ projectId: members.projectId })
      .from(members)
      .where(and(eq(members.userId, user.id), eq(members.status, "accepted")));
    for (const m of memberships) {
      await logEvent(tx, {
        projectId: m.projectId,
        type: "members.leaved",
        content: `${user.name || user.email} deleted their account and left the project`,
        actorId: user.id,
      });
    }
    await queueStudioSyncForAccount(tx, user);
    await tx.delete(users).where(eq(users.id, user.id));
  });
}
