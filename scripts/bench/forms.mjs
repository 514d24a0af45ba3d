// `npm run bench:forms [-- --quick]`: the public endpoints of hosted sites and the CSV export on
// PostgreSQL. Seeds a database of its own (a small account), starts the built server, then prints
// submissions/s accepted by POST /forms/{id} (fetch-style JSON, 20 connections), the time and
// server memory of exporting 100,000 submissions (20,000 with --quick) as CSV, and page views/s
// counted by POST /analytics/collect (checked against the day rows). The per-address limits are
// off here (RATE_LIMITS=off, the documented benchmark switch): one client address
// sends everything. Not part of `npm test`; it talks to 127.0.0.1 only and stops itself.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { buildIfStale } from "../build.mjs";
import { PASSWORD, seed } from "./seed.mjs";
import { adminQuery } from "../pg-admin.mjs";
import { waitForHealth as waitFor } from "./server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const quick = process.argv.includes("--quick");
const SUBMISSIONS = quick ? 20_000 : 100_000;
const DURATION = quick ? 3 : 10;
const PORT = Number(process.env.BENCH_PORT ?? 3401);
const BASE = `http://127.0.0.1:${PORT}`;
const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const dbName = `stackshift_bench_forms_${Date.now()}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const admin = (sql) => adminQuery(adminUrl, sql);
const waitForHealth = (server) => waitFor(BASE, server);

function startServer() {
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      APP_URL: BASE,
      DATABASE_URL: dbUrl,
      SESSION_SECRET: "benchmark-session-secret-0123456789",
      ENCRYPTION_KEY: "benchmark-encryption-key-0123456789",
      PROVIDERS: "local",
      RATE_LIMITS: "off",
      WEB_CONCURRENCY: "1",
      AUTO_DEPLOY_AFTER_MINUTES: "1000000",
      SMTP_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  return { child, log: () => log };
}

/** The server process's resident memory in MB (Linux /proc), or NaN elsewhere. */
async function rssMb(pid) {
  try {
    const { readFile } = await import("node:fs/promises");
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return Number.NaN;
  }
}

async function main() {
  if (!buildIfStale()) process.exit(1);
  await admin(`create database ${dbName}`);
  const server = startServer();
  let client;
  try {
    await waitForHealth(server);
    client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    await seed(client, { projects: 1_000 });
    const {
      rows: [project],
    } = await client.query(
      `select p.id, p.studio_id from projects p join users u on u.id = p.owner_id
       where u.email = 'owner@bench.example' order by p.created_at limit 1`,
    );
    const {
      rows: [form],
    } = await client.query(
      `insert into forms (project_id, name) values ($1, 'Contact') returning id`,
      [project.id],
    );

    // 1. Submissions accepted per second.
    const body = JSON.stringify({
      name: "Bench Visitor",
      email: "visitor@bench.example",
      message: "Hello from the benchmark",
    });
    const result = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: `${BASE}/forms/${form.id}`,
          method: "POST",
          connections: 20,
          duration: DURATION,
          headers: { "content-type": "application/json", accept: "application/json" },
          body,
        },
        (error, r) => (error ? reject(error) : resolve(r)),
      ),
    );
    const accepted = result["2xx"];
    console.log(
      `POST /forms/{id}: ${Math.round(accepted / DURATION)} submissions/s accepted ` +
        `(p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
        `${result.non2xx} refused, ${result.errors} errors)`,
    );
    const stored = (await client.query(`select count(*)::int as n from form_submissions`)).rows[0]
      .n;
    console.log(`stored: ${stored} (answered 2xx: ${accepted})`);

    // 2. CSV export of SUBMISSIONS rows, streamed (a form of its own: posts still in flight
    // from the load above may land in the first one).
    const {
      rows: [exported],
    } = await client.query(
      `insert into forms (project_id, name) values ($1, 'Export') returning id`,
      [project.id],
    );
    await client.query(
      `insert into form_submissions (form_id, data, search_text, created_at)
       select $1, jsonb_build_object('name', 'Visitor ' || i, 'email', 'v' || i || '@bench.example',
         'message', repeat('lorem ipsum ', 8)), 'visitor ' || i,
         date_trunc('milliseconds', now()) - make_interval(secs => i)
       from generate_series(1, $2) i`,
      [exported.id, SUBMISSIONS],
    );
    const login = await fetch(`${BASE}/auth/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
      body: new URLSearchParams({
        email: "owner@bench.example",
        password: PASSWORD,
        redirectTo: "/",
      }),
    });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.includes("stackshift_session="))
      ?.split(";")[0];
    if (!cookie) throw new Error(`login failed: HTTP ${login.status}`);
    const before = await rssMb(server.child.pid);
    let peak = before;
    const sampler = setInterval(async () => {
      peak = Math.max(peak, await rssMb(server.child.pid));
    }, 100);
    const started = Date.now();
    const res = await fetch(`${BASE}/resources/forms-export/${exported.id}`, {
      headers: { cookie },
    });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines += 1;
    }
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    console.log(
      `CSV export of ${SUBMISSIONS.toLocaleString("en")} submissions: ${seconds.toFixed(1)} s, ` +
        `${(bytes / 1024 / 1024).toFixed(1)} MB, ${lines - 1} rows; ` +
        `server memory ${before} MB before, ${peak} MB at most during the export`,
    );
    if (lines - 1 !== SUBMISSIONS)
      throw new Error(`expected ${SUBMISSIONS} rows, got ${lines - 1}`);

    // 3. Page views counted per second: beacons as a site's script sends them (text/plain JSON
    // from the site's origin), over 20 pages and two referrers; every answered view must be in
    // the day rows, and the rows are one per page.
    const {
      rows: [{ analytics_key: key }],
    } = await client.query(`select analytics_key from projects where id = $1`, [project.id]);
    let sent = 0;
    const views = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: `${BASE}/analytics/collect`,
          method: "POST",
          connections: 20,
          duration: DURATION,
          headers: { "content-type": "text/plain;charset=UTF-8", origin: BASE },
          requests: [
            {
              setupRequest: (request) => {
                sent += 1;
                const referrer = sent % 2 ? "https://news.example.org/a" : "";
                return {
                  ...request,
                  body: JSON.stringify({ k: key, p: `/page-${sent % 20}`, r: referrer }),
                };
              },
            },
          ],
        },
        (error, r) => (error ? reject(error) : resolve(r)),
      ),
    );
    // Views still in flight when autocannon stopped may land after its count.
    await new Promise((r) => setTimeout(r, 500));
    const {
      rows: [counted],
    } = await client.query(
      `select coalesce(sum(views), 0)::int as views, count(*)::int as rows
       from analytics_page_days where project_id = $1`,
      [project.id],
    );
    console.log(
      `POST /analytics/collect: ${Math.round(views["2xx"] / DURATION)} page views/s counted ` +
        `(p50 ${views.latency.p50} ms, p99 ${views.latency.p99} ms, ${views.non2xx} refused, ` +
        `${views.errors} errors); in the day rows: ${counted.views} views in ${counted.rows} rows ` +
        `(answered 204: ${views["2xx"]})`,
    );
    if (counted.views < views["2xx"])
      throw new Error(`${views["2xx"] - counted.views} answered page views were not counted`);
  } finally {
    await client?.end();
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    await admin(`drop database if exists ${dbName} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
