/**
 * A user's own settings: name, e-mail (changed once the new address confirms a mailed link),
 * password (with the current one; other sessions end), the active sessions (each can be signed
 * out), the studio splash preference, and deleting the account (refused while it owns projects).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { emailChanges, members, projects, sessions, users } from "~/db/schema";
import type { User } from "./accounts.server";
import { logEvent } from "./activity.server";
import { ConflictError, InvalidError, NotFoundError } from "./errors";
import { absoluteUrl, dispatchMail, queueMail } from "./mail.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { consume } from "./rate-limit.server";
import { queueStudioSyncForAccount } from "./studio-access.server";

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

export type AccountView = {
  name: string;
  email: string;
  /** Signed in through single sign-on without a password of ours: the password is managed there. */
  ssoOnly: boolean;
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
    ssoOnly: !row.passwordHash,
    hideStudioSplash: row.hideStudioSplash,
    pendingEmail: pending?.newEmail ?? null,
  };
}

export async function updateName(user: User, name: string): Promise<void> {
  await db().update(users).set({ name, updatedAt: new Date() }).where(eq(users.id, user.id));
}

/**
 * Mails a confirmation link to the new address; the account's address changes only when it is
 * opened (so nobody can move an account to an address they do not read). An address another
 * account uses is refused here, and again when the link is opened.
 */
export async function requestEmailChange(user: User, newEmail: string): Promise<void> {
  const address = newEmail.trim().toLowerCase();
  if (address === user.email) {
    throw new InvalidError("This is already your address", {
      email: ["This is already your address"],
    });
  }
  const [taken] = await db().select({ id: users.id }).from(users).where(eq(users.email, address));
  if (taken) {
    throw new InvalidError("Another account uses this address", {
      email: ["Another account uses this address"],
    });
  }
  await consume("verificationMails", address);
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
      text: `Hello ${user.name},\n\nOpen this link within 24 hours to make ${address} the e-mail address of your StackShift account:\n\n${link}\n\nIf you did not ask for this, ignore this email; nothing changes.`,
      secrets: [token],
    });
  });
  await dispatchMail([mailId]);
}

/** Opens a confirmation link: the account's address becomes the new one (once). */
export async function confirmEmailChange(token: string): Promise<{ email: string }> {
  const invalid = () =>
    new InvalidError(
      "This confirmation link is invalid or has expired. Ask for a new one in your settings.",
    );
  if (!token || token.length > 200) throw invalid();
  try {
    return await db().transaction(async (tx) => {
      const now = new Date();
      const [change] = await tx
        .update(emailChanges)
        .set({ usedAt: now })
        .where(
          and(
            eq(emailChanges.tokenHash, sha256(token)),
            isNull(emailChanges.usedAt),
            gt(emailChanges.expiresAt, now),
          ),
        )
        .returning();
      if (!change) throw invalid();
      await tx
        .update(users)
        .set({ email: change.newEmail, emailVerifiedAt: now, updatedAt: now })
        .where(eq(users.id, change.userId));
      return { email: change.newEmail };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ConflictError("Another account took this address meanwhile");
    throw error;
  }
}

/**
 * Changes the password after checking the current one; every other session of the account ends
 * (this one stays signed in).
 */
export async function changePassword(
  user: User,
  currentSessionId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const [row] = await db()
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  if (!row?.hash) {
    throw new InvalidError("Your password is managed by your single sign-on provider");
  }
  if (!(await verifyPassword(row.hash, input.currentPassword))) {
    throw new InvalidError("The current password is not right", {
      currentPassword: ["The current password is not right"],
    });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db().transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, currentSessionId)));
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
    current: r.id === currentSessionId,
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
  const target = rows.find((r) => handleOf(r.id) === handle && r.id !== currentSessionId);
  if (!target) throw new NotFoundError("This session has ended already");
  await db()
    .delete(sessions)
    .where(and(eq(sessions.id, target.id), eq(sessions.userId, user.id)));
}

export async function signOutOtherSessions(user: User, currentSessionId: string): Promise<number> {
  const gone = await db()
    .delete(sessions)
    .where(and(eq(sessions.userId, user.id), ne(sessions.id, currentSessionId)))
    .returning({ id: sessions.id });
  return gone.length;
}

/**
 * Deletes the account, its memberships and sessions, and says so in the Activity Log of each
 * project it was a member of. Refused while it owns projects (their names are said): ownership
 * moves first, or the projects are deleted.
 */
export async function deleteAccount(user: User): Promise<void> {
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
