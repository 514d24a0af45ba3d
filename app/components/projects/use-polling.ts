import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useFormsInFlight } from "~/utils/use-forms-in-flight";

/**
 * Re-runs the page's loaders every `intervalMs`, paused while
 * the tab is hidden: a background tab costs the server nothing, and coming back refreshes at once.
 * A tick while a form is under way is skipped (useFormsInFlight says why).
 */
export function usePolling(intervalMs: number) {
  const revalidator = useRevalidator();
  const formsInFlight = useFormsInFlight();
  const latest = useRef(revalidator);
  useEffect(() => {
    latest.current = revalidator;
  });

  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const refresh = () => {
      if (document.hidden || formsInFlight.current) return;
      if (latest.current.state === "idle") latest.current.revalidate();
    };
    const stop = () => {
      if (timer) clearInterval(timer);
      timer = undefined;
    };
    const start = () => {
      stop();
      if (!document.hidden) timer = setInterval(refresh, intervalMs);
    };
    const onVisibilityChange = () => {
      if (document.hidden) return stop();
      refresh();
      start();
    };
    start();
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
  }, [intervalMs, formsInFlight]);
}
