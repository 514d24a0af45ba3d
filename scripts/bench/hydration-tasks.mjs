// The page's main-thread tasks after hydration, read from the trace of a Lighthouse run (its
// observed, unthrottled load). The root marks `stackshift:hydrated` (performance.mark) when
// hydration ends; every task the page's main thread starts after that mark is counted, its
// duration multiplied by the run's CPU slowdown (4 in Lighthouse's mobile defaults), as
// Lighthouse's simulation does for total blocking time. A task over 50 ms there is a long task.

export const HYDRATED_MARK = "stackshift:hydrated";
const LONG_TASK_MS = 50;

/**
 * One trace event (the Chrome trace format; the fields read here).
 * @typedef {{
 *   name: string; cat?: string; ph: string; ts: number; dur?: number; pid: number; tid: number;
 *   args?: { data?: { url?: string; functionName?: string } };
 * }} TraceEvent
 */

/**
 * @typedef {{
 *   hydratedMs: number;
 *   tasks: number;
 *   longTasks: number;
 *   longestMs: number;
 *   longest: string;
 * }} AfterHydration
 */

/**
 * The tasks after the hydration mark, at the given CPU slowdown; null when the trace has no mark
 * (the page never finished hydrating while Lighthouse watched). `longest` says when the longest
 * one started (ms after the mark, observed) and what took most of it, to tell one from another.
 * @param {{ traceEvents: TraceEvent[] }} trace
 * @param {number} slowdown
 * @returns {AfterHydration | null}
 */
export function tasksAfterHydration(trace, slowdown) {
  const events = trace.traceEvents;
  const mark = events.find((e) => e.name === HYDRATED_MARK && e.cat?.includes("user_timing"));
  if (!mark) return null;
  // The navigation's start on the same renderer, for a figure readable beside the others.
  const navigation = events.find((e) => e.name === "navigationStart" && e.pid === mark.pid);
  const onPage = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === "X");
  const tasks = onPage.filter((e) => e.name === "RunTask" && e.ts > mark.ts);
  const longest = tasks.reduce(
    (/** @type {TraceEvent | null} */ a, e) => (!a || (e.dur ?? 0) > (a.dur ?? 0) ? e : a),
    null,
  );
  const durations = tasks.map((e) => ((e.dur ?? 0) / 1000) * slowdown);
  return {
    hydratedMs: Math.round((mark.ts - (navigation?.ts ?? mark.ts)) / 1000),
    tasks: durations.length,
    longTasks: durations.filter((d) => d > LONG_TASK_MS).length,
    longestMs: Math.round(Math.max(0, ...durations)),
    longest: longest ? describe(longest, onPage, mark.ts) : "",
  };
}

/**
 * "+N ms: name (script) M ms, ..." for the three longest events inside `task`.
 * @param {TraceEvent} task
 * @param {TraceEvent[]} onPage
 * @param {number} markTs
 */
function describe(task, onPage, markTs) {
  const end = task.ts + (task.dur ?? 0);
  const inside = onPage
    .filter((e) => e !== task && e.name !== "RunTask" && e.ts >= task.ts && e.ts < end)
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, 3)
    .map((e) => {
      const data = e.args?.data;
      const where = data?.url
        ? ` ${data.url.split("/").pop()}${data.functionName ? ` ${data.functionName}` : ""}`
        : "";
      return `${e.name}${where} ${((e.dur ?? 0) / 1000).toFixed(1)} ms`;
    });
  return `+${Math.round((task.ts - markTs) / 1000)} ms: ${inside.join(", ") || "no event inside"}`;
}
