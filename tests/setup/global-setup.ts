import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { postgresAdminUrl, templateDb, withDatabase } from "./databases";

/**
 * Builds one migrated template of each database once per run; workers clone it (a fresh PGlite
 * takes 6-11 s to create, a PostgreSQL template clone milliseconds).
 */
export default async function setup(project: TestProject) {
  // Tests that spawn the real server (scripts/start.mjs) must find a fresh build, not race to
  // make one.
  if (project.name === "integration") {
    const { buildIfStale } = await import("../../scripts/build.mjs");
    if (!buildIfStale()) throw new Error("The app does not build: see the output above");
  }
  const { openDatabase, migrate } = await import("~/db/client.server");
  const { createBossFor } = await import("./boss");

  const pgliteTemplate = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-pglite-template-"));
  const lite = openDatabase({ dataDir: pgliteTemplate });
  await migrate(lite);
  await createBossFor(lite);
  await lite.close();
  project.provide("pgliteTemplate", pgliteTemplate);

  // The PGlite smoke project needs no PostgreSQL template (and must not race the other project).
  const adminUrl = project.name === "pglite-smoke" ? null : await postgresAdminUrl();
  project.provide("postgresAdminUrl", adminUrl ?? "");
  const runId = `${process.pid}${Date.now().toString(36)}`.toLowerCase();
  project.provide("runId", runId);
  const TEMPLATE_DB = templateDb(runId);
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await admin.query(`create database ${TEMPLATE_DB}`);
    await admin.end();
    const template = openDatabase({
      databaseUrl: withDatabase(adminUrl, TEMPLATE_DB),
      dataDir: "",
    });
    await migrate(template);
    await createBossFor(template);
    await template.close();
  }
  console.log(
    `[tests] databases: ${adminUrl ? `PostgreSQL (${new URL(adminUrl).host}) and ` : ""}PGlite`,
  );

  return async () => {
    fs.rmSync(pgliteTemplate, { recursive: true, force: true });
    if (adminUrl) {
      // Drop this run's databases (template and worker clones).
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like $1",
        [`stackshift_t${runId}_%`],
      );
      for (const { datname } of rows)
        await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
    }
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresAdminUrl: string;
    runId: string;
  }
}
