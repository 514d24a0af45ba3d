// `npm run restore -- FILE [--force]`: puts a backup made by `npm run backup` back, into an empty
// DATA_DIR (the embedded database) or into the empty PostgreSQL database at DATABASE_URL, with the
// generated secrets into DATA_DIR. Everything is checked and restored aside first, so a refusal or
// a failure changes nothing. docs/decisions/022-backups.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  ASSERT_EMPTY_SQL,
  EMPTY_DATABASE_SQL,
  PGLITE_DUMP,
  POSTGRES_DUMP,
  Refusal,
  appMigrations,
  assertManifestSql,
  assertNotInUse,
  closePglite,
  config,
  connectPostgres,
  holdDataDir,
  libpqTarget,
  migrationLevel,
  nonEmptyDir,
  onCleanup,
  openPglite,
  pgliteDir,
  pgliteVersion,
  postgresContents,
  readArchive,
  removeTree,
  requireProgram,
  run,
  runProgram,
  seconds,
  shown,
  tableCounts,
  totalRows,
} from "./backup-lib.mjs";

const USAGE = `Usage: npm run restore -- FILE [--force]

Restores a backup made by npm run backup: the embedded database into DATA_DIR/db (DATA_DIR must
hold no database), or, with DATABASE_URL, into that PostgreSQL database (it must be empty); and the
backup's generated secrets into DATA_DIR. --force replaces a database that is there (an embedded
one is kept beside it as db.replaced-<time>) and secrets that differ (kept as *.replaced-<time>).`;

/** @type {Record<string, string>} */
const KINDS = { pglite: "the embedded database (PGlite)", postgres: "a PostgreSQL database" };

/**
 * Refuses a backup of the other kind of database, or one made by a newer app.
 * @param {import("./backup-lib.mjs").Manifest} manifest
 * @param {"pglite" | "postgres"} kind
 * @param {string} file
 */
function checkManifest(manifest, kind, file) {
  const backupKind = manifest.database?.kind;
  if (backupKind !== kind) {
    throw new Refusal(
      backupKind === "pglite"
        ? `${shown(file)} is a backup of the embedded database (PGlite): restore it without DATABASE_URL, into an empty DATA_DIR.`
        : `${shown(file)} is a backup of ${KINDS[backupKind] ?? `a ${backupKind} database`}: set DATABASE_URL to an empty PostgreSQL database to restore it.`,
    );
  }
  const known = appMigrations();
  const newest = known[known.length - 1];
  const last = manifest.migrations?.lastCreatedAt;
  if (last && (last > newest.when || !known.some((m) => m.when === last))) {
    throw new Refusal(
      `${shown(file)} was made by a newer version of the dashboard (migration ${manifest.migrations.last ?? last}, this one knows up to ${newest.tag}): upgrade it first.`,
    );
  }
}

/**
 * Which of the backup's secrets files go where. A different file already in DATA_DIR is refused
 * without --force: the database's stored credentials are encrypted under the backup's key.
 * @typedef {{ name: string; from: string; to: string; replaces: boolean }} SecretPlan
 * @param {import("./backup-lib.mjs").Manifest} manifest
 * @param {string} unpacked the folder the backup was unpacked in
 * @param {string} dataDir
 * @param {boolean} force
 */
function planSecrets(manifest, unpacked, dataDir, force) {
  /** @type {SecretPlan[]} */
  const plan = [];
  for (const name of manifest.secrets ?? []) {
    const from = path.join(unpacked, name);
    const to = path.join(dataDir, name);
    const current = fs.existsSync(to) ? fs.readFileSync(to) : null;
    if (current?.equals(fs.readFileSync(from))) continue;
    if (current && !force) {
      throw new Refusal(
        `${shown(to)} holds other secrets than the backup's: restore into an empty DATA_DIR, or add --force to replace it (kept as ${name}.replaced-<time>).`,
      );
    }
    plan.push({ name, from, to, replaces: Boolean(current) });
  }
  return plan;
}

/**
 * Copies the secrets into DATA_DIR under temporary names; `commit` renames them into place.
 * @param {SecretPlan[]} plan
 * @param {string} dataDir
 * @param {string} stamp the time in the name of a replaced file
 * @returns {() => string[]} commit: the names put in place
 */
function stageSecrets(plan, dataDir, stamp) {
  if (plan.length === 0) return () => [];
  fs.mkdirSync(dataDir, { recursive: true });
  const staged = plan.map((item) => {
    const temp = path.join(dataDir, `.${item.name}.restoring-${process.pid}`);
    fs.copyFileSync(item.from, temp);
    fs.chmodSync(temp, 0o600);
    return { ...item, temp };
  });
  const forget = onCleanup(() => staged.forEach((s) => fs.rmSync(s.temp, { force: true })));
  return () => {
    for (const item of staged) {
      if (item.replaces) fs.renameSync(item.to, `${item.to}.replaced-${stamp}`);
      fs.renameSync(item.temp, item.to);
    }
    forget();
    return staged.map((s) => s.name);
  };
}

/**
 * A note when the environment's key, not the restored file's, will decrypt the credentials.
 * @param {string[]} restored the secrets files restored
 * @param {string} dataDir
 */
function environmentNote(restored, dataDir) {
  if (!restored.includes("secrets.json")) return;
  try {
    const file = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
    for (const name of ["ENCRYPTION_KEY", "SESSION_SECRET"]) {
      if (process.env[name] && process.env[name] !== file[name]) {
        console.log(`Note: ${name} is set in this environment and wins over the restored one.`);
      }
    }
  } catch {
    // Not JSON: the app reports it on start.
  }
}

const stampNow = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/**
 * @param {string} file
 * @param {string} dataDir
 * @param {boolean} force
 */
async function restorePglite(file, dataDir, force) {
  const target = pgliteDir(dataDir);
  const holdsDatabase = nonEmptyDir(target);
  if (holdsDatabase && !force) {
    throw new Refusal(
      `${shown(target)} already holds a database: restore into an empty DATA_DIR, or add --force to replace it (kept as db.replaced-<time>).`,
    );
  }
  assertNotInUse(dataDir);
  const createdDataDir = !fs.existsSync(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  let done = false;
  onCleanup(() => {
    if (createdDataDir && !done) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const release = holdDataDir(dataDir, "npm run restore");
  // Unpacked and loaded inside DATA_DIR, so putting it in place is a rename.
  const staging = fs.mkdtempSync(path.join(dataDir, ".restore-"));
  onCleanup(() => removeTree(staging));
  const unpacked = path.join(staging, "backup");
  fs.mkdirSync(unpacked);
  const manifest = await readArchive(file, unpacked);
  checkManifest(manifest, "pglite", file);
  const plan = planSecrets(manifest, unpacked, dataDir, force);

  const restored = path.join(staging, "db");
  let client;
  try {
    client = await openPglite(restored, {
      loadDataDir: await fs.openAsBlob(path.join(unpacked, PGLITE_DUMP)),
    });
  } catch (error) {
    throw new Refusal(
      `PGlite ${pgliteVersion()} cannot open the backup's database (${manifest.database.tool}, PostgreSQL ${manifest.database.postgresVersion}): ${error.message}; nothing was changed.`,
    );
  }
  try {
    const query = (/** @type {string} */ text) => client.query(text);
    const migrations = await migrationLevel(query);
    const tables = await tableCounts(query);
    if (migrations.applied !== manifest.migrations.applied) {
      throw new Refusal(
        `The restored database has ${migrations.applied} migrations, the backup's manifest ${manifest.migrations.applied}: nothing was changed.`,
      );
    }
    if (!isDeepStrictEqual(tables, manifest.tables)) {
      throw new Refusal(
        `The restored tables differ from the backup's manifest (${totalRows(tables)} rows, not ${totalRows(manifest.tables)}): nothing was changed.`,
      );
    }
  } finally {
    await closePglite(client);
  }

  const stamp = stampNow();
  const commitSecrets = stageSecrets(plan, dataDir, stamp);
  const secrets = commitSecrets();
  let kept = null;
  if (fs.existsSync(target)) {
    kept = `${target}.replaced-${stamp}`;
    fs.renameSync(target, kept);
  }
  fs.renameSync(restored, target);
  done = true;
  release();
  return { manifest, secrets, kept };
}

/**
 * @param {string} file
 * @param {string} databaseUrl
 * @param {string} dataDir
 * @param {boolean} force
 */
async function restorePostgres(file, databaseUrl, dataDir, force) {
  const psql = requireProgram("psql");
  const target = libpqTarget(databaseUrl);
  let client;
  try {
    client = await connectPostgres(databaseUrl);
  } catch (error) {
    throw new Refusal(`Cannot connect to DATABASE_URL (${target.url}): ${error.message}.`);
  }
  let contents;
  try {
    contents = await postgresContents(client);
  } finally {
    await client.end();
  }
  if (contents.length > 0 && !force) {
    throw new Refusal(
      `The database ${target.database} is not empty (${contents.join(", ")}): restore into an empty database, or add --force to replace everything in it.`,
    );
  }
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-restore-"));
  onCleanup(() => removeTree(staging));
  const unpacked = path.join(staging, "backup");
  fs.mkdirSync(unpacked);
  const manifest = await readArchive(file, unpacked);
  checkManifest(manifest, "postgres", file);
  const plan = planSecrets(manifest, unpacked, dataDir, force);
  const stamp = stampNow();
  const commitSecrets = stageSecrets(plan, dataDir, stamp);

  const prelude = path.join(staging, "prelude.sql");
  const verify = path.join(staging, "verify.sql");
  fs.writeFileSync(prelude, force ? EMPTY_DATABASE_SQL : ASSERT_EMPTY_SQL);
  fs.writeFileSync(verify, assertManifestSql(manifest));
  try {
    // One transaction: the emptiness check (or --force's emptying), the dump and the check of its
    // rows commit together or not at all.
    await runProgram(
      psql,
      [
        "-X",
        "-q",
        "-v",
        "ON_ERROR_STOP=1",
        "--single-transaction",
        "-f",
        prelude,
        "-f",
        path.join(unpacked, POSTGRES_DUMP),
        "-f",
        verify,
        `--dbname=${target.url}`,
      ],
      target.env,
    );
  } catch (error) {
    throw new Refusal(`Restore failed and was rolled back, nothing was changed: ${error.message}`);
  }
  return { manifest, secrets: commitSecrets(), kept: null };
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) return console.log(USAGE);
  const force = args.includes("--force");
  const files = args.filter((a) => a !== "--force");
  if (files.length !== 1 || files[0].startsWith("-")) throw new Refusal(USAGE);
  const file = path.resolve(files[0]);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    throw new Refusal(`${shown(file)}: no such file.`);
  }
  const started = Date.now();
  const { dataDir, databaseUrl } = config();
  const { manifest, secrets, kept } = databaseUrl
    ? await restorePostgres(file, databaseUrl, dataDir, force)
    : await restorePglite(file, dataDir, force);

  const where = databaseUrl
    ? `the PostgreSQL database ${libpqTarget(databaseUrl).database}`
    : shown(pgliteDir(dataDir));
  const { applied, last } = manifest.migrations;
  const tables = Object.keys(manifest.tables).length;
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${where}: ${applied} migrations (${last ?? "none"}), ` +
      `${tables} tables, ${totalRows(manifest.tables)} rows` +
      `${secrets.length ? `, and ${secrets.join(", ")} into ${shown(dataDir)}` : ""} in ${seconds(started)} s.`,
  );
  if (kept) console.log(`The database that was there is kept in ${shown(kept)}.`);
  if ((manifest.secrets ?? []).length === 0) {
    console.log(
      "The backup holds no generated secrets: run with the ENCRYPTION_KEY of the backed-up server.",
    );
  }
  environmentNote(manifest.secrets ?? [], dataDir);
  const newer = appMigrations().length - applied;
  if (newer > 0) console.log(`npm start applies the ${newer} newer migrations of this version.`);
}

await run(main);
