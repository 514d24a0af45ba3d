// Lighthouse in `npm run bench` (./index.mjs): a signed-in page under Lighthouse's mobile
// defaults, LIGHTHOUSE_RUNS times, its figures the runs' medians with their range. A/B runs of
// two builds are lighthouse-ab.mjs's.
import fs from "node:fs";
import { tasksAfterHydration } from "./hydration-tasks.mjs";
import { BASE, LIGHTHOUSE_RUNS } from "./options.mjs";

/**
 * One Lighthouse run of a page.
 * @typedef {{
 *   score: number;
 *   bestPractices: number;
 *   lcp: number;
 *   fcp: number;
 *   tbt: number;
 *   bytes: number;
 *   scriptKb: number;
 *   opportunities: string[];
 *   afterHydration: import("./hydration-tasks.mjs").AfterHydration | null;
 *   benchmarkIndex: number;
 * }} LighthouseRun
 * A page's Lighthouse figures: the runs' medians (with their range), or why there are none.
 * @typedef {{ skipped: string } | {
 *   runs: number;
 *   score: string;
 *   bestPractices: string;
 *   lcp: string;
 *   fcp: string;
 *   tbt: string;
 *   bytes: number;
 *   scriptKb: number;
 *   opportunities: string[];
 *   afterHydration: string;
 *   benchmarkIndex: number;
 * }} LighthouseFigures
 */

/**
 * Lighthouse with its mobile defaults (simulated slow 4G and 4x CPU slowdown) on a signed-in page:
 * performance (score, LCP, the tasks after hydration) and best practices. Chromium from
 * CHROMIUM_PATH (as the browser tests), else /usr/bin/chromium; skipped with a note when neither
 * is there.
 * @param {string} pathname
 * @param {string} cookie
 * @returns {Promise<LighthouseFigures>}
 */
export async function lighthouseOf(pathname, cookie) {
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
  const median = (/** @type {"score" | "bestPractices" | "lcp" | "fcp" | "tbt"} */ key) => {
    const values = runs.map((r) => r[key]).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)];
  };
  const range = (/** @type {"score" | "bestPractices" | "lcp" | "fcp" | "tbt"} */ key) => {
    const values = runs.map((r) => r[key]);
    return runs.length > 1 ? ` (${Math.min(...values)}-${Math.max(...values)})` : "";
  };
  const middle = runs.find((r) => r.score === median("score")) ?? runs[0];
  // The long tasks after hydration in each run, and the longest of all (a run whose trace has no
  // hydration mark says so: the page did not finish hydrating while Lighthouse watched).
  const after = runs.map((r) => r.afterHydration);
  const marked = after.filter((a) => a !== null);
  const afterHydration =
    marked.length < after.length
      ? `not measured in ${after.length - marked.length} of ${after.length} runs (no hydration mark)`
      : `${marked.map((a) => a.longTasks).join(", ")} tasks over 50 ms at 4x, longest ${Math.max(...marked.map((a) => a.longestMs))} ms (${marked.reduce((a, b) => (b.longestMs > a.longestMs ? b : a)).longest})`;
  const indexes = runs.map((r) => r.benchmarkIndex).sort((a, b) => a - b);
  return {
    runs: runs.length,
    score: `${median("score")}${range("score")}`,
    bestPractices: `${median("bestPractices")}${range("bestPractices")}`,
    lcp: `${median("lcp")}${range("lcp")}`,
    fcp: `${median("fcp")}${range("fcp")}`,
    tbt: `${median("tbt")}${range("tbt")}`,
    bytes: middle.bytes,
    scriptKb: middle.scriptKb,
    opportunities: middle.opportunities,
    afterHydration,
    benchmarkIndex: indexes[Math.floor(indexes.length / 2)],
  };
}

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
      // Best practices too: a Content-Security-Policy violation or a console error shows there.
      onlyCategories: ["performance", "best-practices"],
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
      // The host's speed as Lighthouse measures it: its simulated 4x slowdown multiplies the
      // tasks it observed here, so a slower host (a busy hour) scores lower for the same page.
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      afterHydration: tasksAfterHydration(
        run.artifacts.Trace,
        lhr.configSettings.throttling?.cpuSlowdownMultiplier ?? 1,
      ),
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      bestPractices: Math.round((lhr.categories["best-practices"]?.score ?? 0) * 100),
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
