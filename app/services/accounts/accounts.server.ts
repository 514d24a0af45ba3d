import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { db, type Queryable } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { accessRequests, emailVerifications, members, sessions, users } from "~/db/schema";
import { env } from "~/utils/env.server";
import { memo, rememberInView } from "~/utils/request-memo.server";
import { isAddressProof } from "./address-proof.server";
import { ConflictError, ForbiddenError, InvalidError, UnauthorizedError } from "~/services/core";
import type { loginSchema, signupSchema } from "./accounts.schema";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { hashPassword, needsRehash, verifyPassword } from "./passwords.server";
import { consume, reserveLoginTry, tryConsume } from "~/services/core/index.server";

/** Tokens are mailed; only their sha256 is stored. */
export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

// Tokens are 43 characters of base64url; anything much longer cannot be one of ours.
export const plausibleToken = (token: string) => token.length > 0 && token.length <= 200;

/** What the rest of the app knows about the signed-in person. */
export type User = {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  /** The account has a second factor of ours: an authenticator app or a passkey (two-factor/); read with the account (toUser), absent in hand-made test users. */
  hasSecondFactor?: boolean;
  /** This session's single sign-on used a second factor at the identity provider (its ID token's amr/acr; app/web/oidc.server.ts). */
  ssoSecondFactor?: boolean;
  /** Set when this request came with a personal access token (app/services/accounts/api-tokens.server.ts). */
  apiToken?: ApiTokenGrant;
};

/** What a personal access token allows, within its owner's rights. */
export type ApiTokenGrant = {
  id: string;
  name: string;
  scope: "read" | "read-write";
  /** null: every project the owner can reach. */
  projectIds: string[] | null;
};

export function isPlatformAdmin(userEmail: string) {
  return env().adminEmails.has(userEmail.toLowerCase());
}

export function toUser(row: typeof users.$inferSelect): User {
  // Platform-admin rights come with the address only once its owner has proved it.
  const isAdmin = Boolean(row.emailVerifiedAt) && isPlatformAdmin(row.email);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    isAdmin,
    hasSecondFactor: row.twoFactorSince !== null,
  };
}

const userById = prepared((database) =>
  database
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .limit(1)
    .prepare("user_by_id"),
);

/**
 * An account by id. In a page view (app/utils/request-memo.server.ts) it is read once, and not at
 * all after the session's read, which joins it (rememberUserRow).
 */
export async function getUser(id: string): Promise<User | null> {
  const row = await memo(`user-row:${id}`, async () => (await userById().execute({ id }))[0]);
  return row ? toUser(row) : null;
}

/** The account of the view's session, read with it (sessions.server.ts): getUser uses it. */
export function rememberUserRow(row: typeof users.$inferSelect) {
  rememberInView(`user-row:${row.id}`, Promise.resolve(row));
}

/**
 * Who may create an account (docs/configuration.md, "Accounts"): platform admins, people whose
 * access request was approved, and people with a pending project invitation.
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

/**
 * Invitations addressed to a new account's e-mail now belong to it: only rows still `invited` and
 * without a user. An accepted membership stays with its person even when an earlier account
 * moved away from this address (their rows follow their address, app/services/accounts/user-settings.server.ts).
 */
async function claimInvitations(tx: Queryable, userId: string, address: string) {
  await tx
    .update(members)
    .set({ userId })
    .where(
      and(eq(members.invitedEmail, address), eq(members.status, "invited"), isNull(members.userId)),
    );
}

/** Signed in only once the address is confirmed; the login page offers to resend the link. */
export class EmailNotConfirmedError extends ForbiddenError {
  constructor(readonly email: string) {
    super(`Confirm your email address first: open the link we sent to ${email}.`);
  }
}

const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;

export type SignupResult =
  { kind: "created"; user: User } | { kind: "confirm"; email: string; redirectTo: string };

/**
 * Creates an account (docs/configuration.md, "Accounts"). With a proof that the person reads mail
 * at the address (the link of an approval or invitation mail) the account exists at once; otherwise
 * nothing is created yet: a confirmation link is mailed and opening it creates the account.
 */
export async function signUp(
  input: z.infer<typeof signupSchema>,
  options: { proof?: string | null; redirectTo?: string; clientIp: string },
): Promise<SignupResult> {
  const address = input.email.toLowerCase();
  const proven = isAddressProof(address, options.proof);
  // Signups through a mailed link are not counted: a whole agency may join from one office.
  if (!proven) await consume("signupAddress", options.clientIp);
  if (!(await canSignUp(address))) throw new NotEligibleError();
  const existing = await db().query.users.findFirst({ where: eq(users.email, address) });
  if (existing) {
    throw new ConflictError("An account with this email already exists. Log in instead.");
  }
  if (proven) {
    const passwordHash = await hashPassword(input.password);
    return db().transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ name: input.name, email: address, passwordHash, emailVerifiedAt: new Date() })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!row) {
        throw new ConflictError("An account with this email already exists. Log in instead.");
      }
      await claimInvitations(tx, row.id, address);
      return { kind: "created" as const, user: toUser(row) };
    });
  }
  await consume("verificationMails", address);
  const redirectTo = options.redirectTo ?? "/";
  const passwordHash = await hashPassword(input.password);
  const token = randomBytes(32).toString("base64url");
  const mailId = await db().transaction(async (tx) => {
    await tx.insert(emailVerifications).values({
      tokenHash: sha256(token),
      email: address,
      name: input.name,
      passwordHash,
      redirectTo,
      expiresAt: new Date(Date.now() + VERIFY_TTL_MS),
    });
    return queueVerificationMail(tx, { email: address, token });
  });
  await dispatchMail([mailId]);
  return { kind: "confirm", email: address, redirectTo };
}

/** A fixed greeting: the name was typed by whoever signed up, and the address is not proved yet. */
function queueVerificationMail(tx: Queryable, pending: { email: string; token: string }) {
  const link = absoluteUrl(`/auth/verify/${pending.token}`);
  return queueMail(tx, {
    to: pending.email,
    subject: "Confirm your email to finish signing up for StackShift",
    awaited: true,
    text: `Hello,\n\nTo finish creating your StackShift account, open this link and type the password you chose when you signed up:\n\n${link}\n\nThe link works once, within 24 hours. If you did not sign up, ignore this email: no account is created without it (and without that password).`,
    secrets: [pending.token],
  });
}

/** The newest signup waiting for this address, if its link is still valid. */
async function pendingSignup(address: string) {
  return db().query.emailVerifications.findFirst({
    where: and(
      eq(emailVerifications.email, address.toLowerCase()),
      isNull(emailVerifications.usedAt),
      gt(emailVerifications.expiresAt, new Date()),
    ),
    orderBy: (v, { desc }) => [desc(v.createdAt)],
  });
}

/**
 * Mails the newest waiting signup of the address a fresh link (the older one stops working).
 * Resolves the same way whether or not a signup is waiting, so it reveals nothing.
 */
export async function resendConfirmation(address: string) {
  const pending = await pendingSignup(address);
  if (!pending) return;
  if (!(await tryConsume("verificationMails", pending.email))) return;
  const token = randomBytes(32).toString("base64url");
  const mailId = await db().transaction(async (tx) => {
    const [row] = await tx
      .update(emailVerifications)
      .set({ tokenHash: sha256(token), expiresAt: new Date(Date.now() + VERIFY_TTL_MS) })
      .where(
        and(eq(emailVerifications.tokenHash, pending.tokenHash), isNull(emailVerifications.usedAt)),
      )
      .returning();
    return row ? queueVerificationMail(tx, { email: row.email, token }) : null;
  });
  if (mailId) await dispatchMail([mailId]);
}

const invalidConfirmation = () =>
  new InvalidError("This confirmation link is invalid or has expired. Sign up again.");

/** The waiting signup a confirmation link names, if it can still be confirmed. Reads only. */
export async function pendingConfirmation(token: string) {
  if (!plausibleToken(token)) return null;
  const row = await db().query.emailVerifications.findFirst({
    where: and(
      eq(emailVerifications.tokenHash, sha256(token)),
      isNull(emailVerifications.usedAt),
      gt(emailVerifications.expiresAt, new Date()),
    ),
  });
  return row ? { email: row.email, name: row.name } : null;
}

/**
 * Confirms a signup from its link's page (a POST: opening the link changes nothing). The password
 * typed at signup must be typed again, so whoever proves the mailbox also knows the credential: a
 * stranger's signup with someone else's address is useless to both. A wrong password counts like
 * a failed login and keeps the link; the right one creates the account, spends every other
 * waiting signup of the address (a stranger's included) and the caller signs the person in.
 */
export async function confirmEmail(
  token: string,
  password: string,
  clientIp = "unknown",
): Promise<{ user: User; redirectTo: string }> {
  const pending = plausibleToken(token)
    ? await db().query.emailVerifications.findFirst({
        where: and(
          eq(emailVerifications.tokenHash, sha256(token)),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, new Date()),
        ),
      })
    : undefined;
  if (!pending) throw invalidConfirmation();
  const attempt = await reserveLoginTry(pending.email, clientIp);
  if (!(await verifyPassword(pending.passwordHash, password))) {
    await attempt.failed();
    throw new InvalidError("This is not the password you chose when you signed up", {
      password: [
        "This is not the password you chose when you signed up. If you did not sign up, sign up again with a password of your own.",
      ],
    });
  }
  await attempt.succeeded();
  return db().transaction(async (tx) => {
    const now = new Date();
    const [spent] = await tx
      .update(emailVerifications)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailVerifications.tokenHash, pending.tokenHash),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, now),
        ),
      )
      .returning();
    if (!spent) throw invalidConfirmation();
    await tx
      .update(emailVerifications)
      .set({ usedAt: now })
      .where(and(eq(emailVerifications.email, spent.email), isNull(emailVerifications.usedAt)));
    const [row] = await tx
      .insert(users)
      .values({
        name: spent.name,
        email: spent.email,
        passwordHash: spent.passwordHash,
        emailVerifiedAt: now,
      })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!row) {
      throw new ConflictError("This email already has an account. Log in instead.");
    }
    await claimInvitations(tx, row.id, spent.email);
    return { user: toUser(row), redirectTo: spent.redirectTo };
  });
}

/**
 * Checks the signed-in person's current password before a change that needs it (password,
 * e-mail, deleting the account). Wrong ones count exactly like failed logins of the account from
 * this client address (the same limits, decision 004), so a stolen session cannot guess it.
 */
export async function checkCurrentPassword(
  userId: string,
  password: string,
  clientIp = "unknown",
  field = "currentPassword",
) {
  const row = await db().query.users.findFirst({ where: eq(users.id, userId) });
  if (!row) throw new UnauthorizedError("You must be logged in");
  if (!row.passwordHash) {
    const why = row.oidcSubject
      ? "Your password is managed by your single sign-on provider"
      : "Your account has no password now: choose one with 'Forgot password' on the login page first.";
    throw new InvalidError(why, { [field]: [why] });
  }
  const attempt = await reserveLoginTry(row.email, clientIp);
  if (!(await verifyPassword(row.passwordHash, password))) {
    await attempt.failed();
    throw new InvalidError("The current password is not right", {
      [field]: ["The current password is not right"],
    });
  }
  await attempt.succeeded();
}

// A fixed hash to verify against when the e-mail is unknown, so timing does not reveal accounts.
let dummyHash: Promise<string> | undefined;

/**
 * Checks e-mail and password. Failures are counted per account and client address (a success
 * clears them) and per address, so strangers elsewhere can never lock the owner out.
 */
export async function verifyLogin(
  input: z.infer<typeof loginSchema>,
  clientIp = "unknown",
): Promise<User> {
  const address = input.email.toLowerCase();
  // Counted before the password is checked, so tries sent at once never evaluate past the limit.
  const attempt = await reserveLoginTry(address, clientIp);
  const row = await db().query.users.findFirst({ where: eq(users.email, address) });
  dummyHash ??= hashPassword("not-a-real-password");
  if (!row) {
    // A signup waiting for its confirmation: the right password says so, and nothing else does.
    const pending = await pendingSignup(address);
    if (await verifyPassword(pending?.passwordHash ?? (await dummyHash), input.password)) {
      if (pending) {
        await attempt.succeeded();
        throw new EmailNotConfirmedError(address);
      }
    }
    await attempt.failed();
    throw new UnauthorizedError("Invalid email or password");
  }
  const ok = await verifyPassword(row.passwordHash ?? (await dummyHash), input.password);
  if (!row.passwordHash || !ok) {
    await attempt.failed();
    throw new UnauthorizedError("Invalid email or password");
  }
  await attempt.succeeded();
  if (!row.emailVerifiedAt) throw new EmailNotConfirmedError(address);
  if (needsRehash(row.passwordHash)) {
    // The pinned parameters changed since this hash was made: upgrade it while we know the password.
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(users.id, row.id));
  }
  return toUser(row);
}

/**
 * Finds or creates the account of a single-sign-on identity. A known subject signs in; an
 * existing account with the same e-mail is linked once; anyone else needs the same eligibility
 * as /signup, so single sign-on is no back door around access requests.
 */
export async function upsertOidcUser(
  claims: { sub: string; email: string; name?: string },
  /** The account this browser is signed in to, if any: linking needs its holder. */
  signedInUserId: string | null = null,
): Promise<User> {
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
    // Only an account whose owner proved the address may be linked; linking then ends every other
    // session, so a password someone else set cannot outlive the owner's first single sign-on.
    if (!byEmail.emailVerifiedAt) {
      throw new ConflictError(
        "Confirm this account's email address before signing in with single sign-on.",
      );
    }
    // The address alone is no proof: the account's holder links it, from a browser signed in to
    // it (with the password), so nobody's identity is attached to an account they do not hold.
    if (signedInUserId !== byEmail.id) {
      throw new ConflictError(
        "An account with this email exists. Log in with your password, then choose 'Link single sign-on' in your user settings.",
      );
    }
    return db().transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ oidcSubject: claims.sub, updatedAt: new Date() })
        .where(and(eq(users.id, byEmail.id), isNull(users.oidcSubject)))
        .returning();
      if (!row) {
        throw new ConflictError("Single sign-on changed this account meanwhile. Try again.");
      }
      // Every session ends; the callback starts a fresh one for this browser.
      await tx.delete(sessions).where(eq(sessions.userId, row.id));
      return toUser(row);
    });
  }
  if (!(await canSignUp(address))) throw new NotEligibleError();
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        email: address,
        name: (claims.name?.trim() || address.split("@")[0]).slice(0, 100),
        oidcSubject: claims.sub,
        // The identity provider vouches for the address (app/web/oidc.server.ts checks it).
        emailVerifiedAt: new Date(),
      })
      .onConflictDoNothing()
      .returning();
    // A concurrent first sign-in of the same person created it: a retry finds it by subject.
    if (!row) throw new ConflictError("This account was just created. Try signing in again.");
    await claimInvitations(tx, row.id, address);
    return toUser(row);
  });
}
