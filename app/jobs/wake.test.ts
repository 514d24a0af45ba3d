import { afterEach, describe, expect, it, vi } from "vitest";
import { heard, noticeFor, registerWaker, stopWaking } from "./wake.server";

describe("a job's notice", () => {
  afterEach(async () => {
    vi.useRealTimers();
    await stopWaking();
  });

  it("names the queue, and the due time only for a job due later", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    expect(JSON.parse(noticeFor("mail.send", undefined))).toEqual({ q: "mail.send" });
    expect(JSON.parse(noticeFor("mail.send", 0))).toEqual({ q: "mail.send" });
    expect(JSON.parse(noticeFor("poll", 5))).toEqual({ q: "poll", at: 1_005_000 });
    expect(JSON.parse(noticeFor("poll", new Date(1_002_000)))).toEqual({
      q: "poll",
      at: 1_002_000,
    });
    expect(JSON.parse(noticeFor("poll", new Date(1_000).toISOString()))).toEqual({ q: "poll" });
  });

  it("wakes the queue's worker at once, or when a delayed job falls due", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const woken: string[] = [];
    registerWaker("now", () => woken.push("now"));
    registerWaker("later", () => woken.push("later"));
    heard(JSON.stringify({ q: "now" }));
    heard(JSON.stringify({ q: "later", at: 1_003_000 }));
    expect(woken).toEqual(["now"]);
    vi.advanceTimersByTime(2_900);
    expect(woken).toEqual(["now"]);
    vi.advanceTimersByTime(200);
    expect(woken).toEqual(["now", "later"]);
  });

  it("ignores queues this process does not work, jobs due far off and malformed notices", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const woken: string[] = [];
    registerWaker("far", () => woken.push("far"));
    heard(JSON.stringify({ q: "elsewhere" }));
    heard(JSON.stringify({ q: "far", at: 1_000_000 + 24 * 3600_000 }));
    heard("not json");
    heard(JSON.stringify({ at: 5 }));
    vi.advanceTimersByTime(24 * 3600_000);
    expect(woken).toEqual([]);
  });
});
