import { createHash, hkdfSync } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { resetEnv } from "~/utils/env.server";
import {
  currentKeyId,
  decryptSecret,
  encryptSecret,
  keyIdOf,
  lastFour,
  previousKeyIds,
  SecretDecryptionError,
} from "./secrets.server";

const KEY_A = "unit-test-encryption-key-a-0123456789";
const KEY_B = "unit-test-encryption-key-b-0123456789";
const KEY_C = "unit-test-encryption-key-c-0123456789";

// env() takes ENCRYPTION_KEY from the environment only together with SESSION_SECRET (otherwise it
// generates local secrets into DATA_DIR), so both are set, and put back afterwards.
const saved = {
  ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
  ENCRYPTION_KEY_PREVIOUS: process.env.ENCRYPTION_KEY_PREVIOUS,
  SESSION_SECRET: process.env.SESSION_SECRET,
};

function switchToKey(key: string, previous: string[] = []) {
  process.env.ENCRYPTION_KEY = key;
  process.env.ENCRYPTION_KEY_PREVIOUS = previous.join(",");
  process.env.SESSION_SECRET = "unit-test-session-secret-0123456789";
  resetEnv();
}

beforeEach(() => switchToKey(KEY_A));

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnv();
});

/** Replaces one dot-separated part of a stored value. */
function withPart(stored: string, index: number, change: (part: string) => string) {
  const parts = stored.split(".");
  parts[index] = change(parts[index]);
  return parts.join(".");
}

/** Flips the lowest bit of the first byte of a base64url part. */
function flipFirstByte(part: string) {
  const bytes = Buffer.from(part, "base64url");
  bytes[0] ^= 1;
  return bytes.toString("base64url");
}

describe("encryptSecret / decryptSecret", () => {
  it("round-trips, including empty, long and non-ASCII secrets", () => {
    for (const plain of ["chpt_0123456789abcdef", "", "x".repeat(10_000), "pässwörd 🔑"]) {
      expect(decryptSecret(encryptSecret(plain))).toBe(plain);
    }
  });

  it("stores v1.<keyId>.<iv>.<tag>.<ciphertext> with a 12-byte IV and no trace of the plain text", () => {
    const stored = encryptSecret("chpt_0123456789abcdef");
    const [version, keyId, iv, tag, ciphertext] = stored.split(".");
    expect(stored.split(".")).toHaveLength(5);
    expect(version).toBe("v1");
    expect(Buffer.from(iv, "base64url")).toHaveLength(12);
    expect(Buffer.from(tag, "base64url")).toHaveLength(16);
    expect(Buffer.from(ciphertext, "base64url")).toHaveLength("chpt_0123456789abcdef".length);
    for (const part of [iv, tag, ciphertext]) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain("chpt_");
    expect(stored).not.toContain("0123456789abcdef");
    // The key id is the first 8 hex characters of sha256 of the 32-byte HKDF-SHA256 key.
    expect(keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(keyId).toBe(currentKeyId());
    const derived = Buffer.from(
      hkdfSync("sha256", KEY_A, "stackshift/secrets-at-rest", "aes-256-gcm v1", 32),
    );
    expect(keyId).toBe(createHash("sha256").update(derived).digest("hex").slice(0, 8));
  });

  it("makes a different ciphertext (and IV) every time", () => {
    const values = Array.from({ length: 50 }, () => encryptSecret("the same secret"));
    expect(new Set(values).size).toBe(50);
    expect(new Set(values.map((v) => v.split(".")[2])).size).toBe(50);
    for (const value of values) expect(decryptSecret(value)).toBe("the same secret");
  });

  it("detects tampering with the ciphertext, the IV, the tag or the version", () => {
    const stored = encryptSecret("chpt_0123456789abcdef");
    const tampered = [
      withPart(stored, 4, flipFirstByte),
      withPart(stored, 2, flipFirstByte),
      withPart(stored, 3, flipFirstByte),
      withPart(stored, 4, (p) => p.slice(0, -2)),
    ];
    for (const value of tampered) {
      expect(() => decryptSecret(value), value).toThrow(SecretDecryptionError);
      expect(() => decryptSecret(value), value).toThrow(/integrity check|malformed/);
    }
    expect(() => decryptSecret(withPart(stored, 0, () => "v2"))).toThrow(/format/);
    for (const value of [
      "",
      "plain-text-token",
      "v1.abc",
      `${stored}.extra`,
      stored.replace(/\./g, ":"),
    ]) {
      expect(() => decryptSecret(value), value).toThrow(SecretDecryptionError);
    }
  });

  it("refuses a value encrypted under another key, naming both key ids", () => {
    const underA = encryptSecret("chpt_0123456789abcdef");
    const idA = currentKeyId();
    switchToKey(KEY_B);
    const idB = currentKeyId();
    expect(idB).not.toBe(idA);
    expect(() => decryptSecret(underA)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(underA)).toThrow(
      `Stored secret was encrypted under key ${idA}, but the current ENCRYPTION_KEY is key ${idB}`,
    );
    // Relabelled as the current key's, it still fails: the key and the label are both checked.
    const relabelled = withPart(underA, 1, () => idB);
    expect(() => decryptSecret(relabelled)).toThrow(/integrity check/);
    // Back under key A it decrypts again.
    switchToKey(KEY_A);
    expect(decryptSecret(underA)).toBe("chpt_0123456789abcdef");
  });

  it("works with a configured key of any length", () => {
    for (const key of ["sixteen-chars-ok", "k".repeat(300)]) {
      switchToKey(key);
      expect(decryptSecret(encryptSecret("secret"))).toBe("secret");
    }
  });
});

describe("previous keys (ENCRYPTION_KEY_PREVIOUS)", () => {
  it("decrypts with the key the value names, and encrypts under the current key only", () => {
    const underA = encryptSecret("sk_test_underA0001");
    const idA = currentKeyId();
    switchToKey(KEY_B);
    const underB = encryptSecret("sk_test_underB0001");
    const idB = currentKeyId();
    switchToKey(KEY_C, [KEY_B, KEY_A]);
    const idC = currentKeyId();
    expect(previousKeyIds()).toEqual([idB, idA]);
    expect(decryptSecret(underA)).toBe("sk_test_underA0001");
    expect(decryptSecret(underB)).toBe("sk_test_underB0001");
    const fresh = encryptSecret("sk_test_fresh0001");
    expect(keyIdOf(fresh)).toBe(idC);
    expect(keyIdOf(underA)).toBe(idA);
    expect(keyIdOf("plain-text")).toBeNull();
    // A value relabelled with another known key id fails its integrity check.
    expect(() => decryptSecret(withPart(underA, 1, () => idB))).toThrow(/integrity check/);
  });

  it("names the current and previous key ids when a value is under neither", () => {
    const underA = encryptSecret("chpt_0123456789abcdef");
    const idA = currentKeyId();
    switchToKey(KEY_C, [KEY_B]);
    expect(() => decryptSecret(underA)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(underA)).toThrow(
      `Stored secret was encrypted under key ${idA}, but the current ENCRYPTION_KEY is key ` +
        `${currentKeyId()} or a previous key (${previousKeyIds()[0]})`,
    );
  });

  it("ignores a previous key equal to the current one, and empty entries", () => {
    switchToKey(KEY_A, [KEY_A, "", KEY_B]);
    expect(previousKeyIds()).toHaveLength(1);
    expect(decryptSecret(encryptSecret("x"))).toBe("x");
  });
});

describe("lastFour", () => {
  it("shows only the last four characters behind a mask", () => {
    expect(lastFour("chpt_0123456789abcd")).toBe("••••abcd");
    expect(lastFour("sk_live_51HxYz")).toBe("••••HxYz");
  });

  it("shows nothing of short values", () => {
    expect(lastFour("")).toBe("••••");
    expect(lastFour("abcd")).toBe("••••");
    expect(lastFour("abcdefg")).toBe("••••");
    expect(lastFour("abcdefgh")).toBe("••••efgh");
  });
});
