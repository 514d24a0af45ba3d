/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a second factor after the password, and a
 * sign-in of their own (docs/decisions/038-second-factors.md).
 *
 * - The relying party is APP_URL: its hostname is the rpID, its origin the only origin accepted.
 *   A passkey made on one APP_URL host does not work on another (browsers bind it to the rpID).
 * - Passkeys are discoverable ("resident") credentials, so the login page signs in without an
 *   e-mail: the browser offers the passkeys it holds for the rpID, the credential id says whose.
 * - Signing in with a passkey alone, and a proof before the irreversible, need user verification
 *   (the device's PIN or biometrics): possession plus that is two factors. After a password the
 *   passkey is the second factor, and presence is enough.
 * - Only the public key (COSE, base64url), the credential id, the signature counter and what the
 *   authenticator says about backup are kept: nothing in the table signs anyone in.
 * - Each answer is checked against a challenge the web layer keeps in the session, used once and
 *   for at most PASSKEY_CHALLENGE_MS (app/web/passkeys.server.ts).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, asc, count, eq, lt } from "drizzle-orm";
import type { z } from "zod";
import { db } from "~/db/client.server";
import { passkeys, recoveryCodes, users } from "~/db/schema";
import { env } from "~/utils/env.server";
import { toUser, type User } from "~/services/accounts/index.server";
import { ConflictError, InvalidError, NotFoundError, UnauthorizedError } from "~/services/core";
import { reserveLoginTry } from "~/services/core/index.server";
import { afterFactorRemoved, refreshTwoFactorSince } from "./factors.server";
import {
  authenticationResponseSchema,
  passkeyNameSchema,
  registrationResponseSchema,
} from "./passkeys.schema";
import { issueRecoveryCodes } from "./recovery-codes.server";

/** How long a challenge may be answered. */
export const PASSKEY_CHALLENGE_MS = 5 * 60_000;
/** More than anyone keeps (a phone, a laptop, two security keys, a password manager). */
export const MAX_PASSKEYS = 20;

const RP_NAME = "StackShift";

/** The relying party: APP_URL's hostname and origin. */
export function relyingParty() {
  const url = new URL(env().APP_URL);
  return { rpID: url.hostname, origin: url.origin };
}

/** The WebAuthn user handle of an account: its id's UTF-8 bytes (no e-mail, nothing personal). */
const userHandleOf = (userId: string) => new TextEncoder().encode(userId);
const handleText = (userId: string) => Buffer.from(userHandleOf(userId)).toString("base64url");

const transportsOf = (value: string[] | null) =>
  (value ?? undefined) as AuthenticatorTransport[] | undefined;

export type PasskeyView = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced between devices (a password manager, iCloud Keychain) rather than bound to one. */
  synced: boolean;
};

/** The account's passkeys, oldest first. */
export async function listPasskeys(userId: string): Promise<PasskeyView[]> {
  const rows = await db()
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    synced: row.deviceType === "multiDevice",
  }));
}

/** The settings section's props (app/components/user-settings/passkeys.tsx), for a loader. */
export async function passkeysOf(user: Pick<User, "id">): Promise<{ passkeys: PasskeyView[] }> {
  return { passkeys: await listPasskeys(user.id) };
}

// ---------------------------------------------------------------------------------------------
// Adding a passkey

/** What the browser needs to make a passkey for the signed-in account. */
export async function passkeyRegistrationOptions(
  user: Pick<User, "id" | "email" | "name">,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await db()
    .select({ id: passkeys.id, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  if (existing.length >= MAX_PASSKEYS) {
    throw new ConflictError(`You have ${MAX_PASSKEYS} passkeys: delete one to add another`);
  }
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty().rpID,
    userID: userHandleOf(user.id),
    userName: user.email,
    userDisplayName: user.name,
    timeout: PASSKEY_CHALLENGE_MS,
    attestationType: "none",
    // The authenticator refuses to make a second passkey where one of these already lives.
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
}

export const PASSKEY_NOT_ADDED =
  "This passkey could not be added: your browser's answer did not match the request. Try again.";

/**
 * Checks the browser's answer to passkeyRegistrationOptions and keeps the passkey. The account's
 * first factor comes with ten recovery codes, returned to be shown once (null otherwise).
 */
export async function addPasskey(
  user: Pick<User, "id">,
  input: {
    name: z.input<typeof passkeyNameSchema>;
    response: z.input<typeof registrationResponseSchema>;
    expectedChallenge: string;
  },
): Promise<{ passkey: PasskeyView; recoveryCodes: string[] | null }> {
  const name = passkeyNameSchema.safeParse(input.name);
  if (!name.success) {
    const message = name.error.issues[0]?.message ?? "Give the passkey a name";
    throw new InvalidError(message, { name: [message] });
  }
  const response = registrationResponseSchema.safeParse(input.response);
  if (!response.success) throw new InvalidError(PASSKEY_NOT_ADDED);
  const { rpID, origin } = relyingParty();
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: response.data as RegistrationResponseJSON,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      // "preferred" at registration: a key without a PIN still serves as a second factor.
      requireUserVerification: false,
    });
  } catch {
    // The library's reasons are for developers (wrong origin, malformed CBOR, ...).
    throw new InvalidError(PASSKEY_NOT_ADDED);
  }
  if (!verified.verified) throw new InvalidError(PASSKEY_NOT_ADDED);
  const info = verified.registrationInfo;
  const credential = info.credential;

  return db().transaction(async (tx) => {
    // The account row first (locked): two passkeys added at once see each other's factor.
    const [before] = await tx
      .select({ since: users.twoFactorSince })
      .from(users)
      .where(eq(users.id, user.id))
      .for("update");
    if (!before) throw new UnauthorizedError("You must be logged in");
    const [{ n }] = await tx
      .select({ n: count() })
      .from(passkeys)
      .where(eq(passkeys.userId, user.id));
    if (n >= MAX_PASSKEYS) {
      throw new ConflictError(`You have ${MAX_PASSKEYS} passkeys: delete one to add another`);
    }
    const [row] = await tx
      .insert(passkeys)
      .values({
        id: credential.id,
        userId: user.id,
        name: name.data,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: credential.transports ?? null,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new ConflictError("This passkey is already added");
    await refreshTwoFactorSince(tx, user.id);
    const [codes] = await tx
      .select({ n: count() })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, user.id));
    const firstFactor = before.since === null || !codes || codes.n === 0;
    return {
      passkey: {
        id: row.id,
        name: row.name,
        createdAt: row.createdAt.toISOString(),
        lastUsedAt: null,
        synced: row.deviceType === "multiDevice",
      },
      recoveryCodes: firstFactor ? await issueRecoveryCodes(tx, user.id) : null,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Using a passkey

/**
 * What the browser needs to ask for a passkey. For an account (the second step, a proof): only
 * its passkeys. Without one (the login page): any passkey the browser holds for this site.
 */
export async function passkeyAuthenticationOptions(options: {
  userId: string | null;
  userVerification: "required" | "preferred";
}): Promise<PublicKeyCredentialRequestOptionsJSON> {
  let allowCredentials: { id: string; transports?: AuthenticatorTransport[] }[] | undefined;
  if (options.userId) {
    const rows = await db()
      .select({ id: passkeys.id, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.userId, options.userId));
    if (rows.length === 0) throw new NotFoundError("Your account has no passkey");
    allowCredentials = rows.map((p) => ({ id: p.id, transports: transportsOf(p.transports) }));
  }
  return generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    allowCredentials,
    userVerification: options.userVerification,
    timeout: PASSKEY_CHALLENGE_MS,
  });
}

export const PASSKEY_NOT_RIGHT = "This passkey could not be checked. Try again.";
export const PASSKEY_UNKNOWN =
  "This passkey is not registered with StackShift. Log in with your password, then add it in User Settings.";
export const PASSKEY_NOT_YOURS = "This passkey is not one of this account's passkeys";

/**
 * Checks a passkey's answer to passkeyAuthenticationOptions and returns its account. With
 * `expectedUserId` (the second step, a proof) it must be that account's passkey. Like a password,
 * a try is counted (reserved) against the account from this address before it is checked, and a
 * wrong answer counts as a failed login (rate-limit.server.ts); a passkey nobody has has no
 * account to count against.
 */
export async function verifyPasskey(input: {
  response: unknown;
  expectedChallenge: string;
  expectedUserId: string | null;
  requireUserVerification: boolean;
  clientIp: string;
}): Promise<User> {
  const expected = input.expectedUserId
    ? await db().query.users.findFirst({ where: eq(users.id, input.expectedUserId) })
    : null;
  if (input.expectedUserId && !expected) throw new UnauthorizedError("Log in again");

  const parsed = authenticationResponseSchema.safeParse(input.response);
  const credentialId = parsed.success ? parsed.data.id : null;
  const [found] = credentialId
    ? await db()
        .select({ passkey: passkeys, user: users })
        .from(passkeys)
        .innerJoin(users, eq(users.id, passkeys.userId))
        .where(eq(passkeys.id, credentialId))
    : [];

  // Whose try this is: the expected account's, else the passkey's owner's, else nobody's.
  const account = expected ?? found?.user ?? null;
  const attempt = account ? await reserveLoginTry(account.email, input.clientIp) : null;
  const fail = async (message: string): Promise<never> => {
    await attempt?.failed();
    throw new InvalidError(message);
  };

  if (!parsed.success || parsed.data.rawId !== parsed.data.id) return fail(PASSKEY_NOT_RIGHT);
  if (!found) return fail(expected ? PASSKEY_NOT_YOURS : PASSKEY_UNKNOWN);
  if (expected && found.user.id !== expected.id) return fail(PASSKEY_NOT_YOURS);
  // Every account with a passkey proved its address; this only guards against a hand-made row.
  if (!found.user.emailVerifiedAt) return fail(PASSKEY_NOT_RIGHT);
  const handle = parsed.data.response.userHandle;
  if (handle && handle !== handleText(found.user.id)) return fail(PASSKEY_NOT_RIGHT);

  const { rpID, origin } = relyingParty();
  const stored = found.passkey;
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response: parsed.data as AuthenticationResponseJSON,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: stored.id,
        publicKey: new Uint8Array(Buffer.from(stored.publicKey, "base64url")),
        counter: stored.counter,
        transports: transportsOf(stored.transports),
      },
      requireUserVerification: input.requireUserVerification,
    });
  } catch {
    // A bad signature, another origin, a counter gone backwards, no user verification, ...
    return fail(PASSKEY_NOT_RIGHT);
  }
  if (!verified.verified) return fail(PASSKEY_NOT_RIGHT);

  // The counter moves forward in one UPDATE, so the same answer sent twice at once wins once
  // (authenticators without a counter always say 0: the single-use challenge is their guard).
  const next = verified.authenticationInfo.newCounter;
  const [moved] = await db()
    .update(passkeys)
    .set({
      counter: next,
      lastUsedAt: new Date(),
      backedUp: verified.authenticationInfo.credentialBackedUp,
    })
    .where(
      and(
        eq(passkeys.id, stored.id),
        eq(passkeys.userId, found.user.id),
        next === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, next),
      ),
    )
    .returning({ id: passkeys.id });
  if (!moved) return fail(PASSKEY_NOT_RIGHT);
  await attempt?.succeeded();
  return toUser(found.user);
}

// ---------------------------------------------------------------------------------------------
// Managing passkeys

export async function renamePasskey(
  user: Pick<User, "id">,
  passkeyId: string,
  name: string,
): Promise<PasskeyView> {
  const parsed = passkeyNameSchema.safeParse(name);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Give the passkey a name";
    throw new InvalidError(message, { name: [message] });
  }
  const [row] = await db()
    .update(passkeys)
    .set({ name: parsed.data })
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, user.id)))
    .returning();
  if (!row) throw new NotFoundError("This passkey is not one of yours, or it was deleted");
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    synced: row.deviceType === "multiDevice",
  };
}

/**
 * Deletes one of the account's passkeys (the caller asked for a recent proof). With no factor
 * left the account's recovery codes go too (afterFactorRemoved).
 */
export async function deletePasskey(
  user: Pick<User, "id">,
  passkeyId: string,
): Promise<{ name: string; factorLeft: boolean }> {
  return db().transaction(async (tx) => {
    const [gone] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, user.id)))
      .returning({ name: passkeys.name });
    if (!gone) throw new NotFoundError("This passkey is not one of yours, or it was deleted");
    return { name: gone.name, factorLeft: await afterFactorRemoved(tx, user.id) };
  });
}
