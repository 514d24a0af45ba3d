/**
 * `npm run backup` and `npm run restore` (scripts/backup.mjs, scripts/restore.mjs) on real
 * databases: rows written through the schema and the activity service, a Stripe secret key
 * encrypted under the source DATA_DIR's generated key; the backup script as a child process; a
 * restore into a fresh DATA_DIR (PGlite, always) or an empty database (PostgreSQL, when the run has
 * one); then every table of the public schema compared (row count and md5 of its rows in primary
 * key order) and the secret decrypted with the restored secrets.json. Plus the refusals.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { adminQuery } from "../../scripts/pg-admin.mjs";
import { openDatabase, type Database } from "~/db/client.server";
import { members, paymentAccounts, projects, users } from "~/db/schema";
import { logEvent } from "~/services/activity/activity.server";
import { hashPassword } from "~/services/accounts/passwords.server";
import { parseEnv, resetEnv } from "~/utils/env.server";
import {
  SecretDecryptionError,
  decryptSecret,
  encryptSecret,
  lastFour,
} from "~/utils/secrets.server";
import { templateDb, withDatabase } from "../setup/databases";

const root = process.cwd();
const postgres = Boolean(process.env.DATABASE_URL);
const SECRET = "sk_test_backup_0123456789abcdefghijklmnop";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-backup-test-"));

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

type Result = { code: number | null; stdout: string; stderr: string; seconds: number };

/** Runs scripts/<name>.mjs as `npm run` would, with only the given database settings. */
function script(name: string, args: string[], env: Record<string, string>): Promise<Result> {
  const {
    DATABASE_URL: _d,
    DATA_DIR: _a,
    ENCRYPTION_KEY: _e,
    SESSION_SECRET: _s,
    ...inherited
  } = process.env;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`scripts/${name}.mjs`, ...args], {
      cwd: root,
      env: { ...inherited, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code, stdout, stderr, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

/** Runs `fn` with ENCRYPTION_KEY set to the key generated in `dataDir` (its secrets.json). */
async function withKeyOf<T>(dataDir: string, fn: () => T | Promise<T>): Promise<T> {
  const before = process.env.ENCRYPTION_KEY;
  process.env.ENCRYPTION_KEY = parseEnv({ DATA_DIR: dataDir, NODE_ENV: "test" }).ENCRYPTION_KEY;
  resetEnv();
  try {
    return await fn();
  } finally {
    process.env.ENCRYPTION_KEY = before;
    resetEnv();
  }
}

/** Users, a project with a member, activity through the service, an encrypted secret key. */
async function seed(database: Database, dataDir: string) {
  const d = database.db;
  const tag = Math.random().toString(36).slice(2, 8);
  const passwordHash = await hashPassword("correct horse battery");
  const people = await d
    .insert(users)
    .values(
      Array.from({ length: 25 }, (_, i) => ({
        name: i === 0 ? `Owner "quoted" ünïcødé\nsecond line` : `Person ${i}`,
        email: `backup-${tag}-${i}@example.com`,
        passwordHash,
        emailVerifiedAt: new Date(),
      })),
    )
    .returning();
  const [owner, editor] = people;
  const [project] = await d
    .insert(projects)
    .values({
      name: "Backed up",
      ownerId: owner.id,
      idempotencyKey: `backup-${tag}`,
      studioId: `backup${tag}`,
    })
    .returning();
  await d.insert(members).values({
    projectId: project.id,
    userId: editor.id,
    invitedEmail: editor.email,
    role: "developer",
    status: "accepted",
  });
  for (let i = 0; i < 60; i += 1) {
    await logEvent(d, {
      projectId: project.id,
      type: "payments.account.added",
      content: `event ${i} by ${owner.name}`,
      actorId: owner.id,
    });
  }
  await withKeyOf(dataDir, () =>
    d.insert(paymentAccounts).values({
      projectId: project.id,
      accountName: "Main",
      publishableKey: "pk_test_backup",
      secretKeyEncrypted: encryptSecret(SECRET),
      secretKeyLast4: lastFour(SECRET),
      apiVersion: "2024-06-20",
      createdBy: owner.id,
    }),
  );
}

type Fingerprint = Record<string, { rows: number; md5: string }>;

/** Row count and md5 of the rows (as text, in primary key order) of every public table. */
async function fingerprint(database: Database): Promise<Fingerprint> {
  const { rows: tables } = (await database.raw(
    `select c.relname as name,
       (select string_agg(quote_ident(a.attname), ', ' order by array_position(i.indkey::int2[], a.attnum))
          from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
         where i.indrelid = c.oid and i.indisprimary) as pk
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
     order by 1`,
  )) as { rows: { name: string; pk: string | null }[] };
  const result: Fingerprint = {};
  for (const { name, pk } of tables) {
    const { rows } = (await database.raw(
      `select count(*)::int as rows,
         md5(coalesce(string_agg(t::text, E'\\n' order by ${pk ?? "t::text"}), '')) as md5
       from public."${name}" t`,
    )) as { rows: { rows: number; md5: string }[] };
    result[name] = rows[0];
  }
  return result;
}

function summary(print: Fingerprint) {
  return {
    tables: Object.keys(print).length,
    rows: Object.values(print).reduce((n, t) => n + t.rows, 0),
  };
}

/** The stored secret key of the restored database decrypts with the restored secrets only. */
async function expectSecretReadable(database: Database, dataDir: string) {
  const [account] = await database.db.select().from(paymentAccounts);
  await withKeyOf(dataDir, () => expect(decryptSecret(account.secretKeyEncrypted)).toBe(SECRET));
  // The test environment's own key is another one: the restored file is what makes it readable.
  expect(() => decryptSecret(account.secretKeyEncrypted)).toThrow(SecretDecryptionError);
}

function expectRefused(result: Result, message: RegExp) {
  expect(result.code, result.stdout + result.stderr).toBe(1);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

describe("npm run backup / npm run restore", () => {
  it("PGlite: backs up DATA_DIR, restores it into a fresh one, identical; refuses what it must", async () => {
    const started = Date.now();
    const source = path.join(scratch, "pglite-source");
    fs.cpSync(inject("pgliteTemplate"), source, { recursive: true });
    parseEnv({ DATA_DIR: source, NODE_ENV: "test" }); // generates DATA_DIR/secrets.json
    const file = path.join(scratch, "pglite.tar.gz");

    const open = openDatabase({ dataDir: source });
    await seed(open, source);
    const before = await fingerprint(open);
    // Open in this process (PGlite's postmaster.pid, no db.lock): refused.
    expectRefused(
      await script("backup", [file], { DATA_DIR: source }),
      /open in another process .*stop the server first/,
    );
    await open.close();
    // A live process holds DATA_DIR/db.lock (as the server does while it runs): refused.
    const lock = path.join(source, "db.lock");
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, by: "server", since: "now" }));
    expectRefused(
      await script("backup", [file], { DATA_DIR: source }),
      new RegExp(`in use by process ${process.pid} .*stop the server first`),
    );
    fs.rmSync(lock);
    expect(fs.existsSync(file)).toBe(false);

    const backup = await script("backup", [file], { DATA_DIR: source });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Backed up the embedded database \(PGlite\)/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    // Not a backup: refused, and the target DATA_DIR is not even created.
    const target = path.join(scratch, "pglite-restored");
    const notBackup = path.join(scratch, "notes.txt");
    fs.writeFileSync(notBackup, "not a backup\n".repeat(100));
    expectRefused(
      await script("restore", [notBackup], { DATA_DIR: target }),
      /is not a StackShift backup/,
    );
    expect(fs.existsSync(target)).toBe(false);

    const restore = await script("restore", [file], { DATA_DIR: target });
    expect(restore.code, restore.stderr).toBe(0);
    expect(fs.readFileSync(path.join(target, "secrets.json"))).toEqual(
      fs.readFileSync(path.join(source, "secrets.json")),
    );
    // A DATA_DIR that holds a database: refused without --force, nothing touched.
    expectRefused(
      await script("restore", [file], { DATA_DIR: target }),
      /already holds a database.*--force/,
    );
    expect(fs.readdirSync(target).sort()).toEqual(["db", "secrets.json"]);
    // --force puts the backup in its place and keeps the database that was there beside it.
    const forced = await script("restore", [file, "--force"], { DATA_DIR: target });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/The database that was there is kept in .*db\.replaced-/);
    const kept = fs.readdirSync(target).filter((name) => name.startsWith("db.replaced-"));
    expect(kept).toHaveLength(1);
    expect(fs.readdirSync(target).sort()).toEqual(["db", kept[0], "secrets.json"]);

    const restored = openDatabase({ dataDir: target });
    try {
      const after = await fingerprint(restored);
      expect(after).toEqual(before);
      expect(summary(after).rows).toBeGreaterThan(80);
      await expectSecretReadable(restored, target);
      const figures = summary(after);
      console.info(
        `[backup] pglite: ${figures.tables} tables, ${figures.rows} rows equal; backup ${backup.seconds} s, ` +
          `restore ${restore.seconds} s, restore --force ${forced.seconds} s, ${fs.statSync(file).size} bytes; ` +
          `whole case ${(Date.now() - started) / 1000} s`,
      );
    } finally {
      await restored.close();
    }
    // 16-35 s on this 2-core machine, 80 s while others' suites ran (docs/reliability.md).
  }, 180_000);

  describe.runIf(postgres)("PostgreSQL", () => {
    const adminUrl = inject("postgresAdminUrl");
    const runId = inject("runId");
    const sourceDb = `stackshift_t${runId}_backup_src`;
    const targetDb = `stackshift_t${runId}_backup_dst`;

    const admin = (sql: string) => adminQuery(adminUrl, sql);

    afterAll(async () => {
      await admin(`drop database if exists ${sourceDb} with (force)`);
      await admin(`drop database if exists ${targetDb} with (force)`);
    });

    it("dumps with pg_dump, restores into an empty database, identical; refuses what it must", async () => {
      const started = Date.now();
      await admin(`drop database if exists ${sourceDb} with (force)`);
      await admin(`drop database if exists ${targetDb} with (force)`);
      await admin(`create database ${sourceDb} template ${templateDb(runId)}`);
      await admin(`create database ${targetDb}`);
      const sourceUrl = withDatabase(adminUrl, sourceDb);
      const targetUrl = withDatabase(adminUrl, targetDb);
      const dataDir = path.join(scratch, "postgres-source");
      parseEnv({ DATA_DIR: dataDir, NODE_ENV: "test" });
      const file = path.join(scratch, "postgres.tar.gz");

      const source = openDatabase({ databaseUrl: sourceUrl, dataDir: "" });
      let before: Fingerprint;
      let backupSeconds: number;
      try {
        await seed(source, dataDir);
        before = await fingerprint(source);
        // PostgreSQL is dumped while the app runs: this process keeps its connections open.
        const backup = await script("backup", [file], {
          DATA_DIR: dataDir,
          DATABASE_URL: sourceUrl,
        });
        expect(backup.code, backup.stderr).toBe(0);
        expect(backup.stdout).toMatch(/Backed up the PostgreSQL database/);
        backupSeconds = backup.seconds;
        // The target must be empty: the source is not.
        expectRefused(
          await script("restore", [file], { DATA_DIR: dataDir, DATABASE_URL: sourceUrl }),
          /is not empty .*--force/,
        );
      } finally {
        await source.close();
      }

      // The other kind of backup: refused.
      const pgliteBackup = path.join(scratch, "pglite.tar.gz");
      const targetDir = path.join(scratch, "postgres-restored");
      if (fs.existsSync(pgliteBackup)) {
        expectRefused(
          await script("restore", [pgliteBackup], { DATA_DIR: targetDir, DATABASE_URL: targetUrl }),
          /backup of the embedded database/,
        );
      }
      const restore = await script("restore", [file], {
        DATA_DIR: targetDir,
        DATABASE_URL: targetUrl,
      });
      expect(restore.code, restore.stderr).toBe(0);
      expectRefused(
        await script("restore", [file], { DATA_DIR: targetDir, DATABASE_URL: targetUrl }),
        /is not empty/,
      );
      // --force replaces everything in it, in one transaction with the restore.
      const forced = await script("restore", [file, "--force"], {
        DATA_DIR: targetDir,
        DATABASE_URL: targetUrl,
      });
      expect(forced.code, forced.stderr).toBe(0);

      const restored = openDatabase({ databaseUrl: targetUrl, dataDir: "" });
      try {
        const after = await fingerprint(restored);
        expect(after).toEqual(before);
        await expectSecretReadable(restored, targetDir);
        const { rows } = (await restored.raw(
          "select count(*)::int as n from drizzle.__drizzle_migrations",
        )) as { rows: { n: number }[] };
        expect(rows[0].n).toBeGreaterThan(0);
        const figures = summary(after);
        console.info(
          `[backup] postgres: ${figures.tables} tables, ${figures.rows} rows equal; backup ${backupSeconds} s, ` +
            `restore ${restore.seconds} s, ` +
            `restore --force ${forced.seconds} s, ` +
            `${fs.statSync(file).size} bytes; whole case ${(Date.now() - started) / 1000} s`,
        );
      } finally {
        await restored.close();
      }
    }, 120_000);
  });
});
