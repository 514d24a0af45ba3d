// `npm run backup [-- FILE|DIR]`: one file holding a consistent dump of the database (the embedded
// PGlite of $DATA_DIR/db, or PostgreSQL at DATABASE_URL through pg_dump) and the secrets generated
// in $DATA_DIR. Format and choices: scripts/backup-lib.mjs, docs/decisions/022-backups.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  FORMAT,
  FORMAT_VERSION,
  MANIFEST,
  PGLITE_DUMP,
  POSTGRES_DUMP,
  Refusal,
  SECRET_FILES,
  assertNotInUse,
  closePglite,
  config,
  connectPostgres,
  formatBytes,
  holdDataDir,
  libpqTarget,
  migrationLevel,
  onCleanup,
  openPglite,
  pgliteDir,
  pgliteVersion,
  removeTree,
  requireProgram,
  run,
  runProgram,
  seconds,
  shown,
  tableCounts,
  totalRows,
  writeArchive,
} from "./backup-lib.mjs";

const USAGE = `Usage: npm run backup [-- FILE|DIR]

Writes a backup of the database (DATABASE_URL, else the embedded one in DATA_DIR/db) and of the
secrets generated in DATA_DIR to FILE, or to stackshift-backup-<kind>-<time>.tar.gz in DIR
(default: ./backups). The embedded database must not be open: stop the server first.`;

/**
 * @param {string | undefined} arg the command line's FILE or DIR
 * @param {string} kind the database's kind, in the file's name
 */
function outputFile(arg, kind) {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const name = `stackshift-backup-${kind}-${stamp}.tar.gz`;
  const target = path.resolve(arg ?? "backups");
  if (arg === undefined || (fs.existsSync(target) && fs.statSync(target).isDirectory())) {
    return path.join(target, name);
  }
  if (fs.existsSync(target)) throw new Refusal(`${shown(target)} exists: choose another name.`);
  if (!fs.existsSync(path.dirname(target))) {
    throw new Refusal(`${shown(path.dirname(target))} does not exist.`);
  }
  return target;
}

/** The embedded database: PGlite's own dump of its data directory, taken by its only owner. */
/**
 * @param {string} dataDir
 * @param {string} staging the folder the archive is made of
 */
async function dumpPglite(dataDir, staging) {
  const dir = pgliteDir(dataDir);
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    throw new Refusal(
      `No embedded database in ${shown(dir)}: set DATA_DIR (or DATABASE_URL for PostgreSQL).`,
    );
  }
  const { crashed } = assertNotInUse(dataDir);
  if (crashed) console.log("The database was not closed cleanly; PGlite recovers it on open.");
  const release = holdDataDir(dataDir, "npm run backup");
  const client = await openPglite(dir);
  try {
    const query = (/** @type {string} */ text) => client.query(text);
    // Writes every changed page to the data files, so the copy needs no recovery on restore.
    await client.exec("checkpoint");
    const postgresVersion = (await client.query("show server_version")).rows[0].server_version;
    const migrations = await migrationLevel(query);
    const tables = await tableCounts(query);
    const dump = await client.dumpDataDir("none");
    fs.mkdirSync(path.join(staging, "database"), { recursive: true });
    fs.writeFileSync(path.join(staging, PGLITE_DUMP), Buffer.from(await dump.arrayBuffer()));
    return {
      database: {
        kind: "pglite",
        file: PGLITE_DUMP,
        postgresVersion,
        tool: `@electric-sql/pglite ${pgliteVersion()} dumpDataDir`,
      },
      migrations,
      tables,
    };
  } finally {
    await closePglite(client);
    release();
  }
}

/**
 * PostgreSQL: pg_dump inside a snapshot exported by a repeatable-read transaction that also reads
 * the migration level and the row counts, so all three describe the same moment while the app runs.
 */
/**
 * @param {string} databaseUrl
 * @param {string} staging the folder the archive is made of
 */
async function dumpPostgres(databaseUrl, staging) {
  const pgDump = requireProgram("pg_dump");
  const client = await connectPostgres(databaseUrl);
  try {
    await client.query("begin isolation level repeatable read read only");
    const snapshot = (await client.query("select pg_export_snapshot() as id")).rows[0].id;
    const postgresVersion = (await client.query("show server_version")).rows[0].server_version;
    const query = (/** @type {string} */ text) => client.query(text);
    const migrations = await migrationLevel(query);
    const tables = await tableCounts(query);
    fs.mkdirSync(path.join(staging, "database"), { recursive: true });
    const target = libpqTarget(databaseUrl);
    await runProgram(
      pgDump,
      [
        "--format=plain",
        "--no-owner",
        "--no-privileges",
        `--snapshot=${snapshot}`,
        `--file=${path.join(staging, POSTGRES_DUMP)}`,
        `--dbname=${target.url}`,
      ],
      target.env,
    );
    await client.query("commit");
    const dumpVersion = await runProgram(pgDump, ["--version"], target.env);
    return {
      database: {
        kind: "postgres",
        file: POSTGRES_DUMP,
        postgresVersion,
        tool: dumpVersion.trim(),
      },
      migrations,
      tables,
    };
  } finally {
    await client.end();
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) return console.log(USAGE);
  if (args.length > 1 || args.some((a) => a.startsWith("-"))) throw new Refusal(USAGE);
  const started = Date.now();
  const { dataDir, databaseUrl } = config();
  const kind = databaseUrl ? "postgres" : "pglite";
  const file = outputFile(args[0], kind);
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-backup-"));
  onCleanup(() => removeTree(staging));

  const dumped = databaseUrl
    ? await dumpPostgres(databaseUrl, staging)
    : await dumpPglite(dataDir, staging);
  const secrets = SECRET_FILES.filter((name) => fs.existsSync(path.join(dataDir, name)));
  for (const name of secrets) fs.copyFileSync(path.join(dataDir, name), path.join(staging, name));
  const manifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    ...dumped,
    secrets,
  };
  fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await writeArchive(staging, [MANIFEST, dumped.database.file, ...secrets], file);

  const what = kind === "pglite" ? "the embedded database (PGlite)" : "the PostgreSQL database";
  const tableCount = Object.keys(dumped.tables).length;
  console.log(
    `Backed up ${what}: ${dumped.migrations.applied} migrations (${dumped.migrations.last ?? (dumped.migrations.applied ? "unknown" : "none")}), ` +
      `${tableCount} tables, ${totalRows(dumped.tables)} rows, and ${secrets.length ? secrets.join(", ") : "no generated secrets"} ` +
      `to ${shown(file)} (${formatBytes(fs.statSync(file).size)}) in ${seconds(started)} s.`,
  );
  if (secrets.length) {
    console.log("The file holds the secrets that decrypt stored credentials: keep it private.");
  }
  const configured = ["ENCRYPTION_KEY", "SESSION_SECRET"].filter((name) => process.env[name]);
  if (configured.length) {
    console.log(
      `${configured.join(" and ")} ${configured.length > 1 ? "are" : "is"} set in the environment, not in the backup: keep ${configured.length > 1 ? "them" : "it"} with the backup yourself.`,
    );
  } else if (!secrets.length) {
    console.log(
      `No generated secrets in ${shown(dataDir)}: keep the ENCRYPTION_KEY you configured with this backup.`,
    );
  }
}

await run(main);
