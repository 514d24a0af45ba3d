import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { db, type Queryable } from "~/db/client.server";
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
  const lower = address.trim().toLowerCase();
  if (isPlatformAdmin(lower)) return true;
  const approved = await db().query.accessRequests.findFirst({
    // The request form keeps the address as typed; the index is on lower(business_email).
    where: and(
      sql`lower(${accessRequests.businessEmail}) = ${lower}`,
      eq(accessRequests.requestStatus, "Approved"),
    ),
  });
  if (approved) return true;
  const invited = await db().query.members.findFirst({
    where: and(
      eq(members.invitedEmail, lower),
      eq(members.status, "invited"),
      or(isNull(members.invitationExpiresAt), gt(members.invitationExpiresAt, new Date())),
    ),
  });
  return Boolean(invited);
}

/** The e-mail may not create an account (yet): the page links to /request-access. */
export class NotEligibleError extends InvalidError {
  constructor() {
    super(
      "This email has no access yet. Request access first and we will email you once approved.",
      { email: ["This email has no access yet. Request access first."] },
    );
  }
}

/** Invitations addressed to a new account's e-mail now belong to it. */
async function claimInvitations(tx: Queryable, userId: string, address: string) {
  await tx.update(members).set({ userId }).where(eq(members.invitedEmail, address));
}

export async function signUp(input: z.infer<typeof signupSchema>): Promise<User> {
  const address = input.email.toLowerCase();
  if (!(await canSignUp(address))) throw new NotEligibleError();
  const passwordHash = await hash(input.password);
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({ name: input.name, email: address, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!row) {
      throw new ConflictError("An account with this email already exists. Log in instead.");
    }
    await claimInvitations(tx, row.id, address);
    return toUser(row);
  });
}

// A fixed hash to verify against when the e-mail is unknown, so timing does not reveal accounts.
let dummyHash: Promise<string> | undefined;

export async function verifyLogin(input: z.infer<typeof loginSchema>): Promise<User> {
  const row = await db().query.users.findFirst({
    where: eq(users.email, input.email.toLowerCase()),
  });
  dummyHash ??= hash("not-a-real-password");
  const ok = await verify(row?.passwordHash ?? (await dummyHash), input.password);
  if (!row || !row.passwordHash || !ok) {
    throw new UnauthorizedError("Invalid email or password");
  }
  return toUser(row);
}

/**
 * Finds or creates the account of a single-sign-on identity. A known subject signs in; an
 * existing account with the same e-mail is linked once; anyone else needs the same eligibility
 * as /signup, so single sign-on is no back door around access requests.
 */
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
    // Another identity of the provider already owns this account: never re-link it.
    if (byEmail.oidcSubject) {
      throw new ConflictError(
        "This email is linked to a different single sign-on identity. Log in with your password or contact support.",
      );
    }
    const [row] = await db()
      .update(users)
      .set({ oidcSubject: claims.sub, updatedAt: new Date() })
      .where(and(eq(users.id, byEmail.id), isNull(users.oidcSubject)))
      .returning();
    if (!row) throw new ConflictError("Single sign-on changed this account meanwhile. Try again.");
    return toUser(row);
  }
  if (!(await canSignUp(address))) throw new NotEligibleError();
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        email: address,
        name: (claims.name?.trim() || address.split("@")[0]).slice(0, 100),
        oidcSubject: claims.sub,
      })
      .onConflictDoNothing()
      .returning();
    // A concurrent first sign-in of the same person created it: a retry finds it by subject.
    if (!row) throw new ConflictError("This account was just created. Try signing in again.");
    await claimInvitations(tx, row.id, address);
    return toUser(row);
  });
}

const RESET_TTL_MS = 60 * 60 * 1000;
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * Mails a reset link if the account exists. Always resolves the same way, so the page never
 * reveals whether an e-mail has an account.
 */
export async function requestPasswordReset(address: string) {
  const user = await db().query.users.findFirst({
    where: eq(users.email, address.toLowerCase()),
  });
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
