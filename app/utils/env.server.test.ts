import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { parseEnv, parseTrustProxy, rotateLocalEncryptionKey } from "./env.server";

// Secrets given, so parseEnv never writes generated ones to disk.
const base = {
  NODE_ENV: "test",
  SESSION_SECRET: "x".repeat(32),
  ENCRYPTION_KEY: "y".repeat(32),
} as const;
const trustProxyOf = (value?: string) => parseEnv({ ...base, TRUST_PROXY: value }).TRUST_PROXY;

describe("TRUST_PROXY", () => {
  it("defaults to loopback when unset or empty", () => {
    expect(trustProxyOf(undefined)).toEqual(["loopback"]);
    expect(trustProxyOf("")).toEqual(["loopback"]);
  });

  it("reads a whole number as a hop count", () => {
    expect(trustProxyOf("0")).toBe(0);
    expect(trustProxyOf("2")).toBe(2);
    expect(trustProxyOf(" 12 ")).toBe(12);
  });

  it("reads a comma-separated list of addresses, CIDRs and named ranges", () => {
    expect(trustProxyOf("10.0.0.0/8, 192.168.1.7,loopback")).toEqual([
      "10.0.0.0/8",
      "192.168.1.7",
      "loopback",
    ]);
    expect(trustProxyOf("linklocal,uniquelocal")).toEqual(["linklocal", "uniquelocal"]);
    expect(trustProxyOf("::1,fd00::/8")).toEqual(["::1", "fd00::/8"]);
  });

  it("refuses anything else, naming the variable", () => {
    for (const value of [
      "true",
      "false",
      "*",
      "-1",
      "1.5",
      "10.0.0.0/33",
      "::1/129",
      "10.0.0.0/8/1",
      "10.0.0.0/x",
      "300.1.1.1",
      "10.0.0.1,",
      "Loopback",
      "proxy.example.com",
    ]) {
      expect(parseTrustProxy(value), value).toBeNull();
      expect(() => trustProxyOf(value), value).toThrow(/TRUST_PROXY/);
    }
  });

  it("decides which X-Forwarded-For hop express takes as the client IP", async () => {
    /** req.ip of a request from 127.0.0.1 forwarded for 203.0.113.9 through 10.1.2.3. */
    async function clientIp(trust: number | string[]) {
      const app = express();
      app.set("trust proxy", trust);
      app.get("/", (req, res) => {
        res.send(req.ip);
      });
      const server = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const res = await fetch(`http://127.0.0.1:${port}/`, {
          headers: { "X-Forwarded-For": "203.0.113.9, 10.1.2.3" },
        });
        return await res.text();
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
    expect(await clientIp(trustProxyOf(undefined))).toBe("10.1.2.3");
    expect(await clientIp(trustProxyOf("loopback,10.0.0.0/8"))).toBe("203.0.113.9");
    expect(await clientIp(trustProxyOf("2"))).toBe("203.0.113.9");
    expect(await clientIp(trustProxyOf("0"))).toBe("127.0.0.1");
    expect(await clientIp(trustProxyOf("192.168.0.0/16"))).toBe("127.0.0.1");
  });
});

describe("secrets", () => {
  it("uses a configured ENCRYPTION_KEY even when SESSION_SECRET comes from DATA_DIR", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-env-"));
    try {
      const parsed = parseEnv({
        NODE_ENV: "test",
        DATA_DIR: dir,
        ENCRYPTION_KEY: "configured-encryption-key-123",
      });
      expect(parsed.ENCRYPTION_KEY).toBe("configured-encryption-key-123");
      expect(parsed.SESSION_SECRET).toMatch(/^[\w-]{43}$/);
      const again = parseEnv({
        NODE_ENV: "test",
        DATA_DIR: dir,
        SESSION_SECRET: "configured-session-secret-123",
      });
      expect(again.SESSION_SECRET).toBe("configured-session-secret-123");
      expect(again.ENCRYPTION_KEY).not.toBe("configured-encryption-key-123");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("ENCRYPTION_KEY_PREVIOUS", () => {
  it("reads a comma-separated list of keys, without the current key or duplicates", () => {
    expect(parseEnv(base).ENCRYPTION_KEY_PREVIOUS).toEqual([]);
    const parsed = parseEnv({
      ...base,
      ENCRYPTION_KEY_PREVIOUS: ` ${"a".repeat(16)}, ${"b".repeat(20)},,${"a".repeat(16)},${"y".repeat(32)}`,
    });
    expect(parsed.ENCRYPTION_KEY_PREVIOUS).toEqual(["a".repeat(16), "b".repeat(20)]);
    expect(parsed.encryptionKeyFrom).toBe("env");
  });

  it("refuses a key under 16 characters, naming the variable but not the value", () => {
    expect(() =>
      parseEnv({ ...base, ENCRYPTION_KEY_PREVIOUS: `${"a".repeat(16)},short-key` }),
    ).toThrow(/ENCRYPTION_KEY_PREVIOUS: comma-separated keys of at least 16 characters each/);
    expect(() => parseEnv({ ...base, ENCRYPTION_KEY_PREVIOUS: "short-key" })).not.toThrow(
      /short-key/,
    );
  });

  it("rotates a local key file: the new key is current, the old one previous, the session secret kept", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-env-"));
    try {
      const first = parseEnv({ NODE_ENV: "test", DATA_DIR: dir });
      expect(first.encryptionKeyFrom).toBe("file");
      expect(first.ENCRYPTION_KEY_PREVIOUS).toEqual([]);
      rotateLocalEncryptionKey(dir);
      const second = parseEnv({ NODE_ENV: "test", DATA_DIR: dir });
      expect(second.ENCRYPTION_KEY).not.toBe(first.ENCRYPTION_KEY);
      expect(second.ENCRYPTION_KEY_PREVIOUS).toEqual([first.ENCRYPTION_KEY]);
      expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
      rotateLocalEncryptionKey(dir);
      const third = parseEnv({
        NODE_ENV: "test",
        DATA_DIR: dir,
        ENCRYPTION_KEY_PREVIOUS: "from-the-environment-1",
      });
      expect(third.ENCRYPTION_KEY_PREVIOUS).toEqual([
        "from-the-environment-1",
        second.ENCRYPTION_KEY,
        first.ENCRYPTION_KEY,
      ]);
      expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dir)).toEqual(["secrets.json"]);
      // A configured ENCRYPTION_KEY does not take the file's previous keys.
      const configured = parseEnv({
        NODE_ENV: "test",
        DATA_DIR: dir,
        ENCRYPTION_KEY: "z".repeat(20),
      });
      expect(configured.ENCRYPTION_KEY_PREVIOUS).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("SITE_SCHEMA_VERSION", () => {
  const versionOf = (value?: string) =>
    parseEnv({ ...base, SITE_SCHEMA_VERSION: value }).SITE_SCHEMA_VERSION;

  it("is unset when not given (the projects service then uses the latest version it knows)", () => {
    expect(versionOf(undefined)).toBeUndefined();
    expect(versionOf("")).toBeUndefined();
  });

  it("takes a whole version from 1 and refuses anything else at startup", () => {
    expect(versionOf("2")).toBe(2);
    expect(versionOf(" 7 ")).toBe(7);
    for (const bad of ["0", "-1", "2.5", "v3", "abc"]) {
      expect(() => versionOf(bad), bad).toThrow(/SITE_SCHEMA_VERSION/);
    }
  });
});
