/**
 * Third-party secrets at rest (docs/architecture.md "Security defaults": Stripe secret keys,
 * Instagram tokens, Chromatic tokens): AES-256-GCM under a key derived from ENCRYPTION_KEY, a
 * random 12-byte IV per value, stored as one text column:
 *
 *   v1.<keyId>.<iv b64url>.<tag b64url>.<ciphertext b64url>
 *
 * The key is 32 bytes of HKDF-SHA256 over the configured string, so a key of any length works (env
 * asks for at least 16 characters). keyId is the first 8 hex characters of sha256(derived key): it
 * names the key a value was encrypted under, so a rotated ENCRYPTION_KEY is recognised as the wrong
 * key (a clear error) instead of an integrity failure, and a re-encryption job can find the values
 * still under an old key. The version and keyId are authenticated as associated data.
 *
 * Secrets never go back to the browser: show `lastFour(plain)` instead.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import { env } from "~/utils/env.server";

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_SALT = "stackshift/secrets-at-rest";
const HKDF_INFO = "aes-256-gcm v1";

/** A stored secret that cannot be decrypted: malformed, under another key, or tampered with. */
export class SecretDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretDecryptionError";
  }
}

type Key = { key: Buffer; id: string };
let cached: { configured: string; key: Key } | undefined;

/** The current key, derived from env().ENCRYPTION_KEY (re-derived when it changes). */
function currentKey(): Key {
  const configured = env().ENCRYPTION_KEY;
  if (cached?.configured !== configured) {
    const key = Buffer.from(hkdfSync("sha256", configured, HKDF_SALT, HKDF_INFO, 32));
    const id = createHash("sha256").update(key).digest("hex").slice(0, 8);
    cached = { configured, key: { key, id } };
  }
  return cached.key;
}

/** The id of the key values are encrypted under now (first 8 hex chars of its sha256). */
export function currentKeyId(): string {
  return currentKey().id;
}

const aad = (keyId: string) => Buffer.from(`${VERSION}.${keyId}`, "utf8");

/** Encrypts a secret for storage: `v1.<keyId>.<iv>.<tag>.<ciphertext>`, new IV every call. */
export function encryptSecret(plain: string): string {
  const { key, id } = currentKey();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(id));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    VERSION,
    id,
    iv.toString("base64url"),
    tag.toString("base64url"),
    ciphertext.toString("base64url"),
  ].join(".");
}

const B64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Decrypts what encryptSecret stored. Throws SecretDecryptionError when the value is malformed,
 * was encrypted under another key than the current ENCRYPTION_KEY, or fails its integrity check.
 * The messages never include the value.
 */
export function decryptSecret(stored: string): string {
  const parts = stored.split(".");
  if (parts.length !== 5 || parts[0] !== VERSION) {
    throw new SecretDecryptionError(
      "Stored secret is not in the v1.<keyId>.<iv>.<tag>.<ciphertext> format",
    );
  }
  const [, keyId, ivText, tagText, ciphertextText] = parts;
  if (
    !/^[0-9a-f]{8}$/.test(keyId) ||
    ![ivText, tagText, ciphertextText].every((p) => B64URL.test(p))
  ) {
    throw new SecretDecryptionError("Stored secret is malformed");
  }
  const { key, id } = currentKey();
  if (!timingSafeEqual(Buffer.from(keyId), Buffer.from(id))) {
    throw new SecretDecryptionError(
      `Stored secret was encrypted under key ${keyId}, but the current ENCRYPTION_KEY is key ${id}: ` +
        "it cannot be decrypted without the key it was encrypted under",
    );
  }
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new SecretDecryptionError("Stored secret is malformed (IV or tag length)");
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(keyId));
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([
      decipher.update(Buffer.from(ciphertextText, "base64url")),
      decipher.final(),
    ]);
    return plain.toString("utf8");
  } catch {
    throw new SecretDecryptionError(
      "Stored secret failed its integrity check: it was tampered with or corrupted",
    );
  }
}

/**
 * What the UI may show of a secret: its last four characters behind a mask ("••••abcd"). Values
 * shorter than 8 characters show only the mask, so at least half of a secret always stays hidden.
 */
export function lastFour(plain: string): string {
  const chars = Array.from(plain);
  return chars.length >= 8 ? `••••${chars.slice(-4).join("")}` : "••••";
}
