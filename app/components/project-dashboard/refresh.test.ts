import { describe, expect, it } from "vitest";
import {
  FULL_RELOAD_EVERY_MS,
  IDLE_AFTER_MS,
  mayCheckVersionFirst,
  PAGE_REFRESH_INTERVAL_MS,
  REFRESH_INTERVAL_MS,
  isIdle,
  shouldRefresh,
  shouldRefreshOnResume,
} from "./refresh";

const t0 = 1_000_000;

describe("smart refresh", () => {
  it("uses the spec's 30 s interval and 2 min idle", () => {
    expect(REFRESH_INTERVAL_MS).toBe(30_000);
    expect(IDLE_AFTER_MS).toBe(120_000);
  });

  it("refreshes the other project pages every 60 s, the specification's per-project interval", () => {
    expect(PAGE_REFRESH_INTERVAL_MS).toBe(60_000);
    const clock = { lastActivityAt: t0, lastRefreshAt: t0, hidden: false };
    const tick = (now: number) => shouldRefresh({ ...clock, now }, PAGE_REFRESH_INTERVAL_MS);
    expect(tick(t0 + REFRESH_INTERVAL_MS)).toBe(false);
    expect(tick(t0 + PAGE_REFRESH_INTERVAL_MS - 1)).toBe(false);
    expect(tick(t0 + PAGE_REFRESH_INTERVAL_MS)).toBe(true);
    // Still paused after 2 minutes idle, and while hidden.
    expect(
      shouldRefresh(
        { now: t0 + IDLE_AFTER_MS, lastActivityAt: t0, lastRefreshAt: t0, hidden: false },
        PAGE_REFRESH_INTERVAL_MS,
      ),
    ).toBe(false);
    expect(
      shouldRefresh(
        { ...clock, now: t0 + PAGE_REFRESH_INTERVAL_MS, lastActivityAt: t0 + 1000, hidden: true },
        PAGE_REFRESH_INTERVAL_MS,
      ),
    ).toBe(false);
    // Back after a pause: at once only if a 60 s refresh fell due meanwhile.
    const resume = (now: number) =>
      shouldRefreshOnResume({ now, lastRefreshAt: t0, hidden: false }, PAGE_REFRESH_INTERVAL_MS);
    expect(resume(t0 + REFRESH_INTERVAL_MS)).toBe(false);
    expect(resume(t0 + PAGE_REFRESH_INTERVAL_MS)).toBe(true);
  });

  it("counts the user idle from 2 minutes after the last activity", () => {
    expect(isIdle(t0, t0 + IDLE_AFTER_MS - 1)).toBe(false);
    expect(isIdle(t0, t0 + IDLE_AFTER_MS)).toBe(true);
  });

  it("refreshes every 30 s while the user is active and the tab visible", () => {
    const clock = { lastActivityAt: t0, lastRefreshAt: t0, hidden: false };
    expect(shouldRefresh({ ...clock, now: t0 + REFRESH_INTERVAL_MS - 1 })).toBe(false);
    expect(shouldRefresh({ ...clock, now: t0 + REFRESH_INTERVAL_MS })).toBe(true);
  });

  it("pauses after 2 minutes without activity", () => {
    const now = t0 + IDLE_AFTER_MS;
    expect(shouldRefresh({ now, lastActivityAt: t0, lastRefreshAt: t0, hidden: false })).toBe(
      false,
    );
    expect(
      shouldRefresh({ now, lastActivityAt: now - 1000, lastRefreshAt: t0, hidden: false }),
    ).toBe(true);
  });

  it("pauses while the tab is hidden", () => {
    const now = t0 + REFRESH_INTERVAL_MS * 2;
    expect(shouldRefresh({ now, lastActivityAt: now, lastRefreshAt: t0, hidden: true })).toBe(
      false,
    );
  });

  it("refreshes at once on return when a refresh fell due while paused", () => {
    expect(
      shouldRefreshOnResume({ now: t0 + REFRESH_INTERVAL_MS, lastRefreshAt: t0, hidden: false }),
    ).toBe(true);
    expect(shouldRefreshOnResume({ now: t0 + 1000, lastRefreshAt: t0, hidden: false })).toBe(false);
    expect(
      shouldRefreshOnResume({ now: t0 + IDLE_AFTER_MS, lastRefreshAt: t0, hidden: true }),
    ).toBe(false);
  });

  it("asks for the data version first, but reloads in full every 5 minutes", () => {
    expect(FULL_RELOAD_EVERY_MS).toBe(300_000);
    expect(mayCheckVersionFirst(t0, t0 + REFRESH_INTERVAL_MS)).toBe(true);
    expect(mayCheckVersionFirst(t0, t0 + FULL_RELOAD_EVERY_MS - 1)).toBe(true);
    expect(mayCheckVersionFirst(t0, t0 + FULL_RELOAD_EVERY_MS)).toBe(false);
  });
});
