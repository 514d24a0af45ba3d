// What the benchmark scripts need around the server they start (the admin database: ../pg-admin.mjs).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { PASSWORD } from "./seed.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Starts the built server for a benchmark on `port` and the database at `dbUrl`: production mode,
 * the local providers, rate limits off (the documented switch for benchmarks), no automatic
 * deployments of the seeded (old) projects, mail to the log. `args` are node's (the start script
 * by default); `env` adds or overrides variables. Returns the process and its output so far.
 * @param {{ port: number; dbUrl: string; args?: string[]; env?: Record<string, string> }} options
 */
export function spawnBenchServer({ port, dbUrl, args = ["scripts/start.mjs"], env = {} }) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: dbUrl,
      SESSION_SECRET: "benchmark-session-secret-0123456789",
      ENCRYPTION_KEY: "benchmark-encryption-key-0123456789",
      PROVIDERS: "local",
      // The benchmark signs in many times from one address.
      RATE_LIMITS: "off",
      WEB_CONCURRENCY: "1",
      // Seeded projects are old: no automatic deployments during the run.
      AUTO_DEPLOY_AFTER_MINUTES: "1000000",
      SMTP_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  return { child, log: () => log };
}

/** A benchmark's server: spawnBenchServer's answer. @typedef {ReturnType<typeof spawnBenchServer>} BenchServer */

/**
 * Waits up to two minutes for /healthz (migrations applied), else fails with the server's log.
 * @param {string} base
 * @param {BenchServer} server
 */
export async function waitForHealth(base, server) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not start:\n${server.log()}`);
}

/**
 * The cookies a signed-in browser sends: the session, and the time zone that any earlier page of
 * the product stored once its script ran (app/utils/time-zone.ts), here the machine's, the zone
 * Chromium runs in. Lighthouse then measures a page as people load it, not the first page a
 * browser shows after signing in by a script: without the cookie, that page asks Intl for the
 * browser's zone (up to 107 ms of one task at a 4x CPU slowdown on this machine).
 * @param {string} session the `stackshift_session=...` pair of benchLogIn
 */
export function browserCookies(session) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${session}; tz=${encodeURIComponent(zone)}`;
}

/**
 * Signs a seeded account in through the login form; its session cookie ("name=value").
 * @param {string} base
 * @param {string} email
 */
export async function benchLogIn(base, email) {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email, password: PASSWORD, redirectTo: "/" }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.includes("stackshift_session="));
  if (!cookie) throw new Error(`login of ${email} failed: HTTP ${res.status}`);
  return cookie.split(";")[0];
}
