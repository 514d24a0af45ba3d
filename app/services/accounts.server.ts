import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { z } from "zod";
import { db } from "~/db/client.server";
import { accessRequests, members, passwordResets, sessions, users } from "~/db/schema";
import { env } from "~/utils/env.server";
import { ConflictError, InvalidError, UnauthorizedError } from "./errors";
import type { loginSchema, signupSchema } from "./accounts.schema";
import { absoluteUrl, dispatchMail, queueMail } from "./mail.server";

/** What the rest of the app knows about the signed-in person (spec section 3 "User"). */
export type User = {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
};

export function isPlatformAdmin(userEmail: string) {
  return env().adminEmails.has(userEmail.toLowerCase());
}

function toUser(row: typeof users.$inferSelect): User {
  return { id: row.id, name: row.name, email: row.email, isAdmin: isPlatformAdmin(row.email) };
}

export async function getUser(id: string): Promise<User | null> {
  const row = await db().query.users.findFirst({ where: eq(users.id, id) });
  return row ? toUser(row) : null;
}

export async function findUserByEmail(address: string) {
  const row = await db().query.users.findFirst({ where: eq(users.email, address.toLowerCase()) });
  return row ? toUser(row) : null;
}

/**
 * Who may create an account (CONTRACT.md "Accounts"): platform admins, people whose access request
 * was approved, and people with a pending project invitation.
 */
export async function canSignUp(address: string): Promise<boolean> {
  const lower = address.toLowerCase();
  if (isPlatformAdmin(lower)) return true;
  const approved = await db().query.accessRequests.findFirst({
    where: and(
      eq(accessRequests.businessEmail, lower),
      eq(accessRequests.requestStatus, "Approved"),
    ),
  });
  if (approved) return true;
  const invited = await db().query.members.findFirst({
    where: and(eq(members.invitedEmail, lower), eq(members.status, "invited")),
  });
  return Boolean(invited);
}

export class NotEligibleError extends InvalidError {}

export async function signUp(input: z.infer<typeof signupSchema>): Promise<User> {
  if (!(await canSignUp(input.email))) {
    throw new NotEligibleError(
      "This email has no access yet. Request access first and we will email you once approved.",
      { email: ["This email has no access yet. Request access first."] },
    );
  }
  const passwordHash = await hash(input.password);
  const [row] = await db()
    .insert(users)
    .values({ name: input.name, email: input.email, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!row) {
    throw new ConflictError("An account with this email already exists. Log in instead.");
  }
  // Invitations addressed to this e-mail now belong to the new account.
  await db().update(members).set({ userId: row.id }).where(eq(members.invitedEmail, input.email));
  return toUser(row);
}

// A fixed hash to verify against when the e-mail is unknown, so timing does not reveal accounts.
let dummyHash: Promise<string> | undefined;

export async function verifyLogin(input: z.infer<typeof loginSchema>): Promise<User> {
  const row = await db().query.users.findFirst({ where: eq(users.email, input.email) });
  dummyHash ??= hash("not-a-real-password");
  const ok = await verify(row?.passwordHash ?? (await dummyHash), input.password);
  if (!row || !row.passwordHash || !ok) {
    throw new UnauthorizedError("Invalid email or password");
  }
  return toUser(row);
}

/** Finds or creates the account of a single-sign-on identity. */
export async function upsertOidcUser(claims: {
  sub: string;
  email: string;
  name?: string;
}): Promise<User> {
  const address = claims.email.toLowerCase();
  const bySubject = await db().query.users.findFirst({ where: eq(users.oidcSubject, claims.sub) });
  if (bySubject) return toUser(bySubject);
  const byEmail = await db().query.users.findFirst({ where: eq(users.email, address) });
  if (byEmail) {
    const [row] = await db()
      .update(users)
      .set({ oidcSubject: claims.sub, updatedAt: new Date() })
      .where(eq(users.id, byEmail.id))
      .returning();
    return toUser(row);
  }
  const [row] = await db()
    .insert(users)
    .values({ email: address, name: claims.name || address.split("@")[0], oidcSubject: claims.sub })
    .returning();
  await db().update(members).set({ userId: row.id }).where(eq(members.invitedEmail, address));
  return toUser(row);
}

const RESET_TTL_MS = 60 * 60 * 1000;
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * Mails a reset link if the account exists. Always resolves the same way, so the page never
 * reveals whether an e-mail has an account.
 */
export async function requestPasswordReset(address: string) {
  const user = await db().query.users.findFirst({ where: eq(users.email, address) });
  if (!user) return;
  const token = randomBytes(32).toString("base64url");
  const mailId = await db().transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      tokenHash: sha256(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_TTL_MS),
    });
    const link = absoluteUrl(`/auth/reset/${token}`);
    return queueMail(tx, {
      to: user.email,
      subject: "Reset your StackShift password",
      text: `Hello ${user.name},\n\nSomeone asked to reset the password of your StackShift account. Open this link within an hour to choose a new one:\n\n${link}\n\nIf it was not you, ignore this email.`,
    });
  });
  await dispatchMail([mailId]);
}

export async function resetTokenIsValid(token: string) {
  const row = await db().query.passwordResets.findFirst({
    where: and(
      eq(passwordResets.tokenHash, sha256(token)),
      isNull(passwordResets.usedAt),
      gt(passwordResets.expiresAt, new Date()),
    ),
  });
  return Boolean(row);
}

/** Sets the new password, spends the token and ends every session of the account. */
export async function resetPassword(token: string, newPassword: string): Promise<User> {
  const passwordHash = await hash(newPassword);
  return db().transaction(async (tx) => {
    const [reset] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResets.tokenHash, sha256(token)),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!reset) {
      throw new InvalidError("This reset link is invalid or has expired. Request a new one.");
    }
    const [row] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, reset.userId))
      .returning();
    await tx.delete(sessions).where(eq(sessions.userId, reset.userId));
    return toUser(row);
  });
}
