import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { templateDb, withDatabase, workerDb } from "./databases";

/**
 * Gives each test worker its own database cloned from the migrated template: PostgreSQL when the
 * run has one (and the project does not ask for PGlite), else a copy of the PGlite template.
 */
const worker = process.env.VITEST_POOL_ID ?? "0";
const adminUrl = inject("postgresAdminUrl");
const usePostgres = Boolean(adminUrl) && process.env.TEST_DB_KIND !== "pglite";
let pgliteDir: string | undefined;

process.env.RATE_LIMITS = process.env.RATE_LIMITS ?? "on";
process.env.APP_URL = "http://localhost:3000";
process.env.PLATFORM_ADMIN_EMAILS = "admin@example.com";
delete process.env.SMTP_URL;
delete process.env.OIDC_ISSUER;

if (usePostgres) {
  const runId = inject("runId");
  const name = workerDb(runId, worker);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name} template ${templateDb(runId)}`);
  await admin.end();
  process.env.DATABASE_URL = withDatabase(adminUrl, name);
} else {
  delete process.env.DATABASE_URL;
  pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), `stackshift-pglite-w${worker}-`));
  fs.cpSync(inject("pgliteTemplate"), pgliteDir, { recursive: true });
  process.env.DATA_DIR = pgliteDir;
}
process.env.SESSION_SECRET = "test-session-secret-0123456789";
process.env.ENCRYPTION_KEY = "test-encryption-key-0123456789";

beforeAll(async () => {
  const { resetEnv } = await import("~/utils/env.server");
  resetEnv();
  const { startQueue } = await import("~/jobs/queue.server");
  const { QUEUES } = await import("~/jobs/index.server");
  await startQueue(QUEUES);
});

afterAll(async () => {
  const { stopQueue } = await import("~/jobs/queue.server");
  const { closeDatabase } = await import("~/db/client.server");
  await stopQueue();
  await closeDatabase();
  if (pgliteDir) fs.rmSync(pgliteDir, { recursive: true, force: true });
});
