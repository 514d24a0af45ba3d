/**
 * The operating contract end to end: `node scripts/start.mjs` (what `npm start` runs) builds if
 * needed, migrates, serves, sends the security headers, refuses cross-origin writes, and exits
 * cleanly on SIGTERM. Run against a fresh embedded database and, when present, PostgreSQL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

let child: ChildProcess | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

async function startServer(env: Record<string, string>) {
  const port = 3500 + Math.floor(Math.random() * 400);
  const output: string[] = [];
  // Not the test runner's environment: VITEST would switch the Remix plugin off for a build.
  // NODE_ENV too: start.mjs must imply it, as it does for `npm start`.
  const {
    VITEST: _v,
    VITEST_POOL_ID: _p,
    VITEST_WORKER_ID: _w,
    NODE_ENV: _n,
    ...inherited
  } = process.env;
  const proc = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...inherited, PORT: String(port), APP_URL: "", ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  proc.stdout!.on("data", (d) => output.push(String(d)));
  proc.stderr!.on("data", (d) => output.push(String(d)));
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited early:\n${output.join("")}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return { base, output, proc };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not start:\n${output.join("")}`);
}

async function stopAndWait(proc: ChildProcess) {
  const exited = new Promise<number | null>((resolve) =>
    proc.once("exit", (code) => resolve(code)),
  );
  proc.kill("SIGTERM");
  return exited;
}

async function checkContract(base: string) {
  const page = await fetch(`${base}/auth/login`);
  expect(page.status).toBe(200);
  const csp = page.headers.get("content-security-policy") ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  expect(page.headers.get("strict-transport-security")).toBeNull(); // plain http
  // The nonce in the header is the one on the page's inline scripts.
  const nonce = csp.match(/'nonce-([^']+)'/)![1];
  expect(await page.text()).toContain(`nonce="${nonce}"`);

  const anonymous = await fetch(`${base}/`, { redirect: "manual" });
  expect(anonymous.status).toBe(302);
  expect(anonymous.headers.get("location")).toBe("/auth/login?redirectTo=%2F");

  const crossSite = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: {
      Origin: "https://evil.example",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "email=a%40b.co&password=x",
  });
  expect(crossSite.status).toBe(403);
}

describe("npm start", () => {
  it("serves a fresh embedded database and exits cleanly on SIGTERM", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-start-"));
    const { base, proc, output } = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SESSION_SECRET: "",
      ENCRYPTION_KEY: "",
    });
    expect(output.join("")).toContain("database: pglite");
    await checkContract(base);
    expect(fs.existsSync(path.join(dataDir, "secrets.json"))).toBe(true);
    expect(await stopAndWait(proc)).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 180_000);

  it.runIf(process.env.DATABASE_URL)(
    "uses PostgreSQL when DATABASE_URL is set",
    async () => {
      const { base, proc, output } = await startServer({
        DATABASE_URL: process.env.DATABASE_URL!,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-start-pg-")),
      });
      expect(output.join("")).toContain("database: postgres");
      await checkContract(base);
      expect(await stopAndWait(proc)).toBe(0);
    },
    180_000,
  );
});
