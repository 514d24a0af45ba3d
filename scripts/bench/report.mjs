// The figures of `npm run bench` (./index.mjs): the tables and lines it prints (CI reads the
// output of `--quick --no-append`), and the same figures appended to docs/runs/bench.md unless
// the run was partial (--only), profiled (--profile) or asked not to (--no-append).
import fs from "node:fs";
import path from "node:path";
import { appendRunLog, machineLine } from "../run-log.mjs";
import { FULL_DASHBOARD, UNCHANGED_REFRESH } from "./load.mjs";
import { DURATION, adminUrl, noAppend, only, profileDir, quick } from "./options.mjs";

/**
 * @typedef {import("./load.mjs").Row} Row
 * @typedef {import("./load.mjs").Tabs} Tabs
 * @typedef {import("./load.mjs").Viewers} Viewers
 * What a run measured.
 * @typedef {{
 *   data: Awaited<ReturnType<typeof import("./seed.mjs").seed>>;
 *   rows: Row[];
 *   windows: { label: string; from: number; to: number }[];
 *   fixed: number;
 *   js: Record<string, { files: number; kb: number }>;
 *   pages: number;
 *   sql: Record<string, { ms: number; plan: string }>;
 *   viewers: Viewers;
 *   tabs: Tabs;
 *   lighthouseRuns: Record<string, import("./lighthouse.mjs").LighthouseFigures>;
 * }} Figures
 */

/**
 * Prints the figures, then appends them (or says why not).
 * @param {Figures} figures
 */
export function report({
  data,
  rows,
  windows,
  fixed,
  js,
  pages,
  sql,
  viewers,
  tabs,
  lighthouseRuns,
}) {
  console.table(rows);
  console.table(
    Object.fromEntries(Object.entries(sql).map(([k, v]) => [k, { "SQL ms": v.ms, plan: v.plan }])),
  );
  const refresh = refreshShare(rows);
  if (refresh) console.log(refresh);
  console.log(tabsLine(tabs, rows));
  console.log(`/sites/{id} at a fixed 100 req/s: p99 ${fixed} ms`);
  console.log(
    `100 viewers of one dashboard: ${viewers.views} views, ${viewers.reads} provider reads (${viewers.perView} per view)`,
  );
  for (const [route, size] of Object.entries(js)) {
    console.log(`first-load JS ${route}: ${size.kb} KB gzip in ${size.files} files`);
  }
  const lighthouseLines = Object.entries(lighthouseRuns).map(([route, r]) =>
    "skipped" in r
      ? `Lighthouse ${route}: skipped (${r.skipped})`
      : `Lighthouse ${route} (mobile defaults, median of ${r.runs}): performance ${r.score}, best practices ${r.bestPractices}, LCP ${r.lcp} ms, FCP ${r.fcp} ms, TBT ${r.tbt} ms, ${r.bytes} KB transferred (scripts ${r.scriptKb} KB); after hydration: ${r.afterHydration}; host benchmark index ${r.benchmarkIndex}; opportunities: ${(r.opportunities ?? []).join(", ") || "none over 50 ms"}`,
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
      fixed,
      js,
      pages,
      sql,
      viewers,
      tabs,
      lighthouseLines,
    });
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
 * @param {Omit<Figures, "windows" | "lighthouseRuns"> & { lighthouseLines: string[] }} report
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
