/**
 * Third-party secrets at rest (docs/architecture.md "Security defaults": Stripe secret keys,
 * Instagram tokens, Chromatic tokens): AES-256-GCM under a key derived from ENCRYPTION_KEY, a
 * random 12-byte IV per value, stored as one text column:
 *
 *   v1.<keyId>.<iv b64url>.<tag b64url>.<ciphertext b64url>
 *
 * The key is 32 bytes of HKDF-SHA256 over the configured string, so a key of any length works (env
 * asks for at least 16 characters). keyId is the first 8 hex characters of sha256(derived key): it
 * names the key a value was encrypted under, so decryption picks that key among ENCRYPTION_KEY and
 * the previous keys (ENCRYPTION_KEY_PREVIOUS), a key that is neither is a clear error instead of
 * an integrity failure, and `npm run rotate-key` (app/services/platform/key-rotation.server.ts) finds the
 * values still under an old key. The version and keyId are authenticated as associated data.
 *
 * Secrets never go back to the browser: show `lastFour(plain)` instead.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { env, resetEnv, type Env } from "~/utils/env.server";

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
type Keyring = { current: Key; previous: Key[]; byId: Map<string, Key> };
let cached: { source: Env; ring: Keyring } | undefined;

function derive(configured: string): Key {
  const key = Buffer.from(hkdfSync("sha256", configured, HKDF_SALT, HKDF_INFO, 32));
  return { key, id: createHash("sha256").update(key).digest("hex").slice(0, 8) };
}

/**
 * The keys: ENCRYPTION_KEY (current: every value is encrypted under it) and the previous keys
 * (ENCRYPTION_KEY_PREVIOUS, and a local run's secrets file), which only decrypt. Derived again
 * whenever env() is parsed again.
 */
function keyring(): Keyring {
  const source = env();
  if (cached?.source !== source) {
    const current = derive(source.ENCRYPTION_KEY);
    const previous = source.ENCRYPTION_KEY_PREVIOUS.map(derive).filter((k) => k.id !== current.id);
    const byId = new Map<string, Key>();
    for (const key of [...previous].reverse()) byId.set(key.id, key);
    byId.set(current.id, current);
    cached = { source, ring: { current, previous, byId } };
  }
  return cached.ring;
}

/** The id of the key values are encrypted under now (first 8 hex chars of its sha256). */
export function currentKeyId(): string {
  return keyring().current.id;
}

/** The ids of the previous keys, which decrypt values but never encrypt new ones. */
export function previousKeyIds(): string[] {
  return keyring().previous.map((key) => key.id);
}

/** The key id a stored value names, or null when it is not a v1 value. */
export function keyIdOf(stored: string): string | null {
  const match = /^v1\.([0-9a-f]{8})\./.exec(stored);
  return match ? match[1] : null;
}

let lastReload = 0;
/**
 * The key with this id. A local run whose key comes from DATA_DIR/secrets.json reads the file
 * again (at most once a second) for an id it does not know: `npm run rotate-key` may have just
 * put a new key there, and another process may already have stored values under it.
 */
function keyWithId(id: string): Key | undefined {
  const found = keyring().byId.get(id);
  if (found || env().encryptionKeyFrom !== "file" || Date.now() - lastReload < 1000) return found;
  lastReload = Date.now();
  resetEnv();
  return keyring().byId.get(id);
}

const aad = (keyId: string) => Buffer.from(`${VERSION}.${keyId}`, "utf8");

/** Encrypts a secret for storage: `v1.<keyId>.<iv>.<tag>.<ciphertext>`, new IV every call. */
export function encryptSecret(plain: string): string {
  const { key, id } = keyring().current;
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
 * Decrypts what encryptSecret stored, with the key its key id names: the current ENCRYPTION_KEY
 * or a previous one. Throws SecretDecryptionError when the value is malformed, was encrypted
 * under a key that is neither, or fails its integrity check. The messages never include the value.
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
  const key = keyWithId(keyId)?.key;
  if (!key) {
    const { current, previous } = keyring();
    const others = previous.length
      ? ` or a previous key (${previous.map((k) => k.id).join(", ")})`
      : "";
    throw new SecretDecryptionError(
      `Stored secret was encrypted under key ${keyId}, but the current ENCRYPTION_KEY is key ${current.id}${others}: ` +
        "it cannot be decrypted without the key it was encrypted under (ENCRYPTION_KEY_PREVIOUS)",
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
