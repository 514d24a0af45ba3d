// What the soak scripts share: built servers started as `npm start` starts them, a database of
// their own (PostgreSQL or a fresh PGlite directory), direct reads of that database, and an HTTP
// client that signs in and speaks the JSON API.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { childEnv } from "../child-env.mjs";
import { adminQuery as adminQueryOn } from "../pg-admin.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * `--name value` (or `--name=value`) from argv, else `fallback`.
 * @template {string | undefined} F
 * @param {string} name
 * @param {F} [fallback] (undefined when not given)
 * @returns {string | F}
 */
export function option(name, fallback) {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === `--${name}`) return args[i + 1] ?? /** @type {F} */ (fallback);
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
  }
  return /** @type {F} */ (fallback);
}

/** @param {string} name */
export function flag(name) {
  return process.argv.slice(2).includes(`--${name}`);
}

/**
 * `--name N`, a whole number of at least `min` (else the script exits 2), or `fallback`.
 * @param {string} name
 * @param {number} fallback
 * @param {{ min?: number }} [options]
 */
export function wholeNumber(name, fallback, { min = 0 } = {}) {
  const value = option(name, undefined);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number of at least ${min}, not "${value}".`);
    process.exit(2);
  }
  return n;
}

export const sleep = (/** @type {number} */ ms) =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on now. */
export async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (probe.address());
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

// ---------------------------------------------------------------------------------------------
// Databases

export const adminUrl =
  process.env.SOAK_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * @param {string} url
 * @param {string} name
 */
function withDatabase(url, name) {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

const adminQuery = (/** @type {string} */ sql) => adminQueryOn(adminUrl, sql);

/**
 * @typedef {{
 *   kind: "postgres" | "pglite";
 *   url?: string;
 *   dataDir: string;
 *   describe: string;
 *   drop: () => Promise<void>;
 * }} SoakDatabase
 */

/**
 * A fresh database for one run: `{ kind, url?, dataDir, drop() }`. PostgreSQL gets a database of
 * its own on `adminUrl`; PGlite a new directory in the system's temporary folder. Both get a
 * DATA_DIR (PGlite keeps its database in DATA_DIR/db).
 * @param {"postgres" | "pglite"} kind
 * @param {string} label
 * @param {{ pgliteFrom?: string }} [options]
 * @returns {Promise<SoakDatabase>}
 */
export async function freshDatabase(kind, label, { pgliteFrom } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `stackshift-soak-${label}-`));
  if (kind === "pglite") {
    // A copy of a migrated directory (the test suite's template) saves PGlite's initdb.
    if (pgliteFrom)
      fs.cpSync(path.join(pgliteFrom, "db"), path.join(dataDir, "db"), { recursive: true });
    return {
      kind,
      dataDir,
      describe: dataDir,
      async drop() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `stackshift_soak_${label}_${Date.now().toString(36)}_${process.pid}`;
  await adminQuery(`create database ${name}`);
  return {
    kind,
    dataDir,
    url: withDatabase(adminUrl, name),
    describe: `${new URL(adminUrl).host}/${name}`,
    async drop() {
      await adminQuery(`drop database if exists ${name} with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Whether PostgreSQL answers on `adminUrl`. */
export async function postgresAvailable() {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The run's database, read directly. A row is `any`: its columns are the statement's, which the
 * caller names.
 * @typedef {{
 *   query: (sql: string, params?: unknown[]) => Promise<any[]>;
 *   exec: (sql: string) => Promise<void>;
 *   migrate: () => Promise<void>;
 *   close: () => Promise<void>;
 * }} Direct
 */

/**
 * Opens the run's database directly: `{ query(sql, params) -> rows, exec(sql), migrate(),
 * close() }`. PGlite only while no server has it open (it belongs to one process); it loads
 * pg_trgm (the schema's search index) and amcheck (the soak's index check).
 * @param {Pick<SoakDatabase, "kind" | "url" | "dataDir">} database
 * @returns {Promise<Direct>}
 */
export async function openDirect(database) {
  const migrationsFolder = path.join(root, "drizzle");
  if (database.kind === "postgres") {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    return {
      query: async (sql, params) => (await client.query(sql, params)).rows,
      exec: async (sql) => void (await client.query(sql)),
      // The app's own migrations, as its start applies them (drizzle's migrator).
      async migrate() {
        const { drizzle } = await import("drizzle-orm/node-postgres");
        const { migrate } = await import("drizzle-orm/node-postgres/migrator");
        await migrate(drizzle(client), { migrationsFolder });
      },
      close: () => client.end(),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { amcheck } = await import("@electric-sql/pglite/contrib/amcheck");
  const client = await PGlite.create(path.join(database.dataDir, "db"), {
    extensions: { pg_trgm, amcheck },
  });
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    exec: async (sql) => void (await client.exec(sql)),
    async migrate() {
      const { drizzle } = await import("drizzle-orm/pglite");
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(drizzle(client), { migrationsFolder });
    },
    close: () => client.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// Servers

/**
 * Starts `node scripts/start.mjs` (what `npm start` runs) with one server process, so a SIGKILL
 * takes all of it down. The output is kept (its tail) and scanned line by line by `onLine`.
 * @param {{ port: number, env?: Record<string, string | undefined>, onLine?: (line: string) => void }} options
 */
export function spawnServer({ port, env, onLine }) {
  const base = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: childEnv({ PORT: String(port), APP_URL: base, WEB_CONCURRENCY: "1", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let tail = "";
  let partial = "";
  const take = (/** @type {Buffer} */ chunk) => {
    const text = partial + String(chunk);
    const lines = text.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) onLine?.(line);
    tail = (tail + String(chunk)).slice(-20_000);
  };
  proc.stdout.on("data", take);
  proc.stderr.on("data", take);
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { base, port, proc, exited, log: () => tail };
}

/** A started server: spawnServer's answer. @typedef {ReturnType<typeof spawnServer>} SoakServer */

/**
 * Waits for /healthz; null when up, else why not (the process exited, or the time ran out).
 * @param {SoakServer} server
 * @returns {Promise<string | null>}
 */
export async function waitForHealth(server, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  /** @type {{ exit: { code: number | null, signal: NodeJS.Signals | null } | null }} */
  const seen = { exit: null };
  void server.exited.then((value) => (seen.exit = value));
  while (Date.now() < deadline) {
    const { exit } = seen;
    if (exit) return `exited (${exit.signal ?? `code ${exit.code}`})`;
    try {
      const res = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return null;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return `no answer on /healthz within ${Math.round(timeoutMs / 1000)} s`;
}

/**
 * Signals the server (unless it has exited) and waits for its exit.
 * @param {SoakServer} server
 * @param {NodeJS.Signals} [signal]
 */
export async function stopServer(server, signal = "SIGTERM") {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return server.exited;
  server.proc.kill(signal);
  return server.exited;
}

// ---------------------------------------------------------------------------------------------
// HTTP

/**
 * Whether an error is the server being away (refused, reset, timed out): the outcome is unknown.
 * @param {any} error whatever was thrown: fetch's TypeError, a DOMException, anything else
 */
export function isNetworkError(error) {
  return (
    error instanceof TypeError || error?.name === "TimeoutError" || error?.name === "AbortError"
  );
}

/**
 * One JSON API request. Throws on network errors; returns `{ status, body }` otherwise.
 * @param {string} base
 * @param {string} method
 * @param {string} pathname
 * @param {{ cookie?: string, json?: unknown, timeoutMs?: number }} [options]
 */
export async function api(base, method, pathname, { cookie, json, timeoutMs = 20_000 } = {}) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: {
      ...(json !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
      Origin: base,
    },
    body: json !== undefined ? JSON.stringify(json) : undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { text: text.slice(0, 300) };
  }
  return { status: res.status, body };
}

/**
 * Signs in through the login form; returns the session cookie ("name=value").
 * @param {string} base
 * @param {string} email
 * @param {string} password
 */
export async function logIn(base, email, password) {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email, password, redirectTo: "/" }),
    signal: AbortSignal.timeout(20_000),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.includes("stackshift_session="));
  if (!cookie) throw new Error(`login of ${email} failed: HTTP ${res.status}`);
  return cookie.split(";")[0];
}
