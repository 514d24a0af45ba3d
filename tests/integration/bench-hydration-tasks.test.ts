/**
 * `npm run bench`'s figure for the tasks after hydration (scripts/bench/hydration-tasks.mjs),
 * read from a trace in Chrome's format as Lighthouse returns it.
 */
import { describe, expect, it } from "vitest";
import { HYDRATED_MARK, tasksAfterHydration } from "../../scripts/bench/hydration-tasks.mjs";

const PAGE = { pid: 10, tid: 10 };
const ms = (value: number) => value * 1000;
const task = (at: number, dur: number, thread = PAGE) => ({
  name: "RunTask",
  cat: "disabled-by-default-devtools.timeline",
  ph: "X",
  ts: ms(at),
  dur: ms(dur),
  ...thread,
});
const trace = (...events: object[]) => ({
  traceEvents: [
    { name: "navigationStart", cat: "blink.user_timing", ph: "R", ts: 0, ...PAGE },
    ...events,
  ] as never,
});
const mark = (at: number) => ({
  name: HYDRATED_MARK,
  cat: "blink.user_timing",
  ph: "I",
  ts: ms(at),
  ...PAGE,
});

describe("tasks after hydration", () => {
  it("counts only the page's tasks that start after the mark, at the CPU slowdown", () => {
    const figures = tasksAfterHydration(
      trace(
        task(100, 40), // hydration itself: before the mark
        mark(150),
        task(160, 10), // 40 ms at 4x
        task(200, 13), // 52 ms at 4x: long
        {
          name: "FunctionCall",
          ph: "X",
          ts: ms(201),
          dur: ms(12),
          args: { data: { url: "http://127.0.0.1/assets/react.js", functionName: "render" } },
          ...PAGE,
        },
        task(300, 30, { pid: 11, tid: 11 }), // another process (an iframe, the browser)
      ),
      4,
    );
    expect(figures).toEqual({
      hydratedMs: 150,
      tasks: 2,
      longTasks: 1,
      longestMs: 52,
      // When the longest started after the mark, and what took most of it.
      longest: "+50 ms: FunctionCall react.js render 12.0 ms",
    });
  });

  it("says so when the page never marked its hydration", () => {
    expect(tasksAfterHydration(trace(task(100, 40)), 4)).toBeNull();
  });
});
