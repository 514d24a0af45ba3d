/**
 * Key rotation (docs/decisions/021-key-rotation.md): every stored secret still under a previous
 * key is re-encrypted under the current ENCRYPTION_KEY, row by row, each write a compare-and-set
 * on the ciphertext that was read, so a value the running app writes meanwhile is never lost.
 *
 * It runs from `npm run rotate-key` (app/services/platform/key-rotation-command.server.ts), and inside the
 * app as the `secrets.reencrypt` job: at start when values under a previous key are found, and on
 * a local run when DATA_DIR/secrets.json gets a new key.
 */
import fs from "node:fs";
import path from "node:path";
import { and, asc, count, gt, isNotNull, like, notLike, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { paymentAccounts, projects, socialAccounts, totpFactors, webhooks } from "~/db/schema";
import type { JobDefinition } from "~/jobs/types";
import { sendJob } from "~/jobs/queue.server";
import { env, localSecretsFile, resetEnv } from "~/utils/env.server";
import {
  currentKeyId,
  decryptSecret,
  encryptSecret,
  keyIdOf,
  previousKeyIds,
} from "~/utils/secrets.server";
import { log } from "~/utils/logger.server";

type SecretColumn = { name: string; table: PgTable; id: PgColumn; column: PgColumn };

/**
 * Every column that holds values of encryptSecret (tests/integration/key-rotation.test.ts fails
 * when a value of that form turns up in a column missing here).
 */
export const SECRET_COLUMNS: SecretColumn[] = [
  {
    name: "payment_accounts.secret_key_encrypted",
    table: paymentAccounts,
    id: paymentAccounts.id,
    column: paymentAccounts.secretKeyEncrypted,
  },
  {
    name: "social_accounts.access_token_encrypted",
    table: socialAccounts,
    id: socialAccounts.id,
    column: socialAccounts.accessTokenEncrypted,
  },
  {
    name: "projects.chromatic_project_token",
    table: projects,
    id: projects.id,
    column: projects.chromaticProjectToken,
  },
  {
    name: "webhooks.secret_encrypted",
    table: webhooks,
    id: webhooks.id,
    column: webhooks.secretEncrypted,
  },
  {
    name: "totp_factors.secret",
    table: totpFactors,
    id: totpFactors.userId,
    column: totpFactors.secret,
  },
];

export type ColumnFigures = {
  column: string;
  /** Values re-encrypted under the current key by this run. */
  reencrypted: number;
  /** Values that were under the current key already when the run began. */
  current: number;
  /** Values the compare-and-set left alone: something else wrote them after they were read. */
  changedMeanwhile: number;
  /** Values that could not be decrypted (a key that is neither current nor previous, damage). */
  failed: number;
};

export type RotationFigures = {
  keyId: string;
  previousKeyIds: string[];
  columns: ColumnFigures[];
  reencrypted: number;
  current: number;
  changedMeanwhile: number;
  failed: number;
  /** Values not under the current key once the run ended (the failed ones, later writes). */
  remaining: number;
  /** The first failures: which row, under which key id, and why (never the value). */
  failures: { column: string; id: string; keyId: string | null; reason: string }[];
  startedAt: string;
  finishedAt: string;
  ms: number;
};

type Row = { id: string; value: string | null };

const underKey = (target: SecretColumn, keyId: string) => like(target.column, `v1.${keyId}.%`);
const notUnderKey = (target: SecretColumn, keyId: string) =>
  and(isNotNull(target.column), notLike(target.column, `v1.${keyId}.%`));

async function countWhere(target: SecretColumn, where: SQL | undefined) {
  const [row] = await db().select({ n: count() }).from(target.table).where(where);
  return Number(row.n);
}

/** Stored secrets that are not under the current key (under a previous one, or unreadable). */
export async function countOutdatedSecrets(): Promise<number> {
  let total = 0;
  const keyId = currentKeyId();
  for (const target of SECRET_COLUMNS)
    total += await countWhere(target, notUnderKey(target, keyId));
  return total;
}

/**
 * Re-encrypts, in batches of `batchSize` rows read in id order, every stored secret that is not
 * under the current key. Each batch is one UPDATE whose every row is a compare-and-set on the
 * ciphertext read (`where id = $id and column = $old`): a row the app changed in between keeps the
 * app's value and counts as changedMeanwhile. Runs while the app serves: no transaction spans
 * more than one batch statement.
 *
 * `beforeWrite` runs after a batch is read and re-encrypted and before it is written (tests use it
 * to write a row in between).
 */
export async function reencryptSecrets(
  options: {
    batchSize?: number;
    beforeWrite?: (column: string, ids: string[]) => Promise<void>;
  } = {},
): Promise<RotationFigures> {
  const batchSize = Math.max(1, options.batchSize ?? 200);
  const started = Date.now();
  const keyId = currentKeyId();
  const figures: RotationFigures = {
    keyId,
    previousKeyIds: previousKeyIds(),
    columns: [],
    reencrypted: 0,
    current: 0,
    changedMeanwhile: 0,
    failed: 0,
    remaining: 0,
    failures: [],
    startedAt: new Date(started).toISOString(),
    finishedAt: "",
    ms: 0,
  };
  for (const target of SECRET_COLUMNS) {
    const column: ColumnFigures = {
      column: target.name,
      reencrypted: 0,
      current: await countWhere(target, underKey(target, keyId)),
      changedMeanwhile: 0,
      failed: 0,
    };
    let after: string | undefined;
    for (;;) {
      const rows = (await db()
        .select({ id: target.id, value: target.column })
        .from(target.table)
        .where(and(notUnderKey(target, keyId), after ? gt(target.id, after) : undefined))
        .orderBy(asc(target.id))
        .limit(batchSize)) as Row[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      const writes: { id: string; old: string; next: string }[] = [];
      for (const row of rows) {
        const old = row.value!;
        try {
          writes.push({ id: row.id, old, next: encryptSecret(decryptSecret(old)) });
        } catch (error) {
          column.failed += 1;
          if (figures.failures.length < 20) {
            figures.failures.push({
              column: target.name,
              id: row.id,
              keyId: keyIdOf(old),
              reason: error instanceof Error ? error.message : String(error),
            });
          }
        }
      }
      if (writes.length === 0) continue;
      await options.beforeWrite?.(
        target.name,
        writes.map((w) => w.id),
      );
      const name = sql.identifier(target.column.name);
      const idName = sql.identifier(target.id.name);
      const values = sql.join(
        writes.map((w) => sql`(${w.id}::uuid, ${w.old}::text, ${w.next}::text)`),
        sql`, `,
      );
      const result = (await db().execute(sql`
        update ${target.table} as t set ${name} = v.next
        from (values ${values}) as v(id, old, next)
        where t.${idName} = v.id and t.${name} = v.old
        returning t.${idName}`)) as unknown as { rows: unknown[] };
      column.reencrypted += result.rows.length;
      column.changedMeanwhile += writes.length - result.rows.length;
    }
    figures.columns.push(column);
    figures.reencrypted += column.reencrypted;
    figures.current += column.current;
    figures.changedMeanwhile += column.changedMeanwhile;
    figures.failed += column.failed;
  }
  figures.remaining = await countOutdatedSecrets();
  figures.finishedAt = new Date().toISOString();
  figures.ms = Date.now() - started;
  return figures;
}

/** The figures as lines of text, for the script's output and the server log. */
export function describeFigures(figures: RotationFigures): string[] {
  const previous = figures.previousKeyIds.length ? figures.previousKeyIds.join(", ") : "none";
  return [
    `Stored secrets under key ${figures.keyId} (previous keys: ${previous}):`,
    ...figures.columns.map(
      (c) =>
        `  ${c.column}: ${c.reencrypted} re-encrypted, ${c.current} already current, ` +
        `${c.changedMeanwhile} changed meanwhile, ${c.failed} failed`,
    ),
    `  total: ${figures.reencrypted} re-encrypted, ${figures.current} already current, ` +
      `${figures.changedMeanwhile} changed meanwhile, ${figures.failed} failed; ` +
      `${figures.remaining} left under other keys (${(figures.ms / 1000).toFixed(1)} s)`,
    ...figures.failures.map(
      (f) => `  failed: ${f.column} row ${f.id} (key ${f.keyId ?? "?"}): ${f.reason}`,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Inside the app: the job, and what starts it.

export const SECRETS_REENCRYPT_JOB = "secrets.reencrypt";

/** Where the app reports its last run, for `npm run rotate-key` waiting on an embedded database. */
export const resultFile = (dataDir: string) => path.join(dataDir, "key-rotation.json");

function writeResult(figures: RotationFigures) {
  const file = resultFile(env().DATA_DIR);
  try {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify({ pid: process.pid, ...figures }));
    fs.renameSync(temporary, file);
  } catch (error) {
    log().error(
      { area: "secrets", file, reason: (error as Error).message },
      "could not write the rotation report",
    );
  }
}

/** Reads DATA_DIR/secrets.json again when the key comes from it. */
function reloadKeyFile() {
  if (env().encryptionKeyFrom === "file") resetEnv();
}

let running: Promise<unknown> = Promise.resolve();
/** One run at a time in this process; several processes may run at once (compare-and-set). */
function runReencryption(): Promise<RotationFigures> {
  const run = running.then(async () => {
    reloadKeyFile();
    const figures = await reencryptSecrets();
    // Counts, key ids and row ids only (describeFigures has them as sentences for the command).
    log().info({ area: "secrets", ...figures }, "stored secrets re-encrypted");
    writeResult(figures);
    return figures;
  });
  running = run.catch(() => undefined);
  return run;
}

export const keyRotationJobs: JobDefinition[] = [
  {
    name: SECRETS_REENCRYPT_JOB,
    handler: async () => {
      await runReencryption();
    },
  },
];

const requestReencryption = (reason: string) =>
  sendJob(SECRETS_REENCRYPT_JOB, { reason }, { retryLimit: 3, retryDelay: 30 });

let watched: string | undefined;

/**
 * At start (after the job queue): queues a re-encryption when stored secrets are under another
 * key than the current one, and, when the key comes from DATA_DIR/secrets.json, watches that file
 * so a new key written there by `npm run rotate-key` is taken up within seconds, without a
 * restart: new values are encrypted under it, and the values under the old key are re-encrypted.
 */
export async function startKeyRotation() {
  const outdated = await countOutdatedSecrets();
  if (outdated > 0) {
    log().info(
      { area: "secrets", outdated, keyId: currentKeyId() },
      "stored secrets under other keys: re-encrypting them in the background",
    );
    await requestReencryption("start");
  }
  if (env().encryptionKeyFrom !== "file" || watched) return;
  watched = localSecretsFile(env().DATA_DIR);
  fs.watchFile(watched, { interval: 1000, persistent: false }, (now, before) => {
    if (now.mtimeMs === before.mtimeMs && now.ino === before.ino) return;
    const was = currentKeyId();
    try {
      resetEnv();
      if (currentKeyId() === was) return;
    } catch (error) {
      log().error(
        { area: "secrets", file: watched, reason: (error as Error).message },
        "could not read the key file",
      );
      return;
    }
    log().info(
      { area: "secrets", file: watched, keyId: currentKeyId(), previousKeyIds: previousKeyIds() },
      "the key file has a new ENCRYPTION_KEY: re-encrypting stored secrets in the background",
    );
    requestReencryption("key file changed").catch((error: unknown) =>
      log().error({ area: "secrets", err: error }, "could not queue the re-encryption"),
    );
  });
}

export function stopKeyRotation() {
  if (watched) fs.unwatchFile(watched);
  watched = undefined;
}
