/**
 * The app runs as a PostgreSQL role that owns nothing (docs/operations.md, "A runtime role that
 * owns nothing"): the SQL on that page, run as written (with names of this run) on a new
 * database, then `npm start` with DATABASE_URL as the runtime role and MIGRATIONS_DATABASE_URL as
 * the owner. The owner migrates and installs the job queue; the runtime role serves, works jobs
 * and writes the audit log, but cannot drop its triggers, empty it or alter it.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { withDatabase } from "../setup/databases";
import { startServer, stopServer, type Server } from "./lifecycle-support";

const adminUrl = inject("postgresAdminUrl");
const suffix = `${inject("runId")}_${process.env.VITEST_POOL_ID ?? "0"}`.replace(/\W/g, "");
const OWNER = `stackshift_owner_${suffix}`;
const RUNTIME = `stackshift_app_${suffix}`;
const DATABASE = `stackshift_rr_${suffix}`;

/** The page's SQL blocks, in order, with this run's names for the roles and the database. */
function documentedSql(): string[] {
  const page = fs.readFileSync(path.resolve(__dirname, "../../docs/operations.md"), "utf8");
  const start = page.indexOf("\n## A runtime role that owns nothing\n");
  const section = page.slice(start, page.indexOf("\n## ", start + 1));
  return [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map(([, text]) =>
    text
      .replace(/\bstackshift_owner\b/g, OWNER)
      .replace(/\bstackshift_app\b/g, RUNTIME)
      .replace(/\bstackshift\b/g, DATABASE),
  );
}

const urlAs = (role: string) => {
  const url = new URL(withDatabase(adminUrl, DATABASE));
  url.username = role;
  url.password = "";
  return url.toString();
};

async function asRole<T>(role: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlAs(role) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** What PostgreSQL answers to `text` as `role`: "ok" or its error message. */
const answer = (role: string, text: string, values: unknown[] = []) =>
  asRole(role, (client) =>
    client.query(text, values).then(
      () => "ok",
      (error: Error) => error.message,
    ),
  );

async function admin(text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function dropAll() {
  await admin(`drop database if exists ${DATABASE} with (force)`);
  await admin(`drop role if exists ${RUNTIME}`);
  await admin(`drop role if exists ${OWNER}`);
}

let server: Server | undefined;

describe.skipIf(!adminUrl)("a runtime role that owns nothing (PostgreSQL)", () => {
  beforeAll(async () => {
    await dropAll();
    const [asSuperuser, asOwner] = documentedSql();
    // Passwords aside (the test server trusts local connections); one statement at a time, as
    // CREATE DATABASE cannot share a transaction.
    for (const statement of asSuperuser.replace(/ PASSWORD '[^']*'/g, "").split(";")) {
      if (statement.trim()) await admin(statement);
    }
    await asRole(OWNER, (client) => client.query(asOwner));
    server = await startServer({
      DATABASE_URL: urlAs(RUNTIME),
      MIGRATIONS_DATABASE_URL: urlAs(OWNER),
      WEB_CONCURRENCY: "1",
      DATA_DIR: "",
      SESSION_SECRET: "runtime-role-session-secret-0123",
      ENCRYPTION_KEY: "runtime-role-encryption-key-0123",
    });
  }, 240_000);

  afterAll(async () => {
    if (server) await stopServer(server);
    await dropAll();
  }, 60_000);

  it("migrates as the owner and serves as the runtime role, which owns nothing", async () => {
    expect((await fetch(`${server!.base}/readyz`)).status).toBe(200);
    expect((await fetch(`${server!.base}/auth/login`)).status).toBe(200);
    const owned = await asRole(RUNTIME, async (client) => {
      const { rows } = await client.query(
        `select (select count(*) from pg_class where relowner = r.oid)::int as relations,
                (select count(*) from pg_namespace where nspowner = r.oid)::int as schemas,
                (select count(*) from pg_proc where proowner = r.oid)::int as functions
           from pg_roles r where r.rolname = current_user`,
      );
      return rows[0];
    });
    expect(owned).toEqual({ relations: 0, schemas: 0, functions: 0 });
    // The owner's work: our tables and the job queue's, with every queue made.
    const made = await asRole(OWNER, async (client) => {
      const { rows } = await client.query(
        `select (select count(*) from drizzle.__drizzle_migrations)::int as migrations,
                (select count(*) from pgboss.queue)::int as queues,
                (select tableowner from pg_tables where tablename = 'audit_log') as "auditOwner"`,
      );
      return rows[0];
    });
    expect(made.migrations).toBeGreaterThan(20);
    expect(made.queues).toBeGreaterThan(10);
    expect(made.auditOwner).toBe(OWNER);
  });

  it("lets the runtime role write rows and send jobs, and the running server work them", async () => {
    const inserted = await answer(
      RUNTIME,
      `insert into audit_log (action, actor_email, project_id, project_name)
       values ('support.viewed', 'support@example.com', gen_random_uuid(), 'Runtime role')`,
    );
    expect(inserted).toBe("ok");
    // A job sent as the runtime role is taken and finished by the server (same role).
    const jobId = await asRole(RUNTIME, async (client) => {
      const { rows } = await client.query(
        `insert into pgboss.job (name, data) values ('sessions.purge', '{}') returning id`,
      );
      return rows[0].id as string;
    });
    const deadline = Date.now() + 30_000;
    let state = "";
    while (Date.now() < deadline) {
      state = await asRole(RUNTIME, async (client) => {
        const { rows } = await client.query(`select state from pgboss.job where id = $1`, [jobId]);
        return String(rows[0]?.state ?? "archived");
      });
      if (state === "completed" || state === "failed" || state === "archived") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(state).toBe("completed");
    // Nothing the server did as the runtime role (boot, the queue's upkeep, jobs) was refused.
    expect(server!.output.join("")).not.toMatch(/permission denied|must be owner/);
  });

  it("refuses the runtime role DROP TRIGGER, TRUNCATE, ALTER and DROP on the audit log", async () => {
    expect(await answer(RUNTIME, "drop trigger audit_log_append_only on audit_log")).toMatch(
      /must be owner of (table|relation) audit_log/,
    );
    expect(await answer(RUNTIME, "drop trigger audit_log_no_truncate on audit_log")).toMatch(
      /must be owner/,
    );
    expect(await answer(RUNTIME, "truncate audit_log")).toMatch(
      /permission denied for table audit_log/,
    );
    expect(await answer(RUNTIME, "alter table audit_log disable trigger all")).toMatch(
      /must be owner/,
    );
    expect(await answer(RUNTIME, "drop table audit_log")).toMatch(/must be owner/);
    expect(await answer(RUNTIME, "create table intruder (id int)")).toMatch(
      /permission denied for schema public/,
    );
    // Rows stay append-only for everyone; the owner's TRUNCATE meets the trigger.
    expect(await answer(RUNTIME, "delete from audit_log")).toMatch(/append-only: DELETE refused/);
    expect(await answer(OWNER, "truncate audit_log")).toMatch(/append-only: TRUNCATE refused/);
  });
});
