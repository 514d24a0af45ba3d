/**
 * Key rotation (docs/decisions/021-key-rotation.md), on the real database: values stored under key
 * A stay readable once B is the key and A a previous one, and re-encryption moves every one of
 * them under B; a value written while it runs is never overwritten; without A among the previous
 * keys an old value is the clear SecretDecryptionError. `npm run rotate-key` itself runs on an
 * embedded database (and, with PostgreSQL, while this process keeps writing as the app would).
 *
 * The worker's database holds other test files' secrets under the test key: it stays a previous
 * key throughout, and afterAll moves every value back under it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db, openDatabase, type Db } from "~/db/client.server";
import { paymentAccounts, projects, socialAccounts, users } from "~/db/schema";
import type { User } from "~/services/accounts/accounts.server";
import { setAddon } from "~/services/addons/addons.server";
import {
  countOutdatedSecrets,
  reencryptSecrets,
  SECRET_COLUMNS,
} from "~/services/platform/key-rotation.server";
import { addPaymentAccount, listAccountResource } from "~/services/integrations/payments.server";
import { resetEnv } from "~/utils/env.server";
import {
  currentKeyId,
  decryptSecret,
  encryptSecret,
  keyIdOf,
  SecretDecryptionError,
} from "~/utils/secrets.server";
import { createUser, insertProject, runNodeScript } from "../helpers";
import { generateTOTP } from "@epic-web/totp";
import { enableTotp, newTotpSecret } from "~/services/two-factor/index.server";
import { addWebhook } from "~/services/webhooks/index.server";

const KEY_A = "rotation-test-key-a-0123456789";
const KEY_B = "rotation-test-key-b-0123456789";
const KEY_C = "rotation-test-key-c-0123456789";
const saved = {
  ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
  ENCRYPTION_KEY_PREVIOUS: process.env.ENCRYPTION_KEY_PREVIOUS,
};
const DEFAULT_KEY = saved.ENCRYPTION_KEY!;

/** This process's keys from now on: `current`, then the previous ones (the test key always). */
function useKeys(current: string, previous: string[] = []) {
  process.env.ENCRYPTION_KEY = current;
  process.env.ENCRYPTION_KEY_PREVIOUS = [...previous, DEFAULT_KEY].join(",");
  resetEnv();
  return currentKeyId();
}

let owner: User;
let project: Awaited<ReturnType<typeof insertProject>>;

beforeAll(async () => {
  owner = { ...(await createUser({ name: "Rita Rotation" })), isAdmin: false } as User;
  project = await insertProject(owner.id, { name: "Key rotation" });
});

afterAll(async () => {
  useKeys(DEFAULT_KEY, [KEY_A, KEY_B, KEY_C]);
  await reencryptSecrets();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnv();
});

type Stored = { id: string; plain: string };

/** `n` payment accounts and `n` Instagram accounts of the project, under the current key. */
async function seed(n: number, tag: string): Promise<{ payments: Stored[]; social: Stored[] }> {
  const stamp = `${tag}${Date.now().toString(36)}`;
  const payments = await db()
    .insert(paymentAccounts)
    .values(
      Array.from({ length: n }, (_, i) => ({
        projectId: project.id,
        accountName: `Shop ${i}`,
        publishableKey: `pk_test_${stamp}${i}`,
        secretKeyEncrypted: encryptSecret(`sk_test_${stamp}secret${i}`),
        secretKeyLast4: "••••",
        apiVersion: "2020-08-27",
      })),
    )
    .returning({ id: paymentAccounts.id, publishableKey: paymentAccounts.publishableKey });
  const social = await db()
    .insert(socialAccounts)
    .values(
      Array.from({ length: n }, (_, i) => ({
        projectId: project.id,
        platform: "instagram",
        providerUserId: `${stamp}${i}`,
        userName: `rotation.${stamp}.${i}`,
        accessTokenEncrypted: encryptSecret(`IGLOCAL${stamp}token${i}`),
        tokenExpiresAt: new Date(Date.now() + 86400_000),
      })),
    )
    .returning({ id: socialAccounts.id, userName: socialAccounts.userName });
  const index = (text: string, prefix: string) => text.slice(prefix.length);
  return {
    payments: payments.map((r) => ({
      id: r.id,
      plain: `sk_test_${stamp}secret${index(r.publishableKey, `pk_test_${stamp}`)}`,
    })),
    social: social.map((r) => ({
      id: r.id,
      plain: `IGLOCAL${stamp}token${index(r.userName, `rotation.${stamp}.`)}`,
    })),
  };
}

async function storedValues(ids: string[], database: Db = db()) {
  const payments = await database
    .select({ id: paymentAccounts.id, value: paymentAccounts.secretKeyEncrypted })
    .from(paymentAccounts)
    .where(inArray(paymentAccounts.id, ids));
  const social = await database
    .select({ id: socialAccounts.id, value: socialAccounts.accessTokenEncrypted })
    .from(socialAccounts)
    .where(inArray(socialAccounts.id, ids));
  return new Map([...payments, ...social].map((r) => [r.id, r.value]));
}

describe("key rotation", () => {
  it("keeps values under key A readable with A as a previous key, and re-encrypts all of them under B", async () => {
    const idA = useKeys(KEY_A);
    const seeded = await seed(12, "ab");
    // Through the product's own paths as well: a pasted Stripe key and a Visual Tests token.
    const pasted = await addPaymentAccount(owner, project.studioId, {
      accountName: "Pasted",
      publishableKey: `pk_test_pasted${Date.now()}`,
      secretKey: "sk_test_PastedKey0001",
      apiVersion: "2020-08-27",
    });
    await db().update(projects).set({ schemaVersion: 6 }).where(eq(projects.id, project.id));
    await setAddon(owner, {
      studioId: project.studioId,
      addon: "visualTests",
      enabled: true,
      chromaticProjectToken: "chpt_rotation0123456789",
    });
    const all: Stored[] = [
      ...seeded.payments,
      ...seeded.social,
      { id: pasted.id, plain: "sk_test_PastedKey0001" },
    ];
    const before = await storedValues(all.map((s) => s.id));
    for (const s of all) expect(keyIdOf(before.get(s.id)!)).toBe(idA);

    const idB = useKeys(KEY_B, [KEY_A]);
    expect(idB).not.toBe(idA);
    // Readable before any re-encryption, by the services too.
    for (const s of all) expect(decryptSecret(before.get(s.id)!)).toBe(s.plain);
    const products = await listAccountResource(owner, "products", {
      accountId: pasted.id,
      active: true,
      limit: 3,
    });
    expect(products.data).toHaveLength(3);

    const outdated = await countOutdatedSecrets();
    expect(outdated).toBeGreaterThanOrEqual(all.length + 1);
    const figures = await reencryptSecrets({ batchSize: 5 });
    console.log(
      `[key-rotation] ${figures.reencrypted} re-encrypted (${all.length + 1} of this test), ` +
        `${figures.current} already current, ${figures.changedMeanwhile} changed meanwhile, ` +
        `${figures.failed} failed, ${figures.remaining} left, ${figures.ms} ms`,
    );
    expect(figures).toMatchObject({
      keyId: idB,
      reencrypted: outdated,
      changedMeanwhile: 0,
      failed: 0,
      remaining: 0,
    });
    expect(figures.columns.map((c) => c.column)).toEqual(SECRET_COLUMNS.map((c) => c.name));

    const after = await storedValues(all.map((s) => s.id));
    for (const s of all) {
      expect(keyIdOf(after.get(s.id)!)).toBe(idB);
      expect(after.get(s.id)).not.toBe(before.get(s.id));
      expect(decryptSecret(after.get(s.id)!)).toBe(s.plain);
    }
    const [row] = await db().select().from(projects).where(eq(projects.id, project.id));
    expect(keyIdOf(row.chromaticProjectToken!)).toBe(idB);
    expect(decryptSecret(row.chromaticProjectToken!)).toBe("chpt_rotation0123456789");
    // Without A now: everything is under B.
    useKeys(KEY_B);
    for (const s of all) expect(decryptSecret(after.get(s.id)!)).toBe(s.plain);
    expect(
      (
        await listAccountResource(owner, "products", {
          accountId: pasted.id,
          active: true,
          limit: 1,
        })
      ).data,
    ).toHaveLength(1);

    // A second run finds nothing to do.
    const again = await reencryptSecrets();
    expect(again.reencrypted).toBe(0);
    expect(again.current).toBeGreaterThanOrEqual(all.length + 1);
  });

  it("never overwrites a value written between the read and the write (compare-and-set)", async () => {
    useKeys(KEY_A);
    const seeded = await seed(6, "cas");
    const idB = useKeys(KEY_B, [KEY_A]);
    const target = seeded.payments[0];
    let wrote = false;
    const figures = await reencryptSecrets({
      batchSize: 4,
      beforeWrite: async (column, ids) => {
        // The running app stores a new key for a row this batch has just read.
        if (wrote || column !== "payment_accounts.secret_key_encrypted") return;
        if (!ids.includes(target.id)) return;
        wrote = true;
        await db()
          .update(paymentAccounts)
          .set({ secretKeyEncrypted: encryptSecret("sk_test_WrittenMeanwhile01") })
          .where(eq(paymentAccounts.id, target.id));
      },
    });
    expect(wrote).toBe(true);
    expect(figures.changedMeanwhile).toBe(1);
    expect(figures.failed).toBe(0);
    const after = await storedValues([...seeded.payments, ...seeded.social].map((s) => s.id));
    expect(decryptSecret(after.get(target.id)!)).toBe("sk_test_WrittenMeanwhile01");
    for (const s of [...seeded.payments.slice(1), ...seeded.social]) {
      expect(keyIdOf(after.get(s.id)!)).toBe(idB);
      expect(decryptSecret(after.get(s.id)!)).toBe(s.plain);
    }
  });

  it("keeps every value written while it runs, under real concurrency", async () => {
    useKeys(KEY_A);
    const seeded = await seed(20, "race");
    const idB = useKeys(KEY_B, [KEY_A]);
    const rows = seeded.social;
    const last = new Map<string, string>();
    let writes = 0;
    const writer = (async () => {
      // The app refreshing tokens meanwhile: plain updates, as refreshSocialTokens does them.
      for (let i = 0; i < 60; i += 1) {
        const row = rows[(i * 7) % rows.length];
        const token = `IGLOCALrefreshed${i}x${Date.now()}`;
        await db()
          .update(socialAccounts)
          .set({ accessTokenEncrypted: encryptSecret(token) })
          .where(eq(socialAccounts.id, row.id));
        last.set(row.id, token);
        writes += 1;
        if (i % 5 === 0) await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const [figures] = await Promise.all([reencryptSecrets({ batchSize: 3 }), writer]);
    console.log(
      `[key-rotation] under concurrency: ${writes} writes by the app, ${figures.reencrypted} ` +
        `re-encrypted, ${figures.changedMeanwhile} changed meanwhile, ${figures.failed} failed`,
    );
    const after = await storedValues(rows.map((s) => s.id));
    for (const s of rows) {
      expect(keyIdOf(after.get(s.id)!)).toBe(idB);
      expect(decryptSecret(after.get(s.id)!)).toBe(last.get(s.id) ?? s.plain);
    }
    expect(figures.failed).toBe(0);
    expect(await countOutdatedSecrets()).toBe(0);
  });

  it("without A among the previous keys, an old value is a clear SecretDecryptionError and stays as it was", async () => {
    const idA = useKeys(KEY_A);
    const seeded = await seed(3, "lost");
    const ids = [...seeded.payments, ...seeded.social].map((s) => s.id);
    const before = await storedValues(ids);
    // B (the earlier tests' key) stays known: only this test's values are under a lost key.
    const idC = useKeys(KEY_C, [KEY_B]);
    const old = before.get(seeded.payments[0].id)!;
    expect(() => decryptSecret(old)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(old)).toThrow(
      `Stored secret was encrypted under key ${idA}, but the current ENCRYPTION_KEY is key ${idC}`,
    );
    const figures = await reencryptSecrets();
    expect(figures.failed).toBe(ids.length);
    expect(figures.remaining).toBe(ids.length);
    expect(figures.failures[0]).toMatchObject({ keyId: idA });
    expect(JSON.stringify(figures)).not.toContain("sk_test_");
    expect(await storedValues(ids)).toEqual(before);
    // With A back as a previous key they are re-encrypted after all.
    useKeys(KEY_C, [KEY_A]);
    const fixed = await reencryptSecrets();
    expect(fixed).toMatchObject({ failed: 0, remaining: 0 });
    for (const s of [...seeded.payments, ...seeded.social]) {
      const value = (await storedValues([s.id])).get(s.id)!;
      expect(keyIdOf(value)).toBe(idC);
      expect(decryptSecret(value)).toBe(s.plain);
    }
  });

  it("covers every column that holds encrypted values", async () => {
    // An authenticator app's secret, set up as the person would (totp_factors.secret).
    const secret = newTotpSecret();
    const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" });
    await enableTotp(owner, secret, otp);
    // A webhook's signing secret (webhooks.secret_encrypted), added as its admin would; the
    // development setting lets it point at this machine.
    process.env.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = "1";
    resetEnv();
    const hooked = await insertProject(owner.id);
    await addWebhook(owner, hooked.studioId, {
      url: "http://127.0.0.1:9/hook",
      events: ["project.deleted"],
      format: "standard",
    });
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES;
    resetEnv();
    const tables = (await db().execute(sql`
      select table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema = 'public'`)) as unknown as {
      rows: { name: string }[];
    };
    const ENCRYPTED = /^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]*$/;
    const found = new Set<string>();
    for (const { name } of tables.rows) {
      const rows = (await db().execute(
        sql.raw(`select row_to_json(t)::text as row from "${name}" t`),
      )) as unknown as { rows: { row: string }[] };
      for (const { row } of rows.rows) {
        for (const [column, value] of Object.entries(JSON.parse(row) as Record<string, unknown>)) {
          if (typeof value === "string" && ENCRYPTED.test(value)) found.add(`${name}.${column}`);
        }
      }
    }
    expect(found.size).toBeGreaterThanOrEqual(3);
    expect([...found].sort()).toEqual(SECRET_COLUMNS.map((c) => c.name).sort());
  });
});

// ---------------------------------------------------------------------------------------------
// `npm run rotate-key`, as a process.

function runScript(args: string[], env: Record<string, string>) {
  return runNodeScript("scripts/rotate-key.mjs", args, env);
}

const noKeysInEnv = {
  DATABASE_URL: "",
  ENCRYPTION_KEY: "",
  ENCRYPTION_KEY_PREVIOUS: "",
  SESSION_SECRET: "",
};

describe("npm run rotate-key", () => {
  it("on an embedded database: a new key into DATA_DIR/secrets.json, every value re-encrypted under it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-rotate-"));
    try {
      fs.cpSync(inject("pgliteTemplate"), dir, { recursive: true });
      const FILE_KEY = "file-key-before-rotation-0123456789";
      fs.writeFileSync(
        path.join(dir, "secrets.json"),
        JSON.stringify({ SESSION_SECRET: "s".repeat(32), ENCRYPTION_KEY: FILE_KEY }),
        { mode: 0o600 },
      );
      const idFile = useKeys(FILE_KEY);
      const plains = ["sk_test_FileRunKey0001", "sk_test_FileRunKey0002", "IGLOCALfilerun0001"];
      let lite = openDatabase({ dataDir: dir });
      try {
        const [user] = await lite.db
          .insert(users)
          .values({ name: "Lite", email: `lite${Date.now()}@example.com`, passwordHash: "x" })
          .returning();
        const [row] = await lite.db
          .insert(projects)
          .values({
            name: "Lite project",
            ownerId: user.id,
            idempotencyKey: `lite-${Date.now()}`,
            studioId: `lite${Date.now()}`,
            chromaticProjectToken: encryptSecret("chpt_filerun0123456789"),
          })
          .returning();
        await lite.db.insert(paymentAccounts).values(
          plains.slice(0, 2).map((plain, i) => ({
            projectId: row.id,
            accountName: `Lite ${i}`,
            publishableKey: `pk_test_lite${i}`,
            secretKeyEncrypted: encryptSecret(plain),
            secretKeyLast4: "••••",
            apiVersion: "2020-08-27",
          })),
        );
        await lite.db.insert(socialAccounts).values({
          projectId: row.id,
          platform: "instagram",
          providerUserId: "lite1",
          userName: "lite.one",
          accessTokenEncrypted: encryptSecret(plains[2]),
          tokenExpiresAt: new Date(Date.now() + 86400_000),
        });
      } finally {
        await lite.close();
      }

      // While another live process holds the directory, the script does not open it.
      fs.writeFileSync(
        path.join(dir, "db.lock"),
        JSON.stringify({ pid: process.pid, by: "server", since: new Date().toISOString() }),
      );
      const held = await runScript(["--no-new-key", "--wait", "1"], {
        ...noKeysInEnv,
        DATA_DIR: dir,
      });
      expect(held.output).toContain(`holds the embedded database in ${dir}`);
      expect(held.code, held.output).toBe(3);
      fs.rmSync(path.join(dir, "db.lock"));

      const run = await runScript(["--batch-size", "2"], { ...noKeysInEnv, DATA_DIR: dir });
      console.log(`[key-rotation] npm run rotate-key (PGlite):\n${run.output}`);
      expect(run.code, run.output).toBe(0);
      const file = JSON.parse(fs.readFileSync(path.join(dir, "secrets.json"), "utf8"));
      expect(file.SESSION_SECRET).toBe("s".repeat(32));
      expect(file.ENCRYPTION_KEY_PREVIOUS).toEqual([FILE_KEY]);
      const idNew = useKeys(file.ENCRYPTION_KEY, [FILE_KEY]);
      expect(idNew).not.toBe(idFile);
      expect(run.output).toContain(`key ${idNew} (key ${idFile} kept as a previous key)`);
      expect(run.output).toContain(
        "total: 4 re-encrypted, 0 already current, 0 changed meanwhile, 0 failed; 0 left under other keys",
      );
      expect(fs.existsSync(path.join(dir, "db.lock"))).toBe(false);

      lite = openDatabase({ dataDir: dir });
      try {
        const payments = await lite.db.select().from(paymentAccounts);
        const social = await lite.db.select().from(socialAccounts);
        const [row] = await lite.db.select().from(projects);
        const values = [
          ...payments.map((p) => p.secretKeyEncrypted),
          ...social.map((s) => s.accessTokenEncrypted),
          row.chromaticProjectToken!,
        ];
        for (const value of values) expect(keyIdOf(value)).toBe(idNew);
        useKeys(file.ENCRYPTION_KEY);
        expect(values.map(decryptSecret).sort()).toEqual(
          [...plains, "chpt_filerun0123456789"].sort(),
        );
      } finally {
        await lite.close();
      }
    } finally {
      useKeys(DEFAULT_KEY, [KEY_A, KEY_B, KEY_C]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it.skipIf(!process.env.DATABASE_URL)(
    "on PostgreSQL while the app keeps writing: every value under the new key, no write lost",
    async () => {
      useKeys(KEY_A);
      const seeded = await seed(30, "pg");
      const idB = useKeys(KEY_B, [KEY_A]);
      const rows = seeded.payments;
      const last = new Map<string, string>();
      let stop = false;
      let writes = 0;
      const writer = (async () => {
        for (let i = 0; !stop; i += 1) {
          const row = rows[(i * 11) % rows.length];
          const key = `sk_test_whileScript${i}x${Date.now()}`;
          await db()
            .update(paymentAccounts)
            .set({ secretKeyEncrypted: encryptSecret(key) })
            .where(eq(paymentAccounts.id, row.id));
          last.set(row.id, key);
          writes += 1;
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const run = await runScript(["--batch-size", "4"], {
        DATABASE_URL: process.env.DATABASE_URL!,
        ENCRYPTION_KEY: KEY_B,
        ENCRYPTION_KEY_PREVIOUS: `${KEY_A},${KEY_C},${DEFAULT_KEY}`,
        SESSION_SECRET: "s".repeat(32),
      });
      stop = true;
      await writer;
      console.log(
        `[key-rotation] npm run rotate-key (PostgreSQL, ${writes} writes meanwhile):\n${run.output}`,
      );
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/0 failed; 0 left under other keys/);
      const after = await storedValues([...seeded.payments, ...seeded.social].map((s) => s.id));
      for (const s of [...seeded.payments, ...seeded.social]) {
        expect(keyIdOf(after.get(s.id)!)).toBe(idB);
        expect(decryptSecret(after.get(s.id)!)).toBe(last.get(s.id) ?? s.plain);
      }
    },
    180_000,
  );
});
