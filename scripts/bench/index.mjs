// `npm run bench [-- --quick]`: seeds a PostgreSQL database of its own, starts the built server and
// measures the routes a large account uses. Prints the figures and appends them to
// docs/runs/bench.md (docs/performance.md holds the targets and the analysis). Not part of `npm
// test`; it sends traffic to 127.0.0.1 only and stops itself.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import pg from "pg";
import { buildIfStale } from "../build.mjs";
import { appendRunLog, machineLine } from "../run-log.mjs";
import { seed } from "./seed.mjs";
import { adminQuery } from "../pg-admin.mjs";
import { benchLogIn, spawnBenchServer, waitForHealth as waitFor } from "./server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const quick = process.argv.includes("--quick");
/** The floor's label: the shell's loader and document with an empty page (scripts/bench/floor.mjs). */
const FLOOR = "floor (empty page in the shell)";
// `--no-append`: print only (CI runs `--quick --no-append` to keep the script working).
const noAppend = process.argv.includes("--no-append");
// `--only TEXT`: measure only the routes whose label contains TEXT (with /healthz for the ratio).
const only = (() => {
  const i = process.argv.indexOf("--only");
  return i === -1 ? undefined : process.argv[i + 1];
})();
// `--profile DIR`: the server writes a V8 CPU profile there when it stops (open it in Chrome's
// DevTools or speedscope); the figures of such a run are slower and are not appended.
const profileDir = (() => {
  const i = process.argv.indexOf("--profile");
  return i === -1 ? undefined : path.resolve(process.argv[i + 1] ?? "bench-profile");
})();
const PROJECTS = quick ? 10_000 : 100_000;
const DURATION = quick ? 3 : 10;
const PORT = Number(process.env.BENCH_PORT ?? 3400);
const BASE = `http://127.0.0.1:${PORT}`;
const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const dbName = `stackshift_bench_${Date.now()}`;
const dbUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
})();
const admin = (/** @type {string} */ sql) => adminQuery(adminUrl, sql);
const waitForHealth = (/** @type {BenchServer} */ server) => waitFor(BASE, server);

/**
 * @typedef {import("./server.mjs").BenchServer} BenchServer
 * One measured route's figures, as printed (console.table) and appended.
 * @typedef {{
 *   route: string;
 *   "req/s": number;
 *   "p50 ms": number;
 *   "p99 ms": number;
 *   "vs /healthz": string;
 *   errors: number;
 *   "queries/req": number;
 *   "server CPU ms/req": number;
 *   "over floor ms": number | "";
 *   "PG CPU ms/req": number;
 *   "load CPU ms/req": number;
 * }} Row
 * One Lighthouse run of a page.
 * @typedef {{
 *   score: number;
 *   lcp: number;
 *   fcp: number;
 *   tbt: number;
 *   bytes: number;
 *   scriptKb: number;
 *   opportunities: string[];
 * }} LighthouseRun
 * A page's Lighthouse figures: the runs' medians (with their range), or why there are none.
 * @typedef {{ skipped: string } | {
 *   runs: number;
 *   score: string;
 *   lcp: string;
 *   fcp: string;
 *   tbt: string;
 *   bytes: number;
 *   scriptKb: number;
 *   opportunities: string[];
 * }} LighthouseFigures
 */

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

/**
 * @param {string} url
 * @param {string} cookie
 * @param {Partial<import("autocannon").Options>} [options]
 * @returns {Promise<import("autocannon").Result>}
 */
function cannon(url, cookie, options = {}) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: 10, duration: DURATION, headers: { cookie }, ...options },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * First-load JavaScript of a page, gzip-compressed: the modules its inline script fetches once
 * the page has painted (the list it preloads, decision 036), or the preload links and scripts of
 * HTML rendered without that script.
 * @param {string} pathname
 * @param {string} cookie
 */
async function firstLoadJs(pathname, cookie) {
  const html = await (await fetch(`${BASE}${pathname}`, { headers: { cookie } })).text();
  const listed = html.match(/var links = (\[[^\]]*\])/);
  const files = new Set(
    listed
      ? /** @type {string[]} */ (JSON.parse(listed[1]))
      : [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
  );
  let bytes = 0;
  for (const file of files) {
    bytes += gzipSync(fs.readFileSync(path.join(root, "build/client", file))).length;
  }
  return { files: files.size, kb: Math.round(bytes / 1024) };
}

/**
 * Lighthouse with its mobile defaults (simulated slow 4G and 4x CPU slowdown) on a signed-in page:
 * performance score and LCP. Chromium from CHROMIUM_PATH (as the browser tests), else
 * /usr/bin/chromium; skipped with a note when neither is there.
 * @param {string} pathname
 * @param {string} cookie
 * @returns {Promise<LighthouseFigures>}
 */
async function lighthouseOf(pathname, cookie) {
  const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromePath)) return { skipped: `no Chromium at ${chromePath}` };
  /** @type {LighthouseRun[]} */
  const runs = [];
  for (let i = 0, retries = 0; i < LIGHTHOUSE_RUNS; i += 1) {
    try {
      const run = await runLighthouse(chromePath, pathname, cookie);
      // A run Lighthouse could not measure (NO_NAVSTART now and then on a busy machine) is run
      // again, twice at most in all; then the page is reported as not measured.
      if ("skipped" in run && retries < 2) {
        retries += 1;
        i -= 1;
        continue;
      }
      if ("skipped" in run) return run;
      runs.push(run);
    } catch (error) {
      // A browser that cannot start here is reported, not fatal: the other figures still count.
      return { skipped: `Lighthouse failed: ${error instanceof Error ? error.message : error}` };
    }
  }
  // Lighthouse varies from run to run: each figure is the median of the runs, with their range.
  const median = (/** @type {"score" | "lcp" | "fcp" | "tbt"} */ key) => {
    const values = runs.map((r) => r[key]).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)];
  };
  const range = (/** @type {"score" | "lcp" | "fcp" | "tbt"} */ key) => {
    const values = runs.map((r) => r[key]);
    return runs.length > 1 ? ` (${Math.min(...values)}-${Math.max(...values)})` : "";
  };
  const middle = runs.find((r) => r.score === median("score")) ?? runs[0];
  return {
    runs: runs.length,
    score: `${median("score")}${range("score")}`,
    lcp: `${median("lcp")}${range("lcp")}`,
    fcp: `${median("fcp")}${range("fcp")}`,
    tbt: `${median("tbt")}${range("tbt")}`,
    bytes: middle.bytes,
    scriptKb: middle.scriptKb,
    opportunities: middle.opportunities,
  };
}

/** Lighthouse runs per page (`--lighthouse-runs N`); the figures are their medians. */
const LIGHTHOUSE_RUNS = (() => {
  const i = process.argv.indexOf("--lighthouse-runs");
  return i === -1 ? 3 : Math.max(1, Number(process.argv[i + 1]) || 1);
})();

/**
 * The script bytes of Lighthouse's resource summary.
 * @param {unknown} details
 */
function scriptBytes(details) {
  const items = /** @type {{ items?: { resourceType: string; transferSize: number }[] }} */ (
    details ?? {}
  ).items;
  return items?.find((item) => item.resourceType === "script")?.transferSize ?? 0;
}

/**
 * @param {string} chromePath
 * @param {string} pathname
 * @param {string} cookie
 * @returns {Promise<LighthouseRun | { skipped: string }>}
 */
async function runLighthouse(chromePath, pathname, cookie) {
  const { default: lighthouse } = await import("lighthouse");
  const { launch } = await import("chrome-launcher");
  const chrome = await launch({
    chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const run = await lighthouse(`${BASE}${pathname}`, {
      port: chrome.port,
      onlyCategories: ["performance"],
      extraHeaders: { Cookie: cookie },
      logLevel: "error",
    });
    if (!run) throw new Error(`Lighthouse gave no result for ${pathname}`);
    const { lhr } = run;
    // A run Lighthouse could not measure (no paint seen, a page error) says so, not "score 0".
    if (lhr.runtimeError?.code) {
      return { skipped: `Lighthouse could not measure: ${lhr.runtimeError.code}` };
    }
    const audit = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? NaN;
    // An opportunity's details carry its estimated savings; other audits' details do not.
    const savings = (/** @type {(typeof lhr.audits)[string]} */ a) =>
      /** @type {{ overallSavingsMs?: number } | undefined} */ (a.details)?.overallSavingsMs ?? 0;
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcp: Math.round(audit("largest-contentful-paint")),
      fcp: Math.round(audit("first-contentful-paint")),
      tbt: Math.round(audit("total-blocking-time")),
      bytes: Math.round(audit("total-byte-weight") / 1024),
      // Every script the page loaded while Lighthouse watched, the parts fetched during
      // hydration included (first-load JS counts only what the HTML names).
      scriptKb: Math.round(scriptBytes(lhr.audits["resource-summary"]?.details) / 1024),
      // What Lighthouse says would shorten the load most (its estimated savings).
      opportunities: Object.values(lhr.audits)
        .filter((a) => savings(a) >= 50)
        .sort((a, b) => savings(b) - savings(a))
        .slice(0, 3)
        .map((a) => `${a.id} ${Math.round(savings(a))} ms`),
    };
  } finally {
    await chrome.kill();
  }
}

/**
 * EXPLAIN ANALYZE of the queries behind the measured pages, written as the services build them
 * (app/services/projects.server.ts listProjects and its viewableRows,
 * members.server.ts listMembers, activity-log.server.ts listActivity). Each runs three times;
 * the last run's execution time is kept (warm cache, as a page sees it).
 * @param {import("pg").Client} client
 * @param {{ owner: string; member: string; big: string }} ids the seeded owner, member, project
 * @returns {Promise<Record<string, { ms: number; plan: string }>>}
 */
async function explainQueries(client, ids) {
  // The union listProjects runs: owned rows and accepted memberships, each cut, then merged.
  const list = (/** @type {string} */ user, extra = "") => `select * from (
    (select p.id, p.name, p.created_at from projects p
      where p.owner_id >= '${user}' and p.owner_id <= '${user}' ${extra}
      order by p.owner_id desc, p.created_at desc, p.id desc limit 21)
    union all
    (select p.id, p.name, p.created_at from projects p join members m on m.project_id = p.id
      and m.user_id >= '${user}' and m.user_id <= '${user}' and m.status = 'accepted'
      where p.owner_id <> '${user}' ${extra}
      order by m.user_id desc, p.created_at desc, p.id desc limit 21)) v
    order by created_at desc, id desc limit 21`;
  const queries = {
    "list page 1 (owner of many)": list(ids.owner),
    "list page 1 (member of 300)": list(ids.member),
    "search 'project 99' (owner of many)": list(ids.owner, `and lower(p.name) like '%project 99%'`),
    "search 'zz' (no match, 2 letters)": list(ids.owner, `and lower(p.name) like '%zz%'`),
    "all projects search 'project 99' (platform admin)": `select p.id from projects p
      where lower(p.name) like '%project 99%' order by p.created_at desc, p.id desc limit 21`,
    "dashboard members (50)": `select * from members m left join users u on u.id = m.user_id
      where m.project_id = '${ids.big}' order by m.created_at, m.id`,
    "dashboard activity (3 latest of 5,000)": `select * from event_logs
      where project_id = '${ids.big}' and type not in ('sites.create')
      order by timestamp desc, key desc limit 3`,
    "dashboard activity count": `select count(*) from event_logs
      where project_id = '${ids.big}' and type not in ('sites.create')`,
  };
  /** @type {Record<string, { ms: number; plan: string }>} */
  const out = {};
  for (const [label, sql] of Object.entries(queries)) {
    /** @type {string[]} */
    let plan = [];
    for (let i = 0; i < 3; i += 1) {
      plan = (await client.query(`explain (analyze, format text) ${sql}`)).rows.map(
        (/** @type {{ "QUERY PLAN": string }} */ r) => r["QUERY PLAN"],
      );
    }
    const time = plan.find((l) => l.startsWith("Execution Time"))?.match(/[\d.]+/)?.[0];
    // The scans of the plan, in order (a union has one per part).
    const scans = plan.filter((l) => /Index|Seq Scan|Bitmap Heap/.test(l)).map((l) => l.trim());
    const top = scans.length ? scans.slice(0, 3).join("; ") : plan[0].trim();
    out[label] = { ms: Number(time), plan: top.replace(/\s+\(cost=[^;]*/g, "") };
  }
  return out;
}

/**
 * CPU seconds used so far by the server process and by PostgreSQL's processes (Linux /proc; 0
 * elsewhere), so each route's figures say where its time went: our code, the database, or the
 * load generator sharing the machine.
 * @param {number | undefined} serverPid
 */
function cpuSeconds(serverPid) {
  const ticks = (/** @type {number | string | undefined} */ pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return {
        comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
        t: +fields[11] + +fields[12],
      };
    } catch {
      return { comm: "", t: 0 };
    }
  };
  let postgres = 0;
  if (fs.existsSync("/proc/self/stat")) {
    for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      const { comm, t } = ticks(pid);
      if (comm === "postgres") postgres += t;
    }
  }
  const own = process.cpuUsage();
  return {
    server: ticks(serverPid).t / 100,
    postgres: postgres / 100,
    bench: (own.user + own.system) / 1e6,
  };
}

/**
 * The server's counters: provider reads and queries (printed on SIGUSR2, app/entry.server.tsx).
 * @param {BenchServer} server
 */
async function stats(server) {
  server.child.kill("SIGUSR2");
  await new Promise((r) => setTimeout(r, 300));
  const last = [...server.log().matchAll(/\[stats\] provider reads: (\d+); queries: (\d+)/g)].at(
    -1,
  );
  return { reads: Number(last?.[1] ?? NaN), queries: Number(last?.[2] ?? NaN) };
}

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
    /** @type {[string, string, string, { headers?: Record<string, string>; status?: number }?][]} */
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
      ["/sites/{id} (50 members)", `/sites/${data.bigProject}`, owner],
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
        `/sites/${data.bigProject}.data?_routes=${encodeURIComponent("routes/_app.sites.$studioId")}`,
        owner,
      ],
      ["GET /api/app?limit=20", "/api/app?limit=20", owner],
      [`GET /api/app page ${pages} (cursor)`, `/api/app?limit=20&cursor=${cursor}`, owner],
      ["GET /api/app search", "/api/app?limit=20&query=project%2099", owner],
      ["GET /api/app (member of 300)", "/api/app?limit=20", member],
    ];
    /** @type {Row[]} */
    const rows = [];
    /** @type {{ label: string; from: number; to: number }[]} */
    const windows = [];
    let health = 0;
    let floor = NaN;
    const measured = only
      ? routes.filter(([label]) => label === "/healthz" || label === FLOOR || label.includes(only))
      : routes;
    for (const [label, pathname, cookie, { headers = {}, status = 200 } = {}] of measured) {
      const check = await fetch(`${BASE}${pathname}`, {
        headers: { cookie, ...headers },
        redirect: "manual",
      });
      if (check.status !== status) throw new Error(`${pathname} answered ${check.status}`);
      const before = await stats(server);
      const cpuBefore = cpuSeconds(server.child.pid);
      const from = process.hrtime.bigint();
      const result = await cannon(`${BASE}${pathname}`, cookie, {
        headers: { cookie, ...headers },
      });
      // The row's time span, to slice a CPU profile by route (profile-breakdown.mjs).
      windows.push({
        label,
        from: Number(from / 1000n),
        to: Number(process.hrtime.bigint() / 1000n),
      });
      const cpuAfter = cpuSeconds(server.child.pid);
      const queries = (await stats(server)).queries - before.queries;
      // CPU milliseconds per request: the server's, PostgreSQL's and autocannon's.
      const perRequest = (/** @type {"server" | "postgres" | "bench"} */ key) =>
        Number(
          (((cpuAfter[key] - cpuBefore[key]) * 1000) / Math.max(1, result.requests.total)).toFixed(
            2,
          ),
        );
      const rps = result.requests.average;
      if (label === "/healthz") health = rps;
      if (label === FLOOR) floor = perRequest("server");
      rows.push({
        route: label,
        "req/s": Math.round(rps),
        "p50 ms": result.latency.p50,
        "p99 ms": result.latency.p99,
        "vs /healthz": health ? `${((rps / health) * 100).toFixed(0)}%` : "",
        errors: result.errors + unexpectedAnswers(result, status),
        "queries/req": Number((queries / Math.max(1, result.requests.total)).toFixed(1)),
        "server CPU ms/req": perRequest("server"),
        // What the page costs beyond an empty page in the same shell (pages only).
        // What a page costs beyond the floor (pages only: not the API, a refresh or the floor).
        "over floor ms":
          pathname.startsWith("/api") ||
          pathname.includes(".data") ||
          label === UNCHANGED_REFRESH ||
          label === "/healthz" ||
          label === FLOOR
            ? ""
            : Number((perRequest("server") - floor).toFixed(2)),
        "PG CPU ms/req": perRequest("postgres"),
        "load CPU ms/req": perRequest("bench"),
      });
    }
    const fixed = await cannon(`${BASE}/sites/${data.bigProject}`, owner, { overallRate: 100 });
    // 100 people watching one dashboard, each refreshing every 30 s: provider reads per view.
    const readsBefore = (await stats(server)).reads;
    const watched = await cannon(`${BASE}/sites/${data.bigProject}`, owner, {
      connections: 100,
      overallRate: 100 / 30,
      duration: DURATION * 3,
    });
    const readsPerView = (await stats(server)).reads - readsBefore;
    const viewers = {
      views: watched.requests.total,
      reads: readsPerView,
      perView: Number((readsPerView / Math.max(1, watched.requests.total)).toFixed(3)),
    };
    // 100 open tabs of the unchanged dashboard, each refreshing three times at once.
    const tabsCpu = cpuSeconds(server.child.pid).server;
    const tabsQueries = (await stats(server)).queries;
    const tabbed = await cannon(`${BASE}/sites/${data.bigProject}/version`, owner, {
      connections: 100,
      amount: 300,
      headers: { cookie: owner, "If-None-Match": etag },
    });
    const tabs = {
      checks: tabbed.requests.total,
      notModified: tabbed.statusCodeStats?.["304"]?.count ?? 0,
      cpuMs: Number(
        (
          ((cpuSeconds(server.child.pid).server - tabsCpu) * 1000) /
          Math.max(1, tabbed.requests.total)
        ).toFixed(2),
      ),
      queries: Number(
        (
          ((await stats(server)).queries - tabsQueries) /
          Math.max(1, tabbed.requests.total)
        ).toFixed(1),
      ),
    };
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

    const lighthouseRuns = {
      "/sites": await lighthouseOf("/sites", owner),
      "/sites/{id}": await lighthouseOf(`/sites/${data.bigProject}`, owner),
    };

    console.table(rows);
    console.table(
      Object.fromEntries(
        Object.entries(sql).map(([k, v]) => [k, { "SQL ms": v.ms, plan: v.plan }]),
      ),
    );
    const refresh = refreshShare(rows);
    if (refresh) console.log(refresh);
    console.log(tabsLine(tabs, rows));
    console.log(`/sites/{id} at a fixed 100 req/s: p99 ${fixed.latency.p99} ms`);
    console.log(
      `100 viewers of one dashboard: ${viewers.views} views, ${viewers.reads} provider reads (${viewers.perView} per view)`,
    );
    for (const [route, size] of Object.entries(js)) {
      console.log(`first-load JS ${route}: ${size.kb} KB gzip in ${size.files} files`);
    }
    const lighthouseLines = Object.entries(lighthouseRuns).map(([route, r]) =>
      "skipped" in r
        ? `Lighthouse ${route}: skipped (${r.skipped})`
        : `Lighthouse ${route} (mobile defaults, median of ${r.runs}): performance ${r.score}, LCP ${r.lcp} ms, FCP ${r.fcp} ms, TBT ${r.tbt} ms, ${r.bytes} KB transferred (scripts ${r.scriptKb} KB); opportunities: ${(r.opportunities ?? []).join(", ") || "none over 50 ms"}`,
    );
    for (const line of lighthouseLines) console.log(line);
    if (profileDir) {
      fs.mkdirSync(profileDir, { recursive: true });
      fs.writeFileSync(path.join(profileDir, "windows.json"), JSON.stringify(windows));
      console.log(
        `CPU profile in ${profileDir} (this run is not appended); where each row's time went: ` +
          `node scripts/bench/profile-breakdown.mjs ${profileDir}`,
      );
    } else if (only) console.log("Routes left out (--only): this run is not appended");
    else if (noAppend) console.log("--no-append: this run is not appended");
    else
      appendReport({
        data,
        rows,
        fixed: fixed.latency.p99,
        js,
        pages,
        sql,
        viewers,
        tabs,
        lighthouseLines,
      });
  } finally {
    await client?.end();
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    await admin(`drop database if exists ${dbName} with (force)`);
  }
}

const FULL_DASHBOARD = "/sites/{id} (50 members)";
const UNCHANGED_REFRESH = "/sites/{id} refresh, unchanged (version check, 304)";

/**
 * Answers other than the one a row expects (autocannon counts a 304 as not 2xx).
 * @param {import("autocannon").Result} result
 * @param {number} status
 */
function unexpectedAnswers(result, status) {
  return Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => Number(code) !== status)
    .reduce((sum, [, stat]) => sum + stat.count, 0);
}

/**
 * The dashboard's refreshes against its full render, in server CPU (the budget is a tenth).
 * @param {Row[]} rows
 */
function refreshShare(rows) {
  const full = rows.find((r) => r.route === FULL_DASHBOARD);
  const unchanged = rows.find((r) => r.route === UNCHANGED_REFRESH);
  const changed = rows.find((r) => r.route.startsWith("/sites/{id} refresh, changed"));
  if (!full || !unchanged || !changed) return null;
  const share = (/** @type {Row} */ row) =>
    `${row["server CPU ms/req"]} ms, ${((row["server CPU ms/req"] / full["server CPU ms/req"]) * 100).toFixed(0)}%`;
  return `dashboard refresh (server CPU, share of a full render; budget 10% unchanged): unchanged ${share(unchanged)}; changed ${share(changed)}`;
}

/**
 * @typedef {{ checks: number; notModified: number; cpuMs: number; queries: number }} Tabs
 * @typedef {{ views: number; reads: number; perView: number }} Viewers
 */

/**
 * The 100-tab run of the unchanged refresh.
 * @param {Tabs} tabs
 * @param {Row[]} rows
 */
function tabsLine(tabs, rows) {
  const full = rows.find((r) => r.route === FULL_DASHBOARD);
  const share = full
    ? ` (${((tabs.cpuMs / full["server CPU ms/req"]) * 100).toFixed(0)}% of a full render)`
    : "";
  return `100 open tabs of an unchanged dashboard: ${tabs.checks} refreshes, ${tabs.notModified} answered 304, ${tabs.cpuMs} ms of server CPU and ${tabs.queries} queries each${share}`;
}

/**
 * Appends the run to docs/runs/bench.md.
 * @param {{
 *   data: Awaited<ReturnType<typeof seed>>;
 *   rows: Row[];
 *   fixed: number;
 *   js: Record<string, { files: number; kb: number }>;
 *   pages: number;
 *   sql: Record<string, { ms: number; plan: string }>;
 *   viewers: Viewers;
 *   tabs: Tabs;
 *   lighthouseLines: string[];
 * }} report
 */
function appendReport({ data, rows, fixed, js, pages, sql, viewers, tabs, lighthouseLines }) {
  const header =
    "| route | req/s | p50 ms | p99 ms | vs /healthz | errors | queries/req | CPU ms/req: server, PostgreSQL, autocannon | server CPU over the floor |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |";
  const table = rows
    .map(
      (r) =>
        `| ${r.route} | ${r["req/s"]} | ${r["p50 ms"]} | ${r["p99 ms"]} | ${r["vs /healthz"]} | ${r.errors} | ${r["queries/req"]} | ${r["server CPU ms/req"]}, ${r["PG CPU ms/req"]}, ${r["load CPU ms/req"]} | ${r["over floor ms"]} |`,
    )
    .join("\n");
  const machine = machineLine({
    packages: ["@remix-run/node", "react", "drizzle-orm", "pg", "autocannon", "lighthouse"],
    databaseUrl: adminUrl,
  });
  const written = appendRunLog("bench", {
    heading: "Benchmark runs (`npm run bench`)",
    title: `${quick ? "quick" : "full"} run`,
    lines: [
      `Machine: ${machine}; one server process. Data: ${data.projects} projects, ${data.memberships} memberships, ${data.events} events (seeded in ${data.seconds.toFixed(1)} s). autocannon, 10 connections, ${DURATION} s per route; page ${pages} is reached by its cursor.`,
      "",
      header,
      table,
      "",
      ...(refreshShare(rows) ? [`- ${refreshShare(rows)}`] : []),
      `- ${tabsLine(tabs, rows)}`,
      `- /sites/{id} at a fixed 100 req/s: p99 ${fixed} ms`,
      `- 100 viewers of one dashboard (one view each per 30 s): ${viewers.views} views, ${viewers.reads} provider reads, ${viewers.perView} per view`,
      ...Object.entries(sql).map(([label, v]) => `- SQL ${label}: ${v.ms} ms (${v.plan})`),
      ...Object.entries(js).map(
        ([route, s]) => `- first-load JS ${route}: ${s.kb} KB gzip in ${s.files} files`,
      ),
      ...lighthouseLines.map((line) => `- ${line}`),
    ],
  });
  console.log(`Appended to ${written}`);
}

await main();
