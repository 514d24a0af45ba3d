/**
 * The project pages' smart refresh: every 30 s on the dashboard and every 60 s on the other
 * project pages (the specification's per-project queries), paused after 2 minutes without user
 * activity and while the tab is hidden. The pure rules; the hook in use-smart-refresh.ts
 * supplies the clock and the browser's events. Unit-tested.
 */
export const REFRESH_INTERVAL_MS = 30_000;
/** The project navigation pages' interval (Website, Analytics, Forms, ..., Settings). */
export const PAGE_REFRESH_INTERVAL_MS = 60_000;
export const IDLE_AFTER_MS = 2 * 60_000;

/** The browser events that count as the user being there. */
export const ACTIVITY_EVENTS = [
  "mousemove",
  "mousedown",
  "keydown",
  "touchstart",
  "scroll",
  "wheel",
] as const;

export type RefreshClock = {
  now: number;
  /** When the user last moved, typed, touched or scrolled (ms). */
  lastActivityAt: number;
  /** When the page's data was last loaded or refreshed (ms). */
  lastRefreshAt: number;
  /** The tab is hidden (document.hidden). */
  hidden: boolean;
};

export function isIdle(lastActivityAt: number, now: number, idleAfterMs = IDLE_AFTER_MS) {
  return now - lastActivityAt >= idleAfterMs;
}

/**
 * A timer tick: refresh when the tab is visible, the user is active and the data is one interval
 * old.
 */
export function shouldRefresh(clock: RefreshClock, intervalMs = REFRESH_INTERVAL_MS): boolean {
  if (clock.hidden) return false;
  if (isIdle(clock.lastActivityAt, clock.now)) return false;
  return clock.now - clock.lastRefreshAt >= intervalMs;
}

/**
 * The user comes back (activity after being idle, or the tab shown again): refresh at once if a
 * refresh fell due while paused, rather than waiting for the next tick.
 */
export function shouldRefreshOnResume(
  clock: Omit<RefreshClock, "lastActivityAt">,
  intervalMs = REFRESH_INTERVAL_MS,
): boolean {
  if (clock.hidden) return false;
  return clock.now - clock.lastRefreshAt >= intervalMs;
}

/**
 * A refresh first asks whether the page's data version changed and reloads only if it did; what
 * the version cannot see (badges that age with the clock, an old activity entry purged) still
 * shows within this long, by a full reload however the version answers.
 */
export const FULL_RELOAD_EVERY_MS = 5 * 60_000;

/** A refresh that may stop at the version check: the last full load is recent enough. */
export function mayCheckVersionFirst(lastFullLoadAt: number, now: number): boolean {
  return now - lastFullLoadAt < FULL_RELOAD_EVERY_MS;
}
