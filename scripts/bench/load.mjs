// The HTTP load of `npm run bench` (./index.mjs): autocannon against one route at a time, with
// the server's counters (queries, provider reads: SIGUSR2) and the CPU time of the server,
// PostgreSQL and the load generator around each, as the rows of the figures' table; and the
// dashboard's viewers and open tabs, whose refreshes are what a busy dashboard costs.
import fs from "node:fs";
import autocannon from "autocannon";
import { BASE, DURATION, only } from "./options.mjs";

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
 * A route to measure: its label, path, cookie, and the headers and status it is asked with.
 * @typedef {[string, string, string, { headers?: Record<string, string>; status?: number }?]} Route
 * @typedef {{ checks: number; notModified: number; cpuMs: number; queries: number }} Tabs
 * @typedef {{ views: number; reads: number; perView: number }} Viewers
 */

/** The floor's label: the shell's loader and document with an empty page (scripts/bench/floor.mjs). */
export const FLOOR = "floor (empty page in the shell)";
export const FULL_DASHBOARD = "/sites/{id} (50 members)";
export const UNCHANGED_REFRESH = "/sites/{id} refresh, unchanged (version check, 304)";

/**
 * autocannon on `url` with a session: 10 connections for DURATION seconds unless `options` say
 * otherwise.
 * @param {string} url
 * @param {string} cookie
 * @param {Partial<import("autocannon").Options>} [options]
 * @returns {Promise<import("autocannon").Result>}
 */
export function cannon(url, cookie, options = {}) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: 10, duration: DURATION, headers: { cookie }, ...options },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
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
export async function stats(server) {
  server.child.kill("SIGUSR2");
  await new Promise((r) => setTimeout(r, 300));
  const last = [...server.log().matchAll(/\[stats\] provider reads: (\d+); queries: (\d+)/g)].at(
    -1,
  );
  return { reads: Number(last?.[1] ?? NaN), queries: Number(last?.[2] ?? NaN) };
}

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
 * Loads each route in turn (with --only, those whose label holds its text, and /healthz and the
 * floor that the others are compared with): one row of figures each, and the time span of each
 * row, to slice a CPU profile by route (profile-breakdown.mjs).
 * @param {BenchServer} server
 * @param {Route[]} routes
 */
export async function measureRoutes(server, routes) {
  /** @type {Row[]} */
  const rows = [];
  /** @type {{ label: string; from: number; to: number }[]} */
  const windows = [];
  let health = 0;
  let floor = NaN;
  const wanted = only;
  const measured = wanted
    ? routes.filter(([label]) => label === "/healthz" || label === FLOOR || label.includes(wanted))
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
        (((cpuAfter[key] - cpuBefore[key]) * 1000) / Math.max(1, result.requests.total)).toFixed(2),
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
  return { rows, windows };
}

/**
 * 100 people watching one dashboard, each refreshing every 30 s: provider reads per view.
 * @param {BenchServer} server
 * @param {string} studioId the dashboard's project
 * @param {string} owner the owner's session cookie
 * @returns {Promise<Viewers>}
 */
export async function dashboardViewers(server, studioId, owner) {
  const readsBefore = (await stats(server)).reads;
  const watched = await cannon(`${BASE}/sites/${studioId}`, owner, {
    connections: 100,
    overallRate: 100 / 30,
    duration: DURATION * 3,
  });
  const readsPerView = (await stats(server)).reads - readsBefore;
  return {
    views: watched.requests.total,
    reads: readsPerView,
    perView: Number((readsPerView / Math.max(1, watched.requests.total)).toFixed(3)),
  };
}

/**
 * 100 open tabs of the unchanged dashboard, each refreshing three times at once.
 * @param {BenchServer} server
 * @param {string} studioId the dashboard's project
 * @param {string} owner the owner's session cookie
 * @param {string} etag the dashboard's current data version
 * @returns {Promise<Tabs>}
 */
export async function openTabs(server, studioId, owner, etag) {
  const tabsCpu = cpuSeconds(server.child.pid).server;
  const tabsQueries = (await stats(server)).queries;
  const tabbed = await cannon(`${BASE}/sites/${studioId}/version`, owner, {
    connections: 100,
    amount: 300,
    headers: { cookie: owner, "If-None-Match": etag },
  });
  return {
    checks: tabbed.requests.total,
    notModified: tabbed.statusCodeStats?.["304"]?.count ?? 0,
    cpuMs: Number(
      (
        ((cpuSeconds(server.child.pid).server - tabsCpu) * 1000) /
        Math.max(1, tabbed.requests.total)
      ).toFixed(2),
    ),
    queries: Number(
      (((await stats(server)).queries - tabsQueries) / Math.max(1, tabbed.requests.total)).toFixed(
        1,
      ),
    ),
  };
}
