/**
 * The operating contract end to end: `node scripts/start.mjs` (what `npm start` runs) builds if
 * needed, migrates, serves, sends the security headers, refuses writes not from its own origin,
 * and exits cleanly on SIGTERM. Run against a fresh embedded database and, when present,
 * PostgreSQL.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startServer as spawnServer, type Server } from "./lifecycle-support";

let running: Server | undefined;

afterEach(() => {
  if (running && running.proc.exitCode === null) running.proc.kill("SIGKILL");
  running = undefined;
});

async function startServer(env: Record<string, string>) {
  running = await spawnServer(env);
  return running;
}

/** SIGTERM, then the exit code: the contract asks for a clean exit. */
async function stopAndWait(proc: ChildProcess) {
  // Already gone: its code now (waiting for an "exit" that has passed would hang the test).
  if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
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
  // Every response names its request, as the logs and the error pages do.
  expect(page.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  // The nonce in the header is the one on the page's inline scripts.
  const nonce = csp.match(/'nonce-([^']+)'/)![1];
  expect(await page.text()).toContain(`nonce="${nonce}"`);

  // The build's public files are served from their own names, and cached for an hour.
  const icon = await fetch(`${base}/favicon.svg`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
  expect(icon.headers.get("cache-control")).toBe("public, max-age=3600");
  expect((await fetch(`${base}/favicon.ico`, { redirect: "manual" })).status).toBe(301);

  const anonymous = await fetch(`${base}/`, { redirect: "manual" });
  expect(anonymous.status).toBe(302);
  expect(anonymous).toHaveRedirect("/auth/login?redirectTo=%2F");

  const crossSite = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: {
      Origin: "https://evil.example",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "email=a%40b.co&password=x",
  });
  expect(crossSite.status).toBe(403);
  // Nothing vouches for a POST with neither Origin nor Sec-Fetch-Site: refused too.
  const unvouched = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "email=a%40b.co&password=x",
  });
  expect(unvouched.status).toBe(403);
  // The app's own origin, as a browser sends it, reaches the route.
  const sameOrigin = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: "email=a%40b.co&password=x",
  });
  expect(sameOrigin.status).not.toBe(403);
  expect(sameOrigin.status).toBeLessThan(500);
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
    "uses PostgreSQL when DATABASE_URL is set, in WEB_CONCURRENCY processes that stop together",
    async () => {
      const { base, proc, output } = await startServer({
        DATABASE_URL: process.env.DATABASE_URL!,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-start-pg-")),
        WEB_CONCURRENCY: "2",
      });
      expect(output.join("")).toContain("Starting 2 server processes (WEB_CONCURRENCY)");
      // Both processes migrate (one at a time, under an advisory lock) and listen on the port.
      await expect
        .poll(() => output.join("").match(/database: postgres/g)?.length ?? 0, { timeout: 60_000 })
        .toBe(2);
      await checkContract(base);
      expect(await stopAndWait(proc)).toBe(0);
      expect(output.join("").match(/SIGTERM: shutting down/g)?.length).toBe(2);
    },
    180_000,
  );
});
