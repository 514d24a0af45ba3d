// `npm run bench:forms [-- --quick] [-- --only export]`: the public endpoints of hosted sites and
// the CSV export on PostgreSQL. Seeds a database of its own (a small account), starts the built
// server, then prints submissions/s accepted by POST /forms/{id} (fetch-style JSON, 20
// connections); the export of the largest form allowed (100 field names and the other field, each
// row filling all of them; 100,000 rows, 20,000 with --quick): its time, server memory, and
// /healthz latency (p99 and max) asked 100 times a second meanwhile, against the same without an
// export (how long the export holds the event loop); and page views/s counted by POST
// /analytics/collect (checked against the day rows). The per-address limits are off here
// (RATE_LIMITS=off, the documented benchmark switch): one client address sends everything.
// `--only export` runs the export alone. Not part of `npm test`; it talks to 127.0.0.1 only and
// stops itself.
import autocannon from "autocannon";
import pg from "pg";
import { buildIfStale } from "../build.mjs";
import { PASSWORD, seed } from "./seed.mjs";
import { adminQuery } from "../pg-admin.mjs";
import { spawnBenchServer, waitForHealth as waitFor } from "./server.mjs";

const quick = process.argv.includes("--quick");
const exportOnly = process.argv.join(" ").includes("--only export");
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
const admin = (/** @type {string} */ sql) => adminQuery(adminUrl, sql);
const waitForHealth = (/** @type {import("./server.mjs").BenchServer} */ server) =>
  waitFor(BASE, server);

/** The seeded project the forms belong to. @typedef {{ id: string; studio_id: string }} Project */

function startServer() {
  return spawnBenchServer({ port: PORT, dbUrl });
}

/**
 * The server process's resident memory in MB (Linux /proc), or NaN elsewhere.
 * @param {number | undefined} pid
 */
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

/**
 * 1. Submissions accepted per second.
 * @param {import("pg").Client} client
 * @param {Project} project
 */
async function submissionsPerSecond(client, project) {
  const {
    rows: [form],
  } = await client.query(
    `insert into forms (project_id, name) values ($1, 'Contact') returning id`,
    [project.id],
  );
  const body = JSON.stringify({
    name: "Bench Visitor",
    email: "visitor@bench.example",
    message: "Hello from the benchmark",
  });
  /** @type {import("autocannon").Result} */
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
  const stored = (await client.query(`select count(*)::int as n from form_submissions`)).rows[0].n;
  console.log(`stored: ${stored} (answered 2xx: ${accepted})`);
}

/**
 * /healthz asked 100 times a second until `until` settles: its latency shows event-loop stalls.
 * @param {Promise<unknown>} until
 */
async function healthzDuring(until) {
  /** @type {{ stop(): void } | undefined} Set at once: a promise's executor runs synchronously. */
  let instance;
  /** @type {Promise<import("autocannon").Result>} */
  const result = new Promise((resolve, reject) => {
    instance = autocannon(
      { url: `${BASE}/healthz`, connections: 4, overallRate: 100, duration: 3600 },
      (error, r) => (error ? reject(error) : resolve(r)),
    );
  });
  await until;
  instance?.stop();
  const r = await result;
  return { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, n: r.requests.total };
}

const FIELDS = 100;

/**
 * 2. The CSV export of the largest form allowed: 100 field names, each row filling all of them
 * (some values quoted, some formula openers to defuse) plus the other field (decision 030),
 * SUBMISSIONS rows seeded in one statement. /healthz latency during the export against the same
 * without one: an export that yields between batches leaves /healthz near its idle figures.
 * @param {import("pg").Client} client
 * @param {Project} project
 * @param {import("./server.mjs").BenchServer} server
 */
async function exportLargestForm(client, project, server) {
  const names = Array.from({ length: FIELDS }, (_, n) => `field_${String(n + 1).padStart(3, "0")}`);
  const {
    rows: [form],
  } = await client.query(
    `insert into forms (project_id, name, field_names) values ($1, 'Export', $2) returning id`,
    [project.id, JSON.stringify(names)],
  );
  const seeding = Date.now();
  await client.query(
    `with template as (
       select jsonb_object_agg(name, case when n % 10 = 0 then '=' || n || '+1'
         when n % 10 = 5 then 'Value ' || n || ', "quoted"' else 'Value ' || n || ' of a field' end) as data
       from unnest($3::text[]) with ordinality as t(name, n))
     insert into form_submissions (form_id, data, search_text, created_at)
     select $1, template.data || jsonb_build_object('field_001', 'Visitor ' || i,
         '_other', 'extra_' || i || ': more text' || chr(10) || 'note: seen on the site'),
       'visitor ' || i, date_trunc('milliseconds', now()) - make_interval(secs => i)
     from template, generate_series(1, $2) i`,
    [form.id, SUBMISSIONS, names],
  );
  console.log(
    `seeded ${SUBMISSIONS.toLocaleString("en")} submissions of ${FIELDS} fields and the other ` +
      `field in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
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

  const idle = await healthzDuring(new Promise((r) => setTimeout(r, 5000)));
  const before = await rssMb(server.child.pid);
  let peak = before;
  const sampler = setInterval(async () => {
    peak = Math.max(peak, await rssMb(server.child.pid));
  }, 100);
  const started = Date.now();
  let bytes = 0;
  let lines = 0;
  let header = "";
  const exporting = (async () => {
    const res = await fetch(`${BASE}/resources/forms-export/${form.id}`, { headers: { cookie } });
    if (!res.ok) throw new Error(`export answered HTTP ${res.status}`);
    // Node's fetch body is an async iterable of chunks (the DOM typings do not say so).
    for await (const chunk of /** @type {AsyncIterable<Uint8Array>} */ (
      /** @type {unknown} */ (res.body)
    )) {
      if (lines === 0) header += Buffer.from(chunk).toString("utf8").split("\r\n")[0];
      bytes += chunk.length;
      // Rows end in CRLF; the other field's own line breaks are bare LF.
      for (const b of chunk) if (b === 13) lines += 1;
    }
  })();
  const during = await healthzDuring(exporting.catch(() => {}));
  await exporting;
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const columns = header.split('","').length;
  console.log(
    `CSV export of ${SUBMISSIONS.toLocaleString("en")} submissions x ${columns} columns: ` +
      `${seconds.toFixed(1)} s, ${(bytes / 1024 / 1024).toFixed(1)} MB, ${lines - 1} rows; ` +
      `server memory ${before} MB before, ${peak} MB at most during the export`,
  );
  console.log(
    `GET /healthz at 100 req/s: idle p50 ${idle.p50} ms, p99 ${idle.p99} ms, max ${idle.max} ms; ` +
      `during the export p50 ${during.p50} ms, p99 ${during.p99} ms, max ${during.max} ms ` +
      `(${during.n} requests)`,
  );
  if (lines - 1 !== SUBMISSIONS) throw new Error(`expected ${SUBMISSIONS} rows, got ${lines - 1}`);
}
/**
 * 3. Page views counted per second: beacons as a site's script sends them (text/plain JSON from
 * the site's origin), over 20 pages and two referrers; every answered view must be in the day
 * rows, and the rows are one per page.
 * @param {import("pg").Client} client
 * @param {Project} project
 */
async function pageViewsPerSecond(client, project) {
  const {
    rows: [{ analytics_key: key }],
  } = await client.query(`select analytics_key from projects where id = $1`, [project.id]);
  let sent = 0;
  /** @type {import("autocannon").Result} */
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

    if (!exportOnly) await submissionsPerSecond(client, project);
    await exportLargestForm(client, project, server);
    if (!exportOnly) await pageViewsPerSecond(client, project);
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
