import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useFormsInFlight } from "~/utils/use-forms-in-flight";
import {
  ACTIVITY_EVENTS,
  isIdle,
  mayCheckVersionFirst,
  REFRESH_INTERVAL_MS,
  shouldRefresh,
  shouldRefreshOnResume,
  type RefreshClock,
} from "./refresh";

/** How often the hook looks at the clock; a refresh happens only when refresh.ts says so. */
const TICK_MS = 1_000;

/** Where the page's data version is asked and the version its data has (the loader's). */
export type VersionCheck = { url: string; version: string };

/**
 * Re-runs the page's loaders (and loaded fetchers) every `intervalMs` (30 s, the dashboard's;
 * the other project pages pass 60 s) while the user is active and the tab is visible; pauses
 * after 2 minutes idle or while hidden, and catches up at once when the user returns, never
 * while a form is under way. Without JavaScript nothing refreshes: the page is as fresh as its
 * last load.
 *
 * With `check`, a refresh first asks `check.url` with `If-None-Match` of the data's version: a
 * 304 means nothing changed and nothing is reloaded (the answer costs one query, not the page's
 * every read); anything else reloads. Returns when such a check last found the data current, so
 * the page can count its 'minutes ago' from then.
 */
export function useSmartRefresh(
  check?: VersionCheck,
  { intervalMs = REFRESH_INTERVAL_MS }: { intervalMs?: number } = {},
): string | null {
  const revalidator = useRevalidator();
  const formsInFlight = useFormsInFlight();
  const latest = useRef(revalidator);
  const latestCheck = useRef(check);
  const interval = useRef(intervalMs);
  useEffect(() => {
    latest.current = revalidator;
    latestCheck.current = check;
    interval.current = intervalMs;
  });
  const [currentAt, setCurrentAt] = useState<string | null>(null);

  // Every completed load (navigation, page change, refresh) restarts the interval's count.
  const lastRefreshAt = useRef(0);
  const lastFullLoadAt = useRef(0);
  useEffect(() => {
    if (revalidator.state !== "idle") return;
    lastRefreshAt.current = Date.now();
    lastFullLoadAt.current = Date.now();
  }, [revalidator.state]);

  useEffect(() => {
    let lastActivityAt = Date.now();
    let checking: AbortController | null = null;
    lastRefreshAt.current = Date.now();
    const clock = (): RefreshClock => ({
      now: Date.now(),
      lastActivityAt,
      lastRefreshAt: lastRefreshAt.current,
      hidden: document.hidden,
    });
    const reload = () => {
      // A form under way: the next tick refreshes, once it is done (useFormsInFlight says why).
      if (latest.current.state !== "idle" || formsInFlight.current) return;
      lastRefreshAt.current = Date.now();
      latest.current.revalidate();
    };
    const refresh = () => {
      if (latest.current.state !== "idle" || formsInFlight.current || checking) return;
      const asked = latestCheck.current;
      if (!asked || !mayCheckVersionFirst(lastFullLoadAt.current, Date.now())) return reload();
      lastRefreshAt.current = Date.now();
      const controller = new AbortController();
      checking = controller;
      fetch(asked.url, {
        headers: { "If-None-Match": `"${asked.version}"` },
        cache: "no-store",
        signal: controller.signal,
      })
        .then((response) => {
          if (controller.signal.aborted) return;
          // Unchanged, and no reload since the question was sent: the data is current.
          if (response.status === 304 && latestCheck.current?.version === asked.version) {
            setCurrentAt(new Date().toISOString());
          } else {
            reload();
          }
        })
        // Offline or the server away: the full reload shows what the page shows for that.
        .catch(() => {
          if (!controller.signal.aborted) reload();
        })
        .finally(() => {
          if (checking === controller) checking = null;
        });
    };
    const onTick = () => {
      if (shouldRefresh(clock(), interval.current)) refresh();
    };
    const onActivity = () => {
      const wasIdle = isIdle(lastActivityAt, Date.now());
      lastActivityAt = Date.now();
      if (wasIdle && shouldRefreshOnResume(clock(), interval.current)) refresh();
    };
    const onVisibilityChange = () => {
      if (document.hidden) return;
      lastActivityAt = Date.now();
      if (shouldRefreshOnResume(clock(), interval.current)) refresh();
    };

    const timer = setInterval(onTick, TICK_MS);
    for (const type of ACTIVITY_EVENTS) {
      window.addEventListener(type, onActivity, { passive: true, capture: true });
    }
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      checking?.abort();
      clearInterval(timer);
      for (const type of ACTIVITY_EVENTS) {
        window.removeEventListener(type, onActivity, { capture: true });
      }
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
    // formsInFlight is a ref: the same object on every render.
  }, [formsInFlight]);
  return currentAt;
}
