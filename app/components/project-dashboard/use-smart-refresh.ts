import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useFormsInFlight } from "~/utils/use-forms-in-flight";
import {
  ACTIVITY_EVENTS,
  isIdle,
  shouldRefresh,
  shouldRefreshOnResume,
  type RefreshClock,
} from "./refresh";

/** How often the hook looks at the clock; a refresh happens only when refresh.ts says so. */
const TICK_MS = 1_000;

/**
 * Re-runs the page's loaders (and loaded fetchers) every 30 s while the user is active and the
 * tab is visible; pauses after 2 minutes idle or while hidden, and catches up at once when the
 * user returns, never while a form is under way. Without JavaScript nothing refreshes: the page
 * is as fresh as its last load.
 */
export function useSmartRefresh() {
  const revalidator = useRevalidator();
  const formsInFlight = useFormsInFlight();
  const latest = useRef(revalidator);
  useEffect(() => {
    latest.current = revalidator;
  });

  // Every completed load (navigation, page change, refresh) restarts the 30 s count.
  const lastRefreshAt = useRef(0);
  useEffect(() => {
    if (revalidator.state === "idle") lastRefreshAt.current = Date.now();
  }, [revalidator.state]);

  useEffect(() => {
    let lastActivityAt = Date.now();
    lastRefreshAt.current = Date.now();
    const clock = (): RefreshClock => ({
      now: Date.now(),
      lastActivityAt,
      lastRefreshAt: lastRefreshAt.current,
      hidden: document.hidden,
    });
    const refresh = () => {
      // A form under way: the next tick refreshes, once it is done (useFormsInFlight says why).
      if (latest.current.state !== "idle" || formsInFlight.current) return;
      lastRefreshAt.current = Date.now();
      latest.current.revalidate();
    };
    const onTick = () => {
      if (shouldRefresh(clock())) refresh();
    };
    const onActivity = () => {
      const wasIdle = isIdle(lastActivityAt, Date.now());
      lastActivityAt = Date.now();
      if (wasIdle && shouldRefreshOnResume(clock())) refresh();
    };
    const onVisibilityChange = () => {
      if (document.hidden) return;
      lastActivityAt = Date.now();
      if (shouldRefreshOnResume(clock())) refresh();
    };

    const timer = setInterval(onTick, TICK_MS);
    for (const type of ACTIVITY_EVENTS) {
      window.addEventListener(type, onActivity, { passive: true, capture: true });
    }
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      clearInterval(timer);
      for (const type of ACTIVITY_EVENTS) {
        window.removeEventListener(type, onActivity, { capture: true });
      }
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
    // formsInFlight is a ref: the same object on every render.
  }, [formsInFlight]);
}
