import { hash } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import {
  hashPassword,
  needsRehash,
  parsePasswordHash,
  PASSWORD_HASH_PARAMETERS,
  verifyPassword,
} from "./passwords.server";

// Values of @node-rs/argon2's const enum Algorithm (unreadable under isolatedModules).
const ARGON2I = 1;
const ARGON2ID = 2;

describe("hashPassword", () => {
  it("makes argon2id PHC strings with the pinned parameters (OWASP's minimum)", async () => {
    expect(PASSWORD_HASH_PARAMETERS).toMatchObject({
      algorithm: "argon2id",
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
    const stored = await hashPassword("correct horse battery");
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(parsePasswordHash(stored)).toEqual({
      algorithm: "argon2id",
      version: 19,
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });
});

describe("verifyPassword", () => {
  it("accepts the password and refuses any other", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword(stored, "correct horse battery")).toBe(true);
    expect(await verifyPassword(stored, "correct horse battery ")).toBe(false);
    expect(await verifyPassword(stored, "")).toBe(false);
  });

  it("verifies hashes made with other parameters (they are read from the string)", async () => {
    const older = await hash("pw", { algorithm: ARGON2ID, memoryCost: 4096, timeCost: 3 });
    expect(await verifyPassword(older, "pw")).toBe(true);
    expect(await verifyPassword(older, "other")).toBe(false);
  });

  it("treats a malformed hash as a mismatch, not an error", async () => {
    expect(await verifyPassword("not a hash", "pw")).toBe(false);
    expect(await verifyPassword("", "pw")).toBe(false);
  });
});

describe("needsRehash", () => {
  it("is false for our own hashes", async () => {
    expect(needsRehash(await hashPassword("pw"))).toBe(false);
  });

  it("is false for @node-rs/argon2 2.x defaults only because they equal the pinned values", async () => {
    // The library's defaults today are argon2id m=19456 t=2 p=1. If an upgrade changes them,
    // this test fails and hashes made with the new defaults get upgraded (the case below).
    const withDefaults = await hash("pw");
    expect(parsePasswordHash(withDefaults)).toEqual(parsePasswordHash(await hashPassword("pw")));
    expect(needsRehash(withDefaults)).toBe(false);
  });

  it("is true when the algorithm or any parameter differs", async () => {
    const variants = [
      { algorithm: ARGON2I },
      { memoryCost: 65536 },
      { memoryCost: 4096 },
      { timeCost: 3 },
      { timeCost: 1 },
      { parallelism: 2 },
    ];
    for (const options of variants) {
      const other = await hash("pw", { algorithm: ARGON2ID, ...options });
      expect(needsRehash(other), JSON.stringify(options)).toBe(true);
    }
  });

  it("is true for an older argon2 version and for strings that are not PHC argon2 hashes", () => {
    const salt = "c29tZXNhbHRzb21lc2FsdA";
    const digest = "yKSaTIs7Brzsfz0PyZvu2uWSg+wlm+tEFijNAu/CdFQ";
    expect(needsRehash(`$argon2id$v=19$m=19456,t=2,p=1$${salt}$${digest}`)).toBe(false);
    expect(needsRehash(`$argon2id$v=16$m=19456,t=2,p=1$${salt}$${digest}`)).toBe(true);
    expect(needsRehash(`$argon2id$m=19456,t=2,p=1$${salt}$${digest}`)).toBe(true);
    expect(needsRehash(`$argon2id$v=19$m=19456,t=2$${salt}$${digest}`)).toBe(true);
    expect(needsRehash(`$argon2id$v=19$m=19456,t=2,p=1,x=1$${salt}$${digest}`)).toBe(true);
    expect(needsRehash("$2b$12$abcdefghijklmnopqrstuu5Sx6Vj4eQ1oVxhqz9bJ7m2K5kqk1P2C")).toBe(true);
    expect(needsRehash("")).toBe(true);
  });
});
