// `npm run bench [-- --quick]`: seeds a PostgreSQL database of its own, starts the built server and
// measures the routes a large account uses. Prints the figures and appends them to
// docs/runs/bench.md (docs/performance.md holds the targets and the analysis). Not part of `npm
// test`; it sends traffic to 127.0.0.1 only and stops itself.
//
// The parts: the command line (options.mjs), the HTTP load and its rows (load.mjs), EXPLAIN
// ANALYZE (explain.mjs), first-load JavaScript (first-load.mjs), Lighthouse (lighthouse.mjs) and
// the printed and appended figures (report.mjs); this file is the run's course.
import pg from "pg";
import { buildIfStale } from "../build.mjs";
import { adminQuery } from "../pg-admin.mjs";
import { explainQueries } from "./explain.mjs";
import { firstLoadJs } from "./first-load.mjs";
import { lighthouseOf } from "./lighthouse.mjs";
import {
  FLOOR,
  FULL_DASHBOARD,
  UNCHANGED_REFRESH,
  cannon,
  dashboardViewers,
  measureRoutes,
  openTabs,
} from "./load.mjs";
import { BASE, PORT, PROJECTS, adminUrl, dbName, dbUrl, profileDir, quick } from "./options.mjs";
import { report } from "./report.mjs";
import { seed } from "./seed.mjs";
import {
  benchLogIn,
  browserCookies,
  spawnBenchServer,
  waitForHealth as waitFor,
} from "./server.mjs";

const admin = (/** @type {string} */ sql) => adminQuery(adminUrl, sql);
const waitForHealth = (/** @type {import("./server.mjs").BenchServer} */ server) =>
  waitFor(BASE, server);

function startServer() {
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  return spawnBenchServer({
    port: PORT,
    dbUrl,
    args: [...profile, "scripts/bench/serve.mjs"],
    env: {
      // One process, as the figures in docs/performance.md are read (`--cluster` for all cores).
      WEB_CONCURRENCY: process.argv.includes("--cluster") ? "" : "1",
    },
  });
}

/** @param {string} email a seeded account's */
const logIn = (email) => benchLogIn(BASE, email);

async function main() {
  if (!buildIfStale()) process.exit(1);
  await admin(`create database ${dbName}`);
  const server = startServer();
  let client;
  try {
    await waitForHealth(server); // migrations applied
    client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    console.log(`Seeding ${PROJECTS.toLocaleString("en")} projects...`);
    const data = await seed(client, { projects: PROJECTS });
    console.log(
      `Seeded in ${data.seconds.toFixed(1)} s: ${data.users} users, ${data.projects} projects, ` +
        `${data.memberships} memberships, ${data.events} events`,
    );
    const owner = await logIn("owner@bench.example");
    const member = await logIn("member@bench.example");
    const {
      rows: [deep],
    } = await client.query(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id
       from projects where owner_id = (select id from users where email = 'owner@bench.example')
       order by created_at desc, id desc offset $1 limit 1`,
      [quick ? 1_999 : 19_999],
    );
    const cursor = Buffer.from(JSON.stringify([deep.at, deep.id])).toString("base64url");
    const pages = quick ? 100 : 1000;

    // The dashboard's current data version, as its page holds it for the refresh.
    const etag =
      (
        await fetch(`${BASE}/sites/${data.bigProject}/version`, { headers: { cookie: owner } })
      ).headers.get("ETag") ?? "";
    /** @type {import("./load.mjs").Route[]} */
    const routes = [
      ["/healthz", "/healthz", owner],
      [FLOOR, "/bench-floor", owner],
      ["shell (/sites/user-settings)", "/sites/user-settings", owner],
      [
        "/sites/analytics/{id}?days=90 (500 pages a day)",
        `/sites/analytics/${data.bigProject}?days=90`,
        owner,
      ],
      ["/sites", "/sites", owner],
      // The list's 60-second refresh: its own loader only, as the browser asks for it.
      [
        "/sites refresh (its loader only)",
        `/sites.data?_routes=${encodeURIComponent("routes/_app.sites._index")}`,
        owner,
      ],
      [FULL_DASHBOARD, `/sites/${data.bigProject}`, owner],
      // The dashboard's 30-second refresh when nothing changed: the data version check, 304.
      [
        UNCHANGED_REFRESH,
        `/sites/${data.bigProject}/version`,
        owner,
        { headers: { "If-None-Match": etag }, status: 304 },
      ],
      // ... and when something did: the page's own loader only (the root and the shell skip a
      // same-address refresh), as the browser asks for it.
      [
        "/sites/{id} refresh, changed (its loader only)",
        `/sites/${data.bigProject}.data?_routes=${encodeURIComponent("routes/_app._project.sites.$studioId")}`,
        owner,
      ],
      ["GET /api/app?limit=20", "/api/app?limit=20", owner],
      [`GET /api/app page ${pages} (cursor)`, `/api/app?limit=20&cursor=${cursor}`, owner],
      ["GET /api/app search", "/api/app?limit=20&query=project%2099", owner],
      ["GET /api/app (member of 300)", "/api/app?limit=20", member],
    ];
    const { rows, windows } = await measureRoutes(server, routes);
    // The full dashboard at a fixed rate (its p99), watched by 100 people, open in 100 tabs.
    const fixed = await cannon(`${BASE}/sites/${data.bigProject}`, owner, { overallRate: 100 });
    const viewers = await dashboardViewers(server, data.bigProject, owner);
    const tabs = await openTabs(server, data.bigProject, owner, etag);
    const {
      rows: [ids],
    } = await client.query(
      `select (select id from users where email = 'owner@bench.example') as owner,
              (select id from users where email = 'member@bench.example') as member,
              (select id from projects where studio_id = $1) as big`,
      [data.bigProject],
    );
    const sql = await explainQueries(client, ids);
    const js = {
      "/sites": await firstLoadJs("/sites", owner),
      "/sites/{id}": await firstLoadJs(`/sites/${data.bigProject}`, owner),
    };

    // As a signed-in browser loads them (browserCookies: the session and the time zone).
    const lighthouseRuns = {
      "/sites": await lighthouseOf("/sites", browserCookies(owner)),
      "/sites/{id}": await lighthouseOf(`/sites/${data.bigProject}`, browserCookies(owner)),
    };

    report({
      data,
      rows,
      windows,
      fixed: fixed.latency.p99,
      js,
      pages,
      sql,
      viewers,
      tabs,
      lighthouseRuns,
    });
  } finally {
    await client?.end();
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    await admin(`drop database if exists ${dbName} with (force)`);
  }
}

await main();
