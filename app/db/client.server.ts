import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { env } from "~/utils/env.server";
import * as schema from "./schema";
import { logger as appLogger } from "~/utils/logger.server";
import { reportPool } from "~/utils/metrics.server";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run queries: the database or an open transaction. */
export type Queryable = Db | Tx;

/** Runs raw SQL, possibly several statements when no values are given (pg-boss needs this). */
export type RawSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type Database = {
  kind: "pglite" | "postgres";
  db: Db;
  raw: RawSql;
  connectionString?: string;
  /** node-postgres's pool (PostgreSQL only): its counts are metrics (metrics.server.ts). */
  pool?: pg.Pool;
  /**
   * PGlite only: LISTEN on its one session (PostgreSQL listens on a connection of its own,
   * app/jobs/wake.server.ts). Resolves to the function that stops listening.
   */
  listen?: (channel: string, callback: (payload: string) => void) => Promise<() => Promise<void>>;
  /** Resolves once the database opened; DataDirDamagedError when PGlite cannot open its files. */
  ready: Promise<void>;
  close: () => Promise<void>;
};

/**
 * The embedded database's files cannot be opened: a damaged write-ahead log or control file, or
 * a first start that was stopped before the database was created. The message is one line that
 * says what to do; `npm start` prints it without a stack trace.
 */
export class DataDirDamagedError extends Error {
  constructor(
    readonly dir: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    super(
      `The embedded database in ${dir} cannot be opened (${reason}): its files are damaged or ` +
        `were never completed. Restore your latest backup into an empty DATA_DIR ` +
        `(DATA_DIR=/new/place npm run restore -- FILE), or move ${dir} aside to start empty.`,
    );
    this.name = "DataDirDamagedError";
  }
}

export const MIGRATIONS = path.resolve(process.cwd(), "drizzle");

let queries = 0;
/** Queries run by this process (printed on SIGUSR2: the benchmark reports queries per page). */
export function queriesRun() {
  return queries;
}
const logger = {
  logQuery() {
    queries += 1;
  },
};

function openPostgres(url: string, { max = 10, name = "stackshift" } = {}): Database {
  // jit=off: the app runs short OLTP queries, for which JIT compilation costs more than it saves
  // (measured: most of a 160 ms search was JIT).
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: "-c jit=off",
    // pg_stat_activity tells which server process a connection belongs to.
    application_name: `${name}:${process.pid}`,
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on("error", (error) =>
    appLogger.error({ area: "db", reason: error.message }, "idle client error"),
  );
  return {
    kind: "postgres",
    db: drizzlePg(pool, { schema, logger }) as unknown as Db,
    raw: (text, values) => pool.query(text, values as unknown[]),
    connectionString: url,
    pool,
    ready: Promise.resolve(),
    close: () => pool.end(),
  };
}

function openPglite(dataDir: string): Database {
  const dir = path.resolve(dataDir, "db");
  fs.mkdirSync(dir, { recursive: true });
  // pg_trgm backs the project name search index (migration 0005).
  const client = new PGlite(dir, { extensions: { pg_trgm } });
  // PGlite opens asynchronously; files it cannot open (measured: a damaged WAL or pg_control, an
  // unfinished first start) reject here, before any query. A SIGKILL does not cause that: the
  // write-ahead log replays at the next start (docs/decisions/023-crashes-and-restarts.md).
  const ready = client.waitReady.catch((cause: unknown) => {
    throw new DataDirDamagedError(dir, cause);
  });
  ready.catch(() => undefined); // awaited by migrate(); not an unhandled rejection before that
  return {
    kind: "pglite",
    db: drizzlePglite(client, { schema, logger }) as unknown as Db,
    raw: async (text, values) => {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    listen: async (channel, callback) => {
      const stop = await client.listen(channel, callback);
      return () => stop();
    },
    ready,
    close: () => client.close(),
  };
}

/**
 * The advisory lock that serializes every process's boot on one PostgreSQL database: migrations,
 * job queue creation and the recurring schedules. Without it, processes starting at the same
 * moment on a new database each create the queues, and PostgreSQL answers `deadlock detected`
 * (pg-boss attaches one partition per queue to its job table).
 */
export const BOOT_LOCK_KEY = 727001;

/**
 * Runs `fn` while holding the boot lock. The lock lives on a connection of its own: a
 * session-level advisory lock taken through the pool could be released on another client. PGlite
 * serves one process (DATA_DIR/db.lock), so there `fn` just runs.
 */
export async function withBootLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  await database.ready;
  if (database.kind !== "postgres") return fn();
  const client = new pg.Client({
    connectionString: database.connectionString,
    application_name: "stackshift-boot",
  });
  // An error on this idle connection (the server restarting) fails the boot, not the process.
  client.on("error", (error) =>
    appLogger.error({ area: "db", reason: error.message }, "boot lock connection error"),
  );
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [BOOT_LOCK_KEY]);
    try {
      return await fn();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [BOOT_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Applies pending migrations; the caller holds the boot lock (see migrate). */
export async function applyMigrations(database: Database) {
  await database.ready;
  if (database.kind === "postgres") {
    await migratePg(database.db as never, { migrationsFolder: MIGRATIONS });
  } else {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS });
  }
}

/**
 * Runs `fn` with the database that owns the schema: with MIGRATIONS_DATABASE_URL set, a
 * connection of that role, opened for `fn` and closed after it (the app's own DATABASE_URL role
 * then owns nothing: docs/operations.md); otherwise the app's own database.
 */
export async function asSchemaOwner<T>(fn: (owner: Database) => Promise<T>): Promise<T> {
  const url = env().MIGRATIONS_DATABASE_URL;
  if (!url || !env().DATABASE_URL) return fn(database());
  const owner = openPostgres(url, { max: 2, name: "stackshift-migrate" });
  try {
    return await fn(owner);
  } finally {
    await owner.close();
  }
}

/** Whether migrations and the job queue's schema go through another role (MIGRATIONS_DATABASE_URL). */
export function separateSchemaOwner(): boolean {
  return Boolean(env().MIGRATIONS_DATABASE_URL && env().DATABASE_URL);
}

/** Applies pending migrations under the boot lock, so two instances never race. */
export async function migrate(database: Database) {
  await withBootLock(database, () => applyMigrations(database));
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string }): Database {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

// One database per process, kept on globalThis so dev-server module reloads reuse it (PGlite
// allows a single open instance per data directory).
const holder = globalThis as unknown as { __stackshiftDb?: Database };

export function database(): Database {
  if (!holder.__stackshiftDb) {
    holder.__stackshiftDb = openDatabase({
      databaseUrl: env().DATABASE_URL,
      dataDir: env().DATA_DIR,
    });
    reportPool(poolStats);
  }
  return holder.__stackshiftDb;
}

/** The open pool's counts, read at scrape time; undefined for PGlite or a closed database. */
function poolStats() {
  const pool = holder.__stackshiftDb?.pool;
  if (!pool) return undefined;
  return {
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? 10,
  };
}

export function db(): Db {
  return database().db;
}

export async function closeDatabase() {
  const current = holder.__stackshiftDb;
  holder.__stackshiftDb = undefined;
  await current?.close();
}
