// Shared by scripts/backup.mjs and scripts/restore.mjs (docs/decisions/022-backups.md).
//
// A backup is one gzip-compressed tar file (written and read with the `tar` package):
//   manifest.json                  what the file is: format, version, created time, database kind,
//                                  migration level, the row count of every public table, secrets
//   database/pglite-datadir.tar    embedded database: PGlite's dumpDataDir() of $DATA_DIR/db
//   database/postgres.sql          PostgreSQL: pg_dump --format=plain --no-owner --no-privileges
//   secrets.json                   the generated secrets of $DATA_DIR (when there is that file)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import * as tar from "tar";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const FORMAT = "stackshift-backup";
export const FORMAT_VERSION = 1;
export const MANIFEST = "manifest.json";
export const PGLITE_DUMP = "database/pglite-datadir.tar";
export const POSTGRES_DUMP = "database/postgres.sql";
/** The files app/utils/env.server.ts (localSecrets) generates in DATA_DIR. */
export const SECRET_FILES = ["secrets.json"];
const ENTRIES = new Set([MANIFEST, PGLITE_DUMP, POSTGRES_DUMP, ...SECRET_FILES]);

/** A refusal or a failure the user can act on: printed as one line, exit status 1. */
export class Refusal extends Error {}

/**
 * Runs a script's main function: one line on stderr and exit 1 for any error.
 * @param {() => Promise<void>} main
 */
export async function run(main) {
  try {
    await main();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(error instanceof Refusal ? message : `Failed: ${message}`);
    if (process.env.DEBUG && error instanceof Error) console.error(error.stack);
    process.exitCode = 1;
  } finally {
    runCleanups();
  }
}

/** @type {(() => void)[]} */
const cleanups = [];
/**
 * Something to undo when the script ends, on error or Ctrl-C too (newest first).
 * @param {() => void} fn
 */
export function onCleanup(fn) {
  cleanups.push(fn);
  return () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
  };
}
function runCleanups() {
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      fn();
    } catch {
      // Best effort.
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    runCleanups();
    console.error(`Stopped (${signal}); nothing was changed.`);
    process.exit(130);
  });
}

export function config(source = process.env) {
  return {
    dataDir: path.resolve(source.DATA_DIR || "./data"),
    databaseUrl: source.DATABASE_URL || undefined,
  };
}

/**
 * A path as the user would type it (relative to the current directory when inside it).
 * @param {string} p
 */
export function shown(p) {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : p;
}

/** @param {string} p */
export function removeTree(p) {
  fs.rmSync(p, { recursive: true, force: true });
}

// ---- The embedded database ----------------------------------------------------------------

export const pgliteDir = (/** @type {string} */ dataDir) => path.join(dataDir, "db");

/**
 * True when the directory holds files (a PGlite data directory or anything else).
 * @param {string} dir
 */
export function nonEmptyDir(dir) {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** @param {number} pid */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

const lockFile = (/** @type {string} */ dataDir) => path.join(dataDir, "db.lock");

/**
 * @param {string} dataDir
 * @returns {{ pid: number; by?: string; since?: string; host?: string } | null}
 */
function readLock(dataDir) {
  try {
    const lock = JSON.parse(fs.readFileSync(lockFile(dataDir), "utf8"));
    return Number.isInteger(lock?.pid) ? lock : null;
  } catch {
    return null;
  }
}

/**
 * Refuses when a live process has $DATA_DIR/db open. The server and `npm run rotate-key` claim
 * $DATA_DIR/db.lock ({pid, by, since, host}: app/db/data-dir-lock.server.ts) while they hold it
 * (another host's lock cannot be checked: it counts as held); PGlite itself writes
 * db/postmaster.pid while open and removes it when closed cleanly. A lock left by a dead process
 * is a crash: the database recovers from its write-ahead log when opened. An open database that
 * no lock explains (an older server, another program) is refused too.
 * @param {string} dataDir
 */
export function assertNotInUse(dataDir) {
  const openMark = path.join(pgliteDir(dataDir), "postmaster.pid");
  const stop = "stop the server first";
  const lock = readLock(dataDir);
  if (lock && lock.pid !== process.pid) {
    if (lock.host && lock.host !== os.hostname()) {
      throw new Refusal(
        `${shown(dataDir)}/db is held by process ${lock.pid} on host ${lock.host}: ${stop} (if none runs there, delete ${shown(lockFile(dataDir))}).`,
      );
    }
    if (processAlive(lock.pid)) {
      throw new Refusal(
        `${shown(dataDir)}/db is in use by process ${lock.pid} (${lock.by ?? "the app"}, since ${lock.since}): ${stop}.`,
      );
    }
    return { crashed: fs.existsSync(openMark) };
  }
  if (fs.existsSync(openMark)) {
    throw new Refusal(
      `${shown(dataDir)}/db is open in another process or was not closed cleanly (db/postmaster.pid, no db.lock): ${stop}; if none runs, start and stop it once.`,
    );
  }
  return { crashed: false };
}

/**
 * Claims $DATA_DIR/db.lock as the server does (exclusive create; a dead holder's lock goes).
 * @param {string} dataDir
 * @param {string} by what holds it, as the lock says (a command)
 */
export function holdDataDir(dataDir, by) {
  const file = lockFile(dataDir);
  const mine = JSON.stringify({
    pid: process.pid,
    by,
    since: new Date().toISOString(),
    host: os.hostname(),
  });
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(file, mine, { flag: "wx" });
      break;
    } catch (error) {
      if (error.code !== "EEXIST" || attempt === 2) throw error;
    }
    assertNotInUse(dataDir);
    fs.rmSync(file, { force: true });
  }
  const release = () => {
    try {
      if (fs.readFileSync(file, "utf8") === mine) fs.rmSync(file);
    } catch {
      // Already gone.
    }
  };
  // Stopped (Ctrl-C) with the database open: the lock stays, with this dead pid it marks a crash.
  const forget = onCleanup(() => {
    if (openPglites === 0) release();
  });
  return () => {
    forget();
    release();
  };
}

let openPglites = 0;

/**
 * Opens a PGlite data directory the way the app does (with pg_trgm, migration 0005).
 * @param {string} dir
 * @param {import("@electric-sql/pglite").PGliteOptions} [options]
 */
export async function openPglite(dir, options = {}) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  openPglites += 1;
  try {
    const client = new PGlite(dir, { extensions: { pg_trgm }, ...options });
    await client.waitReady;
    return client;
  } catch (error) {
    openPglites -= 1;
    throw error;
  }
}

/** @param {import("@electric-sql/pglite").PGlite} client */
export async function closePglite(client) {
  await client.close();
  openPglites -= 1;
}

export function pgliteVersion() {
  const file = path.join(root, "node_modules/@electric-sql/pglite/package.json");
  return JSON.parse(fs.readFileSync(file, "utf8")).version;
}

// ---- Both databases -------------------------------------------------------------------------

/**
 * The migrations this version of the app knows (drizzle/meta/_journal.json).
 * @returns {{ tag: string; when: number }[]}
 */
export function appMigrations() {
  const journal = JSON.parse(
    fs.readFileSync(path.join(root, "drizzle/meta/_journal.json"), "utf8"),
  );
  return journal.entries.map((/** @type {{ tag: string; when: number }} */ e) => ({
    tag: e.tag,
    when: e.when,
  }));
}

/**
 * A runner of one SQL statement, of either database: resolves to its rows. The rows are `any`:
 * their columns are those of the statement, which the callers name.
 * @typedef {(sql: string) => Promise<{ rows: any[] }>} Query
 */

/**
 * How far a database is migrated: `query(sql)` runs one statement and resolves to {rows}.
 * @param {Query} query
 * @returns {Promise<{ applied: number; last: string | null; lastCreatedAt: number | null }>}
 */
export async function migrationLevel(query) {
  const { rows } = await query(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!rows[0].present) return { applied: 0, last: null, lastCreatedAt: null };
  const [row] = (
    await query(
      "select count(*)::int as applied, max(created_at)::text as last from drizzle.__drizzle_migrations",
    )
  ).rows;
  const lastCreatedAt = row.last === null ? null : Number(row.last);
  const known = appMigrations().find((m) => m.when === lastCreatedAt);
  return { applied: row.applied, last: known?.tag ?? null, lastCreatedAt };
}

const quoteIdent = (/** @type {string} */ name) => `"${name.replaceAll('"', '""')}"`;

/**
 * The row count of every table of the public schema (partitions counted in their parent).
 * @param {Query} query
 */
export async function tableCounts(query) {
  const { rows } = await query(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
     order by c.relname`,
  );
  /** @type {Record<string, number>} */
  const counts = {};
  for (const { name } of rows) {
    const result = await query(`select count(*)::int as n from public.${quoteIdent(name)}`);
    counts[name] = result.rows[0].n;
  }
  return counts;
}

export const totalRows = (/** @type {Record<string, number>} */ tables) =>
  Object.values(tables).reduce((a, b) => a + b, 0);

// ---- PostgreSQL ---------------------------------------------------------------------------

/**
 * The absolute path of a program on PATH, or null.
 * @param {string} program
 */
export function onPath(program) {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** @param {string} program */
export function requireProgram(program) {
  const found = onPath(program);
  if (!found) {
    throw new Refusal(
      `${program} is not on PATH: install the PostgreSQL client tools (Debian: apt-get install postgresql-client).`,
    );
  }
  return found;
}

/**
 * The URL without its password (for command lines) and the environment that carries it.
 * @param {string} url
 */
export function libpqTarget(url) {
  const u = new URL(url);
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, PGCONNECT_TIMEOUT: process.env.PGCONNECT_TIMEOUT ?? "10" };
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = "";
  }
  return { url: u.toString(), env, database: decodeURIComponent(u.pathname.slice(1)) };
}

/**
 * Runs a PostgreSQL client program: resolves to its (short) output, rejects with its error line.
 * @param {string} program
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<string>}
 */
export function runProgram(program, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout = (stdout + chunk).slice(-8000);
    });
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) return resolve(stdout);
      const lines = stderr.trim().split("\n").filter(Boolean);
      const why = lines.find((l) => /ERROR|FATAL|error:/.test(l)) ?? lines.at(-1);
      reject(new Error(`${path.basename(program)} ${signal ?? `exited ${code}`}: ${why ?? ""}`));
    });
  });
}

/** @param {string} url */
export async function connectPostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  return client;
}

const USER_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema')
  and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`;

/**
 * What a database holds besides an empty public schema: a few names, [] when empty.
 * @param {import("pg").Client} client
 */
export async function postgresContents(client) {
  const { rows } = await client.query(
    `(select 'schema ' || n.nspname as name from pg_namespace n
       where ${USER_SCHEMAS} and n.nspname <> 'public' order by 1 limit 4)
     union all
     (select n.nspname || '.' || c.relname from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where ${USER_SCHEMAS} order by 1 limit 4)`,
  );
  const names = rows.map((r) => r.name);
  return names.length > 4 ? [...names.slice(0, 4), "..."] : names;
}

/** SQL that fails (and so rolls the restore back) unless the database is empty. */
export const ASSERT_EMPTY_SQL = `do $restore$ begin
  if exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where ${USER_SCHEMAS})
     or exists (select 1 from pg_namespace n where ${USER_SCHEMAS} and n.nspname <> 'public')
  then raise exception 'the target database is not empty'; end if;
end $restore$;
`;

/** SQL that empties a database (--force): every user schema dropped, public made again. */
export const EMPTY_DATABASE_SQL = `do $restore$ declare s text; begin
  for s in select n.nspname from pg_namespace n where ${USER_SCHEMAS} loop
    execute format('drop schema %I cascade', s);
  end loop;
end $restore$;
create schema public;
grant usage on schema public to public;
`;

/**
 * A backup's manifest.json (scripts/backup.mjs writes it). Read from a file, so every field but
 * the format is checked before use.
 * @typedef {{
 *   format: string;
 *   version: number;
 *   createdAt: string;
 *   database: { kind: string; file: string; tool: string; postgresVersion: string };
 *   migrations: { applied: number; last: string | null; lastCreatedAt: number | null };
 *   tables: Record<string, number>;
 *   secrets?: string[];
 * }} Manifest
 */

/**
 * SQL that fails unless the public tables and the migrations are those of the manifest.
 * @param {Manifest} manifest
 */
export function assertManifestSql(manifest) {
  const expected = JSON.stringify(manifest.tables).replaceAll("'", "''");
  const applied = Number(manifest.migrations?.applied ?? 0);
  return `do $restore$ declare
  expected jsonb := '${expected}'::jsonb; t text; n bigint; bad text := '';
begin
  for t in select jsonb_object_keys(expected) loop
    execute format('select count(*) from public.%I', t) into n;
    if n <> (expected ->> t)::bigint then
      bad := bad || format(' %s has %s rows, the backup %s;', t, n, expected ->> t);
    end if;
  end loop;
  if ${applied} > 0 then
    execute 'select count(*) from drizzle.__drizzle_migrations' into n;
    if n <> ${applied} then bad := bad || format(' %s migrations, the backup ${applied};', n); end if;
  end if;
  if bad <> '' then raise exception 'restored rows differ from the backup:%', bad; end if;
end $restore$;
`;
}

// ---- The archive ----------------------------------------------------------------------------

/**
 * Writes the files of `dir` (names relative to it) as one .tar.gz, readable by its owner only.
 * @param {string} dir
 * @param {string[]} names
 * @param {string} file
 */
export async function writeArchive(dir, names, file) {
  const partial = `${file}.partial`;
  const forget = onCleanup(() => fs.rmSync(partial, { force: true }));
  await pipeline(
    tar.create({ gzip: true, cwd: dir, portable: true }, names),
    fs.createWriteStream(partial, { mode: 0o600 }),
  );
  fs.renameSync(partial, file);
  forget();
}

const notABackup = (/** @type {string} */ file, /** @type {string} */ why) =>
  new Refusal(`${shown(file)} is not a StackShift backup (${why}); nothing was changed.`);

/**
 * Unpacks a backup into `dir` and returns its manifest, or refuses a file that is not one.
 * @param {string} file
 * @param {string} dir
 * @returns {Promise<Manifest>}
 */
export async function readArchive(file, dir) {
  try {
    await tar.extract({
      file,
      cwd: dir,
      strict: true,
      // Extracting, tar hands each entry as it was read (a ReadEntry, with its type).
      filter: (entry, stat) => ENTRIES.has(entry) && "type" in stat && stat.type === "File",
    });
  } catch (error) {
    throw notABackup(file, `not a .tar.gz archive: ${error.message}`);
  }
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), "utf8"));
  } catch {
    throw notABackup(file, `no readable ${MANIFEST}`);
  }
  if (manifest?.format !== FORMAT) throw notABackup(file, `${MANIFEST} is not of ${FORMAT}`);
  if (!(manifest.version <= FORMAT_VERSION)) {
    throw new Refusal(
      `${shown(file)} is a backup of format version ${manifest.version}, newer than this dashboard reads (${FORMAT_VERSION}): restore it with the version that made it.`,
    );
  }
  const dump = manifest.database?.kind === "postgres" ? POSTGRES_DUMP : PGLITE_DUMP;
  if (!fs.existsSync(path.join(dir, dump))) throw notABackup(file, `${dump} is missing`);
  for (const name of manifest.secrets ?? []) {
    if (!fs.existsSync(path.join(dir, name))) throw notABackup(file, `${name} is missing`);
  }
  return manifest;
}

/** @param {number} n */
export function formatBytes(n) {
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export const seconds = (/** @type {number} */ since) => ((Date.now() - since) / 1000).toFixed(1);
