// `node scripts/bench/lighthouse-ab.mjs --builds A=.tmp/ab/a,B=.tmp/ab/b [--runs 3] [--page dashboard|sites] [--first-visit] [--cpu-slowdown 4]`:
// Lighthouse (mobile defaults) on the seeded dashboard for two or more saved builds, alternating
// them run by run so a shared machine's load falls on each alike. Each saved build is a copy of
// `build/` (`cp -r build .tmp/ab/a`) inside the repository (its server bundle resolves
// node_modules from there); `build` is pointed at each in turn and restored after. Prints each
// run and the medians with their ranges: score, LCP, TBT, the main thread's work by category and
// script, and the long tasks. One browser at a time; 127.0.0.1 only; the database is dropped after.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { adminQuery } from "../pg-admin.mjs";
import { tasksAfterHydration } from "./hydration-tasks.mjs";
import { seed } from "./seed.mjs";
import { benchLogIn, browserCookies, spawnBenchServer, waitForHealth } from "./server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const arg = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const builds = arg("builds", "")
  .split(",")
  .filter(Boolean)
  .map((/** @type {string} */ pair) => {
    const [name, dir] = pair.split("=");
    return { name, dir: path.resolve(root, dir) };
  });
if (builds.length === 0) throw new Error("--builds NAME=DIR[,NAME=DIR...] is required");
const RUNS = Number(arg("runs", "3"));
const PAGE = arg("page", "dashboard");
const OUT = arg("out", "");
// `--tool profile`: instead of Lighthouse, a V8 CPU profile of the load in Playwright's Chromium
// with the CPU slowed 4x (no network throttling), summed by function: where the time goes.
const TOOL = arg("tool", "lighthouse");
// `--cpu-slowdown N`: Lighthouse's simulation multiplies the tasks it observed by N instead of 4,
// as if this host were N/4 times slower (how the page would score on a busier day).
const CPU_SLOWDOWN = Number(arg("cpu-slowdown", "4"));
const PORT = Number(process.env.BENCH_PORT ?? 3470);
const BASE = `http://127.0.0.1:${PORT}`;
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbName = `stackshift_lhab_${Date.now()}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const buildLink = path.join(root, "build");

function startServer() {
  // The server module itself: `build` is a link to the saved build under test, which the start
  // script's staleness check would rebuild.
  return spawnBenchServer({
    port: PORT,
    dbUrl,
    args: ["-e", "import('./server/index.mjs').then((m) => m.startServer())"],
    env: { LOG_LEVEL: "warn" },
  });
}

/** @param {import("./server.mjs").BenchServer} server */
async function stop(server) {
  if (server.child.exitCode !== null) return;
  server.child.kill("SIGTERM");
  await new Promise((r) => server.child.once("exit", r));
}

/**
 * A node of a V8 CPU profile (the DevTools protocol's Profiler.ProfileNode, the part read here).
 * @typedef {{
 *   id: number;
 *   callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
 *   children?: number[];
 * }} ProfileNode
 */

/** @param {string} email a seeded account's */
const logIn = (email) => benchLogIn(BASE, email);

/**
 * @param {string} url
 * @param {string} cookie
 */
async function lighthouseRun(url, cookie) {
  const { default: lighthouse } = await import("lighthouse");
  const { defaultSettings } = await import("lighthouse/core/config/constants.js");
  const { launch } = await import("chrome-launcher");
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const run = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ["performance"],
      extraHeaders: { Cookie: cookie },
      logLevel: "error",
      throttling: { ...defaultSettings.throttling, cpuSlowdownMultiplier: CPU_SLOWDOWN },
    });
    if (!run) throw new Error("no result");
    const { lhr } = run;
    if (lhr.runtimeError?.code) throw new Error(lhr.runtimeError.code);
    const value = (/** @type {string} */ id) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
    /** @param {string} id @returns {any[]} the audit's table rows */
    const items = (id) =>
      /** @type {{ items?: any[] } | undefined} */ (lhr.audits[id]?.details)?.items ?? [];
    const consoleErrors = items("errors-in-console").map((i) => String(i.description ?? ""));
    return {
      lhr,
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcp: value("largest-contentful-paint"),
      fcp: value("first-contentful-paint"),
      tbt: value("total-blocking-time"),
      tti: value("interactive"),
      mainThread: value("mainthread-work-breakdown"),
      bootup: value("bootup-time"),
      categories: Object.fromEntries(
        items("mainthread-work-breakdown").map((i) => [i.groupLabel, Math.round(i.duration)]),
      ),
      scripts: Object.fromEntries(
        items("bootup-time").map((i) => [
          String(i.url).replace(BASE, ""),
          `${Math.round(i.total)} (eval ${Math.round(i.scripting)}, parse ${Math.round(i.scriptParseCompile)})`,
        ]),
      ),
      trace: run.artifacts.Trace,
      afterHydration: tasksAfterHydration(
        run.artifacts.Trace,
        lhr.configSettings.throttling?.cpuSlowdownMultiplier ?? 1,
      ),
      longTasks: items("long-tasks").map(
        (t) => `${Math.round(t.startTime)}+${Math.round(t.duration)}`,
      ),
      scriptKb: Math.round(
        (items("resource-summary").find((i) => i.resourceType === "script")?.transferSize ?? 0) /
          1024,
      ),
      consoleErrors,
      // Which element Lighthouse took for the largest paint, and where its time went.
      lcpElement: lcpElement(lhr),
    };
  } finally {
    await chrome.kill();
  }
}

/** @param {any} lhr the largest paint's element (its selector and start of its markup) and phases */
function lcpElement(lhr) {
  const lists = lhr.audits["largest-contentful-paint-element"]?.details?.items ?? [];
  const node = lists[0]?.items?.[0]?.node;
  const phases = (lists[1]?.items ?? [])
    .map((/** @type {any} */ p) => `${p.phase} ${Math.round(p.timing)}`)
    .join(", ");
  return node ? `${node.selector} ${String(node.snippet).slice(0, 80)} (${phases})` : "unknown";
}

/**
 * @param {string} url
 * @param {string} cookie
 */
async function profileRun(url, cookie) {
  const { chromium } = await import("playwright");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  });
  try {
    const context = await browser.newContext({ extraHTTPHeaders: { Cookie: cookie } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    // The tasks themselves (which ones are long, and their parts) come from a trace.
    await browser.startTracing(page, {
      categories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "v8.execute",
        "blink.user_timing",
      ],
    });
    /** @type {string[]} */
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(3000);
    const { profile } = await cdp.send("Profiler.stop");
    const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
    // Self time by function and by script, from the samples' time deltas.
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    // Samples and children name nodes of the same profile: each is there.
    const nodeOf = (/** @type {number} */ id) => /** @type {ProfileNode} */ (byId.get(id));
    /** Self time (ms) by profile node. @type {Map<ProfileNode, number>} */
    const self = new Map();
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i += 1) {
      const node = nodeOf(samples[i]);
      self.set(node, (self.get(node) ?? 0) + (deltas[i] ?? 0) / 1000);
    }
    /** @type {Map<string, number>} */
    const byFunction = new Map();
    /** @type {Map<string, number>} */
    const byScript = new Map();
    for (const [node, ms] of self) {
      const f = node.callFrame;
      const script = f.url.replace(BASE, "") || `(${f.functionName || "program"})`;
      const key = `${f.functionName || "(anon)"} ${script}:${f.lineNumber}:${f.columnNumber}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
      byScript.set(script, (byScript.get(script) ?? 0) + ms);
    }
    const top = (/** @type {Map<string, number>} */ m, /** @type {number} */ n) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `${Math.round(v)} ${k}`);
    // Inclusive time under the top-level tasks: components whose subtree costs most.
    /** @type {Map<string, number>} */
    const inclusive = new Map();
    /** @type {(node: ProfileNode) => number} */
    const total = (node) => {
      let t = self.get(node) ?? 0;
      for (const c of node.children ?? []) t += total(nodeOf(c));
      const f = node.callFrame;
      if (/^[A-Z]/.test(f.functionName) && f.url.includes("/assets/")) {
        inclusive.set(f.functionName, (inclusive.get(f.functionName) ?? 0) + t);
      }
      return t;
    };
    total(nodeOf(profile.nodes[0].id));
    return {
      lhr: profile,
      trace,
      byScript: top(byScript, 12),
      byFunction: top(byFunction, 40),
      components: top(inclusive, 40),
      errors,
    };
  } finally {
    await browser.close();
  }
}

/**
 * `--tool paint`: an unthrottled load (as Lighthouse's observed run): the first paint, and how many
 * scripts had finished loading before it. Lighthouse's simulated FCP and LCP count the scripts
 * that finished before the observed first paint as possibly render-blocking, so a later paint (or
 * earlier scripts) costs seconds on its simulated slow 4G.
 */
/**
 * @param {string} url
 * @param {string} cookie
 */
async function paintRun(url, cookie) {
  const { chromium } = await import("playwright");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  });
  try {
    const context = await browser.newContext({
      extraHTTPHeaders: { Cookie: cookie },
      viewport: { width: 412, height: 823 },
    });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(500);
    // Every largest-paint candidate the browser recorded: when, and which element.
    const largest = await page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) =>
            resolve(
              list
                .getEntries()
                .map(
                  (e) =>
                    `${Math.round(e.startTime)} ${/** @type {any} */ (e).element?.tagName ?? "?"}#${/** @type {any} */ (e).element?.id ?? ""} ${/** @type {any} */ (e).size}`,
                ),
            ),
          ).observe({ type: "largest-contentful-paint", buffered: true });
        }),
    );
    const paints = await page.evaluate(() => {
      const fcp =
        performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
      const scripts = performance
        .getEntriesByType("resource")
        .filter((e) => e.name.endsWith(".js"))
        .map((e) => /** @type {PerformanceResourceTiming} */ (e));
      const before = scripts.filter((e) => e.responseEnd < fcp);
      return {
        fcp: Math.round(fcp),
        scriptsBefore: before.length,
        scripts: scripts.length,
        lastScript: Math.round(Math.max(...scripts.map((e) => e.responseEnd))),
      };
    });
    return { ...paints, largest };
  } finally {
    await browser.close();
  }
}

const median = (/** @type {number[]} */ values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const original = fs.lstatSync(buildLink, { throwIfNoEntry: false });
  const savedBuild = original && !original.isSymbolicLink() ? `${buildLink}.ab-saved` : null;
  if (savedBuild) fs.renameSync(buildLink, savedBuild);
  await adminQuery(adminUrl, `create database ${dbName}`);
  let server = null;
  // Each build's runs, of whichever tool: read by the keys that tool's summary prints.
  /** @type {Record<string, Record<string, any>[]>} */
  const results = Object.fromEntries(builds.map((b) => [b.name, []]));
  try {
    fs.symlinkSync(builds[0].dir, buildLink);
    server = startServer();
    await waitForHealth(BASE, server);
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    const data = await seed(client, { projects: 1000 });
    await client.end();
    await stop(server);
    const pathname = PAGE === "sites" ? "/sites" : `/sites/${data.bigProject}`;
    for (let run = 0; run < RUNS; run += 1) {
      for (const build of builds) {
        fs.rmSync(buildLink);
        fs.symlinkSync(build.dir, buildLink);
        server = startServer();
        await waitForHealth(BASE, server);
        // As a signed-in browser sends them (browserCookies); `--first-visit`: the session only,
        // as a browser's first page after a scripted sign-in, which asks Intl for its zone.
        const session = await logIn("owner@bench.example");
        const cookie = process.argv.includes("--first-visit") ? session : browserCookies(session);
        // Warm the server's caches (the first render compiles and connects).
        for (let i = 0; i < 3; i += 1) {
          await (await fetch(`${BASE}${pathname}`, { headers: { cookie } })).text();
        }
        const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
        if (TOOL === "paint") {
          if (run === 0 && OUT) {
            fs.mkdirSync(OUT, { recursive: true });
            const html = await (await fetch(`${BASE}${pathname}`, { headers: { cookie } })).text();
            fs.writeFileSync(path.join(OUT, `${build.name}.html`), html);
          }
          const p = await paintRun(`${BASE}${pathname}`, cookie);
          await stop(server);
          server = null;
          results[build.name].push(p);
          console.log(`${build.name} run ${run + 1} (load ${load}): ${JSON.stringify(p)}`);
          continue;
        }
        if (TOOL === "profile") {
          const p = await profileRun(`${BASE}${pathname}`, cookie);
          await stop(server);
          server = null;
          console.log(`${build.name} run ${run + 1} (load ${load}) CPU profile, ms of self time:`);
          console.log(`  by script:\n    ${p.byScript.join("\n    ")}`);
          console.log(`  by function:\n    ${p.byFunction.join("\n    ")}`);
          console.log(`  components (inclusive):\n    ${p.components.join("\n    ")}`);
          if (p.errors.length) console.log(`  console errors: ${p.errors.join(" | ")}`);
          if (OUT) {
            fs.mkdirSync(OUT, { recursive: true });
            fs.writeFileSync(
              path.join(OUT, `${build.name}-${run + 1}.cpuprofile`),
              JSON.stringify(p.lhr),
            );
            fs.writeFileSync(
              path.join(OUT, `${build.name}-${run + 1}.trace.json`),
              JSON.stringify(p.trace),
            );
          }
          continue;
        }
        // A run Lighthouse could not measure (NO_NAVSTART on a busy machine) is run again.
        let r;
        for (let attempt = 1; !r; attempt += 1) {
          try {
            r = await lighthouseRun(`${BASE}${pathname}`, cookie);
          } catch (error) {
            if (attempt >= 3) throw error;
            console.log(
              `  (${build.name}: ${error instanceof Error ? error.message : error}; again)`,
            );
          }
        }
        await stop(server);
        server = null;
        results[build.name].push(r);
        console.log(
          `${build.name} run ${run + 1} (load ${load}): score ${r.score}, LCP ${r.lcp}, FCP ${r.fcp}, TBT ${r.tbt}, TTI ${r.tti}, main thread ${r.mainThread}, bootup ${r.bootup}, scripts ${r.scriptKb} KB\n  largest paint: ${r.lcpElement}`,
        );
        console.log(`  categories ${JSON.stringify(r.categories)}`);
        console.log(`  scripts ${JSON.stringify(r.scripts)}`);
        console.log(`  long tasks ${r.longTasks.join(", ")}`);
        const after = r.afterHydration;
        console.log(
          after
            ? `  after hydration (${after.hydratedMs} ms, observed): ${after.tasks} tasks, ${after.longTasks} over 50 ms at ${CPU_SLOWDOWN}x, longest ${after.longestMs} ms (${after.longest})`
            : "  after hydration: no hydration mark in the trace",
        );
        if (r.consoleErrors.length) console.log(`  console errors: ${r.consoleErrors.join(" | ")}`);
        if (OUT) {
          fs.mkdirSync(OUT, { recursive: true });
          fs.writeFileSync(path.join(OUT, `${build.name}-${run + 1}.json`), JSON.stringify(r.lhr));
          fs.writeFileSync(
            path.join(OUT, `${build.name}-${run + 1}.lh-trace.json`),
            JSON.stringify(r.trace),
          );
        }
      }
    }
    if (TOOL === "profile") return;
    if (TOOL === "paint") {
      for (const build of builds) {
        const v = (/** @type {string} */ key) => results[build.name].map((r) => r[key]);
        const fmt = (/** @type {string} */ key) =>
          `${median(v(key))} (${Math.min(...v(key))}-${Math.max(...v(key))})`;
        console.log(
          `${build.name}: first paint ${fmt("fcp")} ms, scripts done before it ${fmt("scriptsBefore")}, last script ${fmt("lastScript")} ms`,
        );
      }
      return;
    }
    console.log(`\nMedians of ${RUNS} runs (range) on ${pathname}:`);
    for (const build of builds) {
      const rs = results[build.name];
      const fmt = (/** @type {string} */ key) => {
        const v = rs.map((r) => r[key]);
        return `${median(v)} (${Math.min(...v)}-${Math.max(...v)})`;
      };
      console.log(
        `${build.name}: score ${fmt("score")}, LCP ${fmt("lcp")}, FCP ${fmt("fcp")}, TBT ${fmt("tbt")}, TTI ${fmt("tti")}, main thread ${fmt("mainThread")}, bootup ${fmt("bootup")}, scripts KB ${fmt("scriptKb")}`,
      );
    }
  } finally {
    if (server) await stop(server);
    fs.rmSync(buildLink, { force: true });
    if (savedBuild) fs.renameSync(savedBuild, buildLink);
    await adminQuery(adminUrl, `drop database if exists ${dbName} with (force)`);
  }
}

await main();
