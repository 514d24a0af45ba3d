/**
 * `npm start` on a public https APP_URL : without SMTP_URL every mail's live link would
 * go to the log, with PROVIDERS=local visitors would get stand-ins; both are refused with a
 * paragraph naming the variable to set, unless ALLOW_LOG_MAIL=1 / ALLOW_LOCAL_PROVIDERS=1, and so
 * is RATE_LIMITS=off (unless ALLOW_RATE_LIMITS_OFF=1). A TRUST_PROXY that trusts every address is
 * refused on any address (unless ALLOW_ANY_PROXY=1). A local run (no environment, or https on
 * localhost) starts as before (docs/configuration.md).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { parseEnv, parseTrustProxy, startRefusal, trustsEveryone } from "~/utils/env.server";
import { startServer, startToExit, stopServer, type Server } from "./lifecycle-support";

const running: Server[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await stopServer(server);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// Secrets given, so parseEnv writes nothing to disk.
const secrets = {
  SESSION_SECRET: "refusal-session-secret-0123456789",
  ENCRYPTION_KEY: "refusal-encryption-key-0123456789",
};
const refusalOf = (vars: Record<string, string>) =>
  startRefusal(parseEnv({ NODE_ENV: "test", ...secrets, ...vars }));

/** A DATA_DIR holding a copy of the suite's migrated PGlite template. */
function pglite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-refusal-"));
  fs.cpSync(path.join(inject("pgliteTemplate"), "db"), path.join(dir, "db"), { recursive: true });
  dirs.push(dir);
  return { DATA_DIR: dir, DATABASE_URL: "", SMTP_URL: "", PROVIDERS: "", ...secrets };
}

const PUBLIC = "https://dashboard.example.com";

describe("the start check (startRefusal)", () => {
  it("lets a run with no environment at all start (http://localhost)", () => {
    expect(refusalOf({})).toBeNull();
  });

  it("refuses a public https APP_URL without SMTP_URL, naming SMTP_URL and ALLOW_LOG_MAIL", () => {
    const refusal = refusalOf({ APP_URL: PUBLIC, PROVIDERS: "live" });
    expect(refusal).toMatch(/^APP_URL is https:\/\/dashboard\.example\.com, a public address/);
    expect(refusal).toContain("Set SMTP_URL");
    expect(refusal).toContain("ALLOW_LOG_MAIL=1");
    expect(refusal).not.toContain("PROVIDERS");
  });

  it("refuses a public https APP_URL on the local providers, naming PROVIDERS and ALLOW_LOCAL_PROVIDERS", () => {
    for (const providers of ["local", ""]) {
      const refusal = refusalOf({
        APP_URL: PUBLIC,
        SMTP_URL: "smtp://mail.example.com:587",
        PROVIDERS: providers,
      });
      expect(refusal).toContain("PROVIDERS is local");
      expect(refusal).toContain("PROVIDERS=live");
      expect(refusal).toContain("ALLOW_LOCAL_PROVIDERS=1");
      expect(refusal).not.toContain("SMTP_URL");
    }
  });

  it("starts when ALLOW_LOG_MAIL=1 and ALLOW_LOCAL_PROVIDERS=1 say it is meant, each for its own case", () => {
    expect(refusalOf({ APP_URL: PUBLIC, PROVIDERS: "live", ALLOW_LOG_MAIL: "1" })).toBeNull();
    expect(
      refusalOf({ APP_URL: PUBLIC, SMTP_URL: "smtp://m:25", ALLOW_LOCAL_PROVIDERS: "1" }),
    ).toBeNull();
    // One override does not excuse the other case.
    expect(refusalOf({ APP_URL: PUBLIC, ALLOW_LOG_MAIL: "1" })).toContain("ALLOW_LOCAL_PROVIDERS");
    expect(refusalOf({ APP_URL: PUBLIC, ALLOW_LOCAL_PROVIDERS: "1" })).toContain("ALLOW_LOG_MAIL");
    expect(
      refusalOf({ APP_URL: PUBLIC, ALLOW_LOG_MAIL: "1", ALLOW_LOCAL_PROVIDERS: "1" }),
    ).toBeNull();
    expect(refusalOf({ APP_URL: PUBLIC, SMTP_URL: "smtp://m:25", PROVIDERS: "live" })).toBeNull();
  });

  it("lets https on localhost, 127.0.0.1 and ::1, and plain http, start without SMTP_URL on local providers", () => {
    for (const url of [
      "https://localhost:3443",
      "https://127.0.0.1",
      "https://[::1]:8443",
      "http://dashboard.example.com",
    ]) {
      expect(refusalOf({ APP_URL: url }), url).toBeNull();
    }
  });
});

describe("RATE_LIMITS=off (benchmarks)", () => {
  const deployed = { APP_URL: PUBLIC, SMTP_URL: "smtp://m:25", PROVIDERS: "live" };

  it("refuses a public https APP_URL in one line naming RATE_LIMITS and ALLOW_RATE_LIMITS_OFF=1", () => {
    const refusal = refusalOf({ ...deployed, RATE_LIMITS: "off" });
    expect(refusal).toMatch(
      /^APP_URL is https:\/\/dashboard\.example\.com, a public address, but RATE_LIMITS is off/,
    );
    expect(refusal).toContain("ALLOW_RATE_LIMITS_OFF=1");
    expect(refusal!.split("\n")).toHaveLength(1);
  });

  it("runs on localhost, 127.0.0.1, ::1 and plain http, and where ALLOW_RATE_LIMITS_OFF=1 says so", () => {
    for (const url of [
      "http://localhost:3000",
      "https://localhost:3443",
      "https://127.0.0.1",
      "https://[::1]:8443",
      "http://dashboard.example.com",
    ]) {
      expect(refusalOf({ APP_URL: url, RATE_LIMITS: "off" }), url).toBeNull();
    }
    expect(refusalOf({ ...deployed, RATE_LIMITS: "off", ALLOW_RATE_LIMITS_OFF: "1" })).toBeNull();
    expect(refusalOf({ ...deployed, RATE_LIMITS: "on" })).toBeNull();
  });
});

describe("TRUST_PROXY trusting every address", () => {
  const everyone = (value: string) => trustsEveryone(parseTrustProxy(value)!);

  it("is recognised in its spellings: whole families, their halves, IPv4-mapped, routed IPv6", () => {
    for (const value of [
      "0.0.0.0/0",
      "::/0",
      "10.0.0.1, 0.0.0.0/0",
      "0.0.0.0/1,128.0.0.0/1",
      "0.0.0.0/2,64.0.0.0/2,128.0.0.0/1",
      "::ffff:0:0/96",
      "::/1,8000::/1",
      "2000::/3",
      "loopback,2000::/4,3000::/4",
    ]) {
      expect(everyone(value), value).toBe(true);
    }
    for (const value of [
      "loopback",
      "2",
      "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16",
      "0.0.0.0/1",
      "0.0.0.0/1,128.0.0.0/2,192.0.0.0/3",
      "2000::/4",
      "fd00::/8,uniquelocal,linklocal",
    ]) {
      expect(everyone(value), value).toBe(false);
    }
  });

  it("refuses to start, on any APP_URL, naming the value and ALLOW_ANY_PROXY=1", () => {
    const apps: Record<string, string>[] = [
      {},
      { APP_URL: PUBLIC, SMTP_URL: "smtp://m:25", PROVIDERS: "live" },
    ];
    for (const app of apps) {
      const refusal = refusalOf({ ...app, TRUST_PROXY: "0.0.0.0/1,128.0.0.0/1" });
      expect(refusal).toMatch(/^TRUST_PROXY=0\.0\.0\.0\/1,128\.0\.0\.0\/1 trusts every address/);
      expect(refusal).toContain("ALLOW_ANY_PROXY=1");
      expect(refusal!.split("\n")).toHaveLength(1);
    }
    expect(refusalOf({ TRUST_PROXY: "::/0" })).toMatch(/^TRUST_PROXY=::\/0 trusts every address/);
  });

  it("starts when ALLOW_ANY_PROXY=1 says it is meant, and with proxies listed", () => {
    expect(refusalOf({ TRUST_PROXY: "0.0.0.0/0", ALLOW_ANY_PROXY: "1" })).toBeNull();
    expect(refusalOf({ TRUST_PROXY: "10.0.0.0/8,loopback" })).toBeNull();
    expect(refusalOf({ TRUST_PROXY: "3" })).toBeNull();
  });
});

describe("npm start on a public https APP_URL", () => {
  it("exits 1 with both paragraphs and no stack trace when SMTP_URL is unset and PROVIDERS=local", async () => {
    const { code, output } = await startToExit({ ...pglite(), APP_URL: PUBLIC });
    expect(code).toBe(1);
    expect(output).toContain("but SMTP_URL is not set");
    expect(output).toContain("ALLOW_LOG_MAIL=1");
    expect(output).toContain("but PROVIDERS is local");
    expect(output).toContain("ALLOW_LOCAL_PROVIDERS=1");
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain("StackShift dashboard on");
  }, 180_000);

  it("exits 1 with one line and no stack trace when TRUST_PROXY trusts every address", async () => {
    const { code, output } = await startToExit({ ...pglite(), TRUST_PROXY: "::/0" });
    expect(code).toBe(1);
    expect(output).toContain("TRUST_PROXY=::/0 trusts every address");
    expect(output).toContain("ALLOW_ANY_PROXY=1");
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain("StackShift dashboard on");
  }, 180_000);

  it("exits 1 with one line when RATE_LIMITS=off, the other overrides set", async () => {
    const { code, output } = await startToExit({
      ...pglite(),
      APP_URL: PUBLIC,
      ALLOW_LOG_MAIL: "1",
      ALLOW_LOCAL_PROVIDERS: "1",
      RATE_LIMITS: "off",
    });
    expect(code).toBe(1);
    expect(output).toContain("but RATE_LIMITS is off");
    expect(output).toContain("ALLOW_RATE_LIMITS_OFF=1");
    expect(output).not.toContain("SMTP_URL is not set");
    expect(output).not.toMatch(/^\s+at /m);
  }, 180_000);

  it("serves when ALLOW_LOG_MAIL=1 and ALLOW_LOCAL_PROVIDERS=1 are set", async () => {
    const server = await startServer({
      ...pglite(),
      APP_URL: PUBLIC,
      ALLOW_LOG_MAIL: "1",
      ALLOW_LOCAL_PROVIDERS: "1",
    });
    running.push(server);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
  }, 180_000);

  it("serves an https APP_URL on localhost without SMTP_URL, on the local providers", async () => {
    const server = await startServer({ ...pglite(), APP_URL: "https://localhost:3443" });
    running.push(server);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
  }, 180_000);
});
