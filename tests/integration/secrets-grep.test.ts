/**
 * Secrets: a full run of a real server process (scripts/start.mjs) with known secrets,
 * driven over HTTP: sign up (the password), create a project, add Stripe secret keys through the
 * JSON API and the form (also refused and duplicate attempts), set a Visual Tests token, link an
 * Instagram account through the local provider (its token is the server's own), read the pages,
 * their `.data` payloads and the API back, rotate ENCRYPTION_KEY with `npm run rotate-key` while
 * the server runs and read again, and scrape GET /metrics with its bearer token (and a wrong
 * one). Then every response (status, headers, body), the server's stdout/stderr, the script's
 * output and a dump of every row of every table of every schema (the app's, pg-boss's jobs,
 * sessions, the outbox) are searched for each secret, as is and in its base64, base64url, URL,
 * form, JSON and hex encodings: none may be found.
 *
 * PostgreSQL (a fresh database from the run's template) when the run has one, else PGlite in a
 * temporary DATA_DIR copied from the migrated template (whose raw files are searched too).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { resetEnv } from "~/utils/env.server";
import { decryptSecret } from "~/utils/secrets.server";
import { runNodeScript } from "../helpers";
import { templateDb, withDatabase } from "../setup/databases";
import { startServer, stopServer, waitFor, type Server } from "./lifecycle-support";

const adminUrl = inject("postgresAdminUrl");
const postgres = Boolean(process.env.DATABASE_URL) && Boolean(adminUrl);
const alnum = (n: number) =>
  randomBytes(n * 2)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, n);

const SECRETS = {
  SESSION_SECRET: `grep-session-${alnum(32)}`,
  ENCRYPTION_KEY: `grep-encryption-${alnum(32)}`,
  password: `Grep pass ${alnum(16)}!`,
  stripeApiKey: `sk_test_GrepApi${alnum(24)}`,
  stripeFormKey: `sk_test_GrepForm${alnum(24)}`,
  visualTestsToken: `chpt_Grep${alnum(24)}`,
  metricsToken: `grep-metrics-${alnum(32)}`,
};

// ---------------------------------------------------------------------------------------------
// Searching: every encoding a secret could take on the way out.

/** The base64 text of `secret` wherever it sits in a longer encoded value (each of 3 offsets). */
function base64Forms(secret: string): string[] {
  const forms: string[] = [];
  const bytes = Buffer.from(secret, "utf8");
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    // Characters that depend only on the secret's bytes: skip those mixed with what precedes,
    // stop before the last group, which depends on what follows.
    const start = [0, 2, 3][offset];
    const end = Math.floor((offset + bytes.length) / 3) * 4;
    const core = encoded.slice(start, end);
    forms.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

function encodings(secret: string): string[] {
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      Buffer.from(secret, "utf8").toString("hex"),
      ...base64Forms(secret),
    ]),
  ];
}

type Finding = { secret: string; where: string; encoding: string };

function search(
  corpus: { where: string; text: string | Buffer }[],
  secrets: Record<string, string>,
) {
  const found: Finding[] = [];
  for (const [name, secret] of Object.entries(secrets)) {
    for (const form of encodings(secret)) {
      for (const { where, text } of corpus) {
        if (text.indexOf(form) !== -1) found.push({ secret: name, where, encoding: form });
      }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// HTTP: every exchange recorded.

type Exchange = { request: string; status: number; headers: string; body: string };
const exchanges: Exchange[] = [];
let server: Server | undefined;
let cookies = new Map<string, string>();

async function http(
  method: string,
  target: string,
  options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
) {
  const url = new URL(target, server!.base);
  const headers: Record<string, string> = {
    Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    ...options.headers,
  };
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["Content-Type"] = "application/json";
  }
  if (method !== "GET") headers.Origin = server!.base;
  const res = await fetch(url, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    const value = pair.slice(at + 1);
    if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) {
      cookies.delete(pair.slice(0, at));
    } else cookies.set(pair.slice(0, at), value);
  }
  exchanges.push({
    request: `${method} ${url.pathname}${url.search}`,
    status: res.status,
    headers: [...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n"),
    body: text,
  });
  return { status: res.status, location: res.headers.get("location"), text };
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

// ---------------------------------------------------------------------------------------------

let dataDir = "";
let databaseUrl = "";

afterAll(async () => {
  if (server) await stopServer(server, "SIGKILL");
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  // A PostgreSQL database of this run is dropped with the others by the global teardown.
});

function runRotateKey(env: Record<string, string>) {
  return runNodeScript("scripts/rotate-key.mjs", ["--wait", "60"], env);
}

/** Every row of every table of every schema, as JSON lines. */
async function dumpDatabase(): Promise<string> {
  const list = `select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`;
  const lines: string[] = [];
  let tables = 0;
  const dumpWith = async (query: (text: string) => Promise<{ rows: unknown[] }>) => {
    const { rows } = (await query(list)) as { rows: { schema: string; name: string }[] };
    for (const t of rows) {
      tables += 1;
      const result = (await query(
        `select row_to_json(t)::text as row from "${t.schema}"."${t.name}" t`,
      )) as { rows: { row: string }[] };
      for (const r of result.rows) lines.push(`${t.schema}.${t.name} ${r.row}`);
    }
  };
  if (postgres) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await dumpWith((text) => client.query(text));
    } finally {
      await client.end();
    }
  } else {
    const lite = openDatabase({ dataDir });
    try {
      await dumpWith((text) => lite.raw(text, []));
    } finally {
      await lite.close();
    }
  }
  console.log(`[secrets-grep] database dump: ${tables} tables, ${lines.length} rows`);
  return lines.join("\n");
}

/** Every file of the embedded database, raw (pages, WAL): what a copy of DATA_DIR/db holds. */
function rawDatabaseFiles(): { where: string; text: Buffer }[] {
  if (postgres) return [];
  const files: { where: string; text: Buffer }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        files.push({ where: `file ${path.relative(dataDir, full)}`, text: fs.readFileSync(full) });
    }
  };
  walk(path.join(dataDir, "db"));
  return files;
}

describe("secrets grep", () => {
  it("finds none of the run's secrets in the database, the server log or any API response", async () => {
    const started = Date.now();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-grep-"));
    if (postgres) {
      const name = `stackshift_t${inject("runId")}_grep${process.pid}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name} template ${templateDb(inject("runId"))}`);
      await admin.end();
      databaseUrl = withDatabase(adminUrl, name);
    } else {
      fs.cpSync(inject("pgliteTemplate"), dataDir, { recursive: true });
    }
    // The keys as a local run has them (DATA_DIR/secrets.json), so the rotation below writes a
    // new one there and the running server takes it up.
    fs.writeFileSync(
      path.join(dataDir, "secrets.json"),
      JSON.stringify({
        SESSION_SECRET: SECRETS.SESSION_SECRET,
        ENCRYPTION_KEY: SECRETS.ENCRYPTION_KEY,
      }),
      { mode: 0o600 },
    );
    const email = `grep-${alnum(8).toLowerCase()}@example.com`;
    const serverEnv = {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "",
      ENCRYPTION_KEY: "",
      ENCRYPTION_KEY_PREVIOUS: "",
      PROVIDERS: "local",
      PLATFORM_ADMIN_EMAILS: email,
      WEB_CONCURRENCY: "1",
      SMTP_URL: "",
      LOCAL_DEPLOY_STEP_SECONDS: "1",
      METRICS_TOKEN: SECRETS.metricsToken,
    };
    server = await startServer(serverEnv);
    const bootMs = Date.now() - started;

    // Sign up, confirm the address from the link in the log (its page's form), log in.
    await http("GET", "/signup");
    const signup = await http("POST", "/signup", {
      form: { name: "Greta Grep", email, password: SECRETS.password },
    });
    expect(signup.status, signup.text).toBe(302);
    const link = await waitFor(
      async () => {
        const log = server!.output.join("");
        const at = log.indexOf(`[mail] to=${email}`);
        return at >= 0 ? /\/auth\/verify\/[\w-]+/.exec(log.slice(at))?.[0] : null;
      },
      { timeout: 30_000, what: "the confirmation mail in the log" },
    );
    // The link only shows a page; its form, with the signup's password, creates the account.
    await http("GET", link);
    const confirmed = await http("POST", link, { form: { password: SECRETS.password } });
    expect(confirmed.status, confirmed.text).toBe(302);
    cookies = new Map();
    const wrong = await http("POST", "/auth/login", {
      form: { email, password: `${SECRETS.password}x` },
    });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    const login = await http("POST", "/auth/login", {
      form: { email, password: SECRETS.password },
    });
    expect(login.status, login.text).toBe(302);

    // A project.
    const created = await http("POST", "/api/app/create", {
      json: { name: "Grep shop", idempotencyKey: `grep-${Date.now()}` },
    });
    expect(created.status, created.text).toBe(201);
    const project = json(created.text) as { _id: string; studioId: string };
    const studio = encodeURIComponent(project.studioId);

    // Stripe: the JSON API, the same again (409), the form, and a refused form.
    const stripeApi = {
      action: "add-account",
      studio: { pagebuilderId: project.studioId },
      stripeAccounts: {
        accountName: "Grep API",
        stripePKey: "pk_test_grepapi0001",
        stripeSKey: SECRETS.stripeApiKey,
      },
    };
    const added = await http("POST", "/api/app/integrations/payments", { json: stripeApi });
    expect(added.status, added.text).toBe(201);
    const accountId = (json(added.text).account as { id: string }).id;
    expect((await http("POST", "/api/app/integrations/payments", { json: stripeApi })).status).toBe(
      409,
    );
    const payments = `/sites/integrations/payments/${studio}`;
    const viaForm = await http("POST", payments, {
      form: {
        intent: "payment-add",
        accountName: "Grep form",
        publishableKey: "pk_test_grepform0001",
        secretKey: SECRETS.stripeFormKey,
      },
    });
    expect(viaForm.status, viaForm.text).toBe(302);
    const refused = await http("POST", payments, {
      form: {
        intent: "payment-add",
        accountName: "Grep refused",
        publishableKey: "not-a-publishable-key",
        secretKey: SECRETS.stripeFormKey,
      },
    });
    expect(refused.status).toBe(400);

    // Visual Tests with its token.
    const visual = await http("PUT", "/api/app/chromatic", {
      json: {
        studioId: project.studioId,
        action: "enable",
        chromaticProjectToken: SECRETS.visualTestsToken,
      },
    });
    expect(visual.status, visual.text).toBe(200);

    // Instagram through the local provider's authorization page, in this tab (no popup).
    const start = await http("POST", `/sites/${studio}`, {
      form: { intent: "social-link", platform: "instagram", professional: "on", mode: "tab" },
    });
    expect(start.status, start.text).toBe(302);
    await http("GET", start.location!);
    const granted = await http("POST", start.location!, {
      form: { userName: `grep.${alnum(6).toLowerCase()}`, profileName: "Grep" },
    });
    expect(granted.status, granted.text).toBe(302);
    const back = await http("GET", granted.location!.replace(/#.*$/, ""));
    expect(back.status, back.text).toBe(302);

    // Everything read back: pages, their data requests, the API.
    const readBack = async () => {
      for (const page of [
        "/",
        "/sites",
        `/sites/${studio}`,
        payments,
        `/sites/social-media/${studio}`,
        `/sites/${studio}/activity`,
        `/sites/settings/${studio}`,
        "/sites/user-settings",
        "/dev/outbox",
      ]) {
        const res = await http("GET", page);
        expect(res.status, `${page}: ${server!.output.join("").slice(-3000)}`).toBe(200);
        await http("GET", `${page === "/" ? "/_root" : page}.data`);
      }
      await http("GET", "/api/app");
      await http("GET", `/api/app/${project._id}`);
      await http("GET", `/api/app/integrations/payments?action=get-accounts&studioId=${studio}`);
      const products = await http("POST", "/api/payments/stripe?resource=products&action=list", {
        json: { accountId, limit: 3 },
      });
      expect(products.status, products.text).toBe(200);
      expect((json(products.text).data as unknown[]).length).toBe(3);
    };
    await readBack();

    // npm run rotate-key while the server runs; the server keeps working under the new key.
    const rotation = await runRotateKey({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "",
      ENCRYPTION_KEY: "",
      ENCRYPTION_KEY_PREVIOUS: "",
    });
    console.log(`[secrets-grep] npm run rotate-key while the server runs:\n${rotation.output}`);
    expect(rotation.code, rotation.output).toBe(0);
    // The two Stripe keys, the Visual Tests token and the Instagram token: on PostgreSQL the
    // script and the server (which took up the new key) share them; on PGlite the server does all.
    expect(rotation.output).toMatch(/ 0 failed; 0 left under other keys/);
    const keys = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as {
      ENCRYPTION_KEY: string;
      ENCRYPTION_KEY_PREVIOUS: string[];
    };
    expect(keys.ENCRYPTION_KEY_PREVIOUS).toEqual([SECRETS.ENCRYPTION_KEY]);
    await readBack();
    // A value written after the rotation is under the new key too (the server took it up).
    const later = await http("POST", payments, {
      form: {
        intent: "payment-add",
        accountName: "Grep later",
        publishableKey: "pk_test_greplater0001",
        secretKey: `${SECRETS.stripeFormKey}Later`,
      },
    });
    expect(later.status, later.text).toBe(302);
    await http("POST", "/auth/logout", { form: {} });
    // The metrics, as Prometheus scrapes them, and a scrape with a wrong token.
    const scraped = await http("GET", "/metrics", {
      headers: { Authorization: `Bearer ${SECRETS.metricsToken}` },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain("stackshift_http_request_duration_seconds_bucket");
    const wrongScrape = await http("GET", "/metrics", {
      headers: { Authorization: `Bearer ${SECRETS.metricsToken.slice(0, -1)}` },
    });
    expect(wrongScrape.status).toBe(401);
    await stopServer(server);
    const log = server.output.join("");
    server = undefined;
    // The server's JSON log lines are searched below with the rest of its output: one per
    // request at least (method, path, status, ids), so the run's requests are all in the corpus.
    const logLines = log
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logLines.filter((line) => line.msg === "request").length).toBeGreaterThan(20);
    console.log(
      `[secrets-grep] the server's own key rotation lines:\n${logLines
        .filter((line) => line.area === "secrets")
        .map((line) => JSON.stringify(line))
        .join("\n")}`,
    );

    const dump = await dumpDatabase();
    // The Instagram token is the local provider's: read it back with the new key.
    const testKey = process.env.ENCRYPTION_KEY;
    process.env.ENCRYPTION_KEY = keys.ENCRYPTION_KEY;
    resetEnv();
    const tokenRow = /"access_token_encrypted":"(v1\.[^"]+)"/.exec(dump);
    expect(tokenRow).not.toBeNull();
    const instagramToken = decryptSecret(tokenRow![1]);
    const encrypted = [...dump.matchAll(/"(v1\.[0-9a-f]{8})\.[^"]+"/g)].map((m) => m[1]);
    process.env.ENCRYPTION_KEY = testKey;
    resetEnv();
    expect(instagramToken).toMatch(/^IGLOCAL/);
    // Every stored secret is under the new key: three Stripe keys, the token, the Visual Tests one.
    expect(encrypted.length).toBe(5);
    expect(new Set(encrypted).size).toBe(1);

    const secrets = {
      ...SECRETS,
      stripeLaterKey: `${SECRETS.stripeFormKey}Later`,
      rotatedEncryptionKey: keys.ENCRYPTION_KEY,
      instagramToken,
    };
    const responses = exchanges.map((e) => ({
      where: `response to ${e.request} (${e.status})`,
      text: `${e.headers}\n\n${e.body}`,
    }));
    const raw = rawDatabaseFiles();
    const corpus = [
      ...responses,
      { where: "server log", text: log },
      { where: "rotate-key output", text: rotation.output },
      { where: "database dump", text: dump },
      ...raw,
    ];
    // SECRETS_GREP_KEEP=<file>: the searched text, to read after a failure.
    if (process.env.SECRETS_GREP_KEEP) {
      fs.writeFileSync(
        process.env.SECRETS_GREP_KEEP,
        corpus
          .filter((c) => typeof c.text === "string")
          .map((c) => `===== ${c.where}\n${String(c.text)}`)
          .join("\n"),
      );
    }
    // The corpus holds what it should: the account, the masked keys, rows of the job queue.
    expect(dump).toContain(email);
    expect(dump).toMatch(/^pgboss\.job /m);
    expect(dump).toMatch(/^public\.sessions /m);
    expect(dump).toMatch(/^public\.outbox /m);
    expect(responses.map((r) => r.text).join("\n")).toContain(
      `ending in ${SECRETS.stripeApiKey.slice(-4)}`,
    );
    // And the search finds a secret in each encoding (a control).
    const control = `x${Buffer.from(`{"k":"${SECRETS.password}"}`).toString("base64url")}`;
    expect(search([{ where: "control", text: control }], { p: SECRETS.password })).not.toEqual([]);

    const found = search(corpus, secrets);
    const bytes = corpus.reduce((n, c) => n + Buffer.byteLength(c.text), 0);
    const forms = Object.values(secrets).reduce((n, s) => n + encodings(s).length, 0);
    console.log(
      `[secrets-grep] ${postgres ? "PostgreSQL" : "PGlite"}: ${(bytes / 1e6).toFixed(1)} MB scanned ` +
        `(${exchanges.length} responses ${(responses.reduce((n, r) => n + r.text.length, 0) / 1e3).toFixed(0)} kB, ` +
        `server log ${(log.length / 1e3).toFixed(0)} kB, database dump ${(dump.length / 1e3).toFixed(0)} kB` +
        `${raw.length ? `, ${raw.length} raw database files ${(raw.reduce((n, f) => n + f.text.length, 0) / 1e6).toFixed(1)} MB` : ""}); ` +
        `${Object.keys(secrets).length} secrets checked in ${forms} encodings; found: ${found.length}; ` +
        `server start ${(bootMs / 1000).toFixed(1)} s, whole run ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(found).toEqual([]);
  }, 240_000);
});
