/**
 * The inputs of passkeys (WebAuthn): what the browser sends back from
 * navigator.credentials.create/get (as @simplewebauthn/browser shapes it), checked for shape and
 * size before the library reads it, and the name a person gives a passkey. Shared by the routes,
 * the settings section's forms and the service.
 */
import { z } from "zod";

/** base64url text of bounded length (credential ids are at most 1023 bytes, WebAuthn 3). */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, "Not base64url");

const clientExtensionResults = z.record(z.string(), z.unknown()).default({});

/** What every credential the browser answers with carries, whatever the ceremony. */
const credential = {
  id: base64url(1400).min(1),
  rawId: base64url(1400).min(1),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
};

export const registrationResponseSchema = z.object({
  ...credential,
  response: z.object({
    clientDataJSON: base64url(8 * 1024).min(1),
    attestationObject: base64url(32 * 1024).min(1),
    transports: z.array(z.string().max(32)).max(10).optional(),
    authenticatorData: base64url(16 * 1024).optional(),
    publicKey: base64url(8 * 1024).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
});

export const authenticationResponseSchema = z.object({
  ...credential,
  response: z.object({
    clientDataJSON: base64url(8 * 1024).min(1),
    authenticatorData: base64url(16 * 1024).min(1),
    signature: base64url(8 * 1024).min(1),
    userHandle: base64url(512).optional(),
  }),
});

export const PASSKEY_NAME_MAX = 60;

export const passkeyNameSchema = z
  .string({ error: "Give the passkey a name" })
  .trim()
  .min(1, "Give the passkey a name")
  .max(PASSKEY_NAME_MAX, `A name of at most ${PASSKEY_NAME_MAX} characters`);

/** Rename (a form without JavaScript too). */
export const passkeyRenameSchema = z.object({
  passkeyId: base64url(1400).min(1, "No passkey named"),
  name: passkeyNameSchema,
});

/** Delete (a form without JavaScript too, after its confirmation). */
export const passkeyDeleteSchema = z.object({
  passkeyId: base64url(1400).min(1, "No passkey named"),
});

/** The JSON the settings section sends to add a passkey. */
export const passkeyRegistrationSchema = z.object({
  name: passkeyNameSchema,
  response: registrationResponseSchema,
});
