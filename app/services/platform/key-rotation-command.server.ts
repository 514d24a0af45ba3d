/**
 * `npm run rotate-key` (scripts/rotate-key.mjs runs this from the server build, so it shares the
 * app's crypto, schema and database client). docs/decisions/021-key-rotation.md has the design.
 *
 * - Local run (ENCRYPTION_KEY not in the environment): writes a new key into
 *   DATA_DIR/secrets.json and keeps the old one as a previous key (`--no-new-key` skips this).
 * - PostgreSQL (DATABASE_URL): re-encrypts every stored secret still under another key itself,
 *   while the app runs.
 * - Embedded PGlite: when no app holds DATA_DIR, it opens the database and re-encrypts itself;
 *   when the app is running, the app does it (it reads the new key from secrets.json, or
 *   re-encrypts at start when the keys come from the environment), and this waits for its report.
 */
import fs from "node:fs";
import path from "node:path";
import { closeDatabase } from "~/db/client.server";
import { claimDataDir, dataDirHolder, releaseDataDir } from "~/db/data-dir-lock.server";
import { env, localSecretsFile, resetEnv, rotateLocalEncryptionKey } from "~/utils/env.server";
import { currentKeyId, previousKeyIds } from "~/utils/secrets.server";
import {
  describeFigures,
  reencryptSecrets,
  resultFile,
  type RotationFigures,
} from "./key-rotation.server";

const USAGE = `npm run rotate-key [-- options]

Re-encrypts every stored secret (Stripe secret keys, Instagram tokens, Visual Tests tokens) that
is still under a previous key, under the current ENCRYPTION_KEY.

  With ENCRYPTION_KEY in the environment: set the new key as ENCRYPTION_KEY and the old one in
  ENCRYPTION_KEY_PREVIOUS, for the app (restart it) and for this command.
  Without (a local run): a new key is generated into DATA_DIR/secrets.json, the old one kept as
  a previous key; a running app takes it up within seconds.

Options:
  --no-new-key        local run: keep the key in secrets.json, only re-encrypt
  --batch-size <n>    rows per UPDATE (default 200)
  --wait <seconds>    embedded database held by the running app: how long to wait for its
                      report (default 120)
`;

type Options = { newKey: boolean; batchSize: number; wait: number };

function parseArgs(argv: string[]): Options | string {
  const options: Options = { newKey: true, batchSize: 200, wait: 120 };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [name, inline] = arg.split("=", 2) as [string, string | undefined];
    const value = () => inline ?? argv[(i += 1)];
    if (arg === "--help" || arg === "-h") return USAGE;
    else if (arg === "--no-new-key") options.newKey = false;
    else if (name === "--batch-size" || name === "--wait") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < (name === "--wait" ? 0 : 1) || n > 100_000) {
        return `${name} takes a whole number\n\n${USAGE}`;
      }
      if (name === "--batch-size") options.batchSize = n;
      else options.wait = n;
    } else return `Unknown option ${arg}\n\n${USAGE}`;
  }
  return options;
}

/** Waits for the running app's report of a run under `keyId` finished after `since`. */
async function waitForApp(dataDir: string, keyId: string, since: number, seconds: number) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      const report = JSON.parse(fs.readFileSync(resultFile(dataDir), "utf8")) as RotationFigures;
      if (report.keyId === keyId && Date.parse(report.startedAt) >= since) return report;
    } catch {
      /* none yet */
    }
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * 0: every stored secret is under the current key; 1: some could not be decrypted (they stay as
 * they are); 2: some were written under an old key while this ran (an app that has not taken up
 * the new key yet): run it again.
 */
function exitCode(figures: RotationFigures, out: (line: string) => void) {
  if (figures.failed > 0) {
    out(
      "Values that failed stay as they are: they are under a key that is neither ENCRYPTION_KEY " +
        "nor in ENCRYPTION_KEY_PREVIOUS, or damaged.",
    );
    return 1;
  }
  if (figures.remaining > 0) {
    out("Values were written under an old key meanwhile: run it again once every app has the key.");
    return 2;
  }
  return 0;
}

/** Runs the command; returns the exit code (exitCode; 3: no report from the running app). */
export async function rotateKeyCommand(
  argv: string[],
  out: (line: string) => void = (line) => console.log(line),
): Promise<number> {
  const options = parseArgs(argv);
  if (typeof options === "string") {
    out(options);
    return options === USAGE ? 0 : 64;
  }
  const startedAt = Date.now();
  let config = env();
  const before = currentKeyId();
  if (config.encryptionKeyFrom === "file" && options.newKey) {
    rotateLocalEncryptionKey(config.DATA_DIR);
    resetEnv();
    config = env();
    out(
      `New ENCRYPTION_KEY in ${localSecretsFile(config.DATA_DIR)}: key ${currentKeyId()} ` +
        `(key ${before} kept as a previous key)`,
    );
  } else {
    out(
      `ENCRYPTION_KEY from ${config.encryptionKeyFrom === "env" ? "the environment" : localSecretsFile(config.DATA_DIR)}: ` +
        `key ${currentKeyId()}; previous keys: ${previousKeyIds().join(", ") || "none"}`,
    );
  }
  const keyId = currentKeyId();

  if (!config.DATABASE_URL) {
    const holder = dataDirHolder(config.DATA_DIR);
    if (holder) {
      out(
        `The app (process ${holder.pid}) holds the embedded database in ${config.DATA_DIR}: ` +
          "it re-encrypts the stored secrets itself.",
      );
      if (config.encryptionKeyFrom === "env") {
        out(
          "With ENCRYPTION_KEY from the environment it takes a new key only at start: restart it " +
            "with ENCRYPTION_KEY=<new key> and ENCRYPTION_KEY_PREVIOUS=<old key>.",
        );
      }
      out(`Waiting up to ${options.wait} s for its report...`);
      const report = await waitForApp(
        config.DATA_DIR,
        keyId,
        config.encryptionKeyFrom === "file" ? startedAt : 0,
        options.wait,
      );
      if (!report) {
        out(
          `No report from the app for key ${keyId}. Values under the previous keys stay readable; ` +
            "the app re-encrypts them at its next start.",
        );
        return 3;
      }
      for (const line of describeFigures(report)) out(line);
      return exitCode(report, out);
    }
    if (!fs.existsSync(path.join(config.DATA_DIR, "db", "PG_VERSION"))) {
      out(`No embedded database in ${config.DATA_DIR} yet: nothing to re-encrypt.`);
      return 0;
    }
    claimDataDir(config.DATA_DIR, "npm run rotate-key");
  }
  try {
    const figures = await reencryptSecrets({ batchSize: options.batchSize });
    for (const line of describeFigures(figures)) out(line);
    return exitCode(figures, out);
  } finally {
    await closeDatabase();
    if (!config.DATABASE_URL) releaseDataDir(config.DATA_DIR);
  }
}
