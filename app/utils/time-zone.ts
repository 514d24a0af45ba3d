import { useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { DEFAULT_TIME_ZONE, TIME_ZONE_COOKIE, validTimeZone } from "./dates";

/** The zone dates are shown in: the one the server read from the cookie (root loader), or UTC. */
export function useTimeZone(): string {
  const root = useRouteLoaderData<{ timeZone?: string }>("root");
  return root?.timeZone ?? DEFAULT_TIME_ZONE;
}

/**
 * Once JavaScript runs, keeps the browser's time zone in the `tz` cookie when it differs from
 * the one the page was rendered with. Pages loaded after that show dates in it; this page stays
 * as rendered (no reload, no re-render: the server and the hydrated page agree).
 *
 * `savedOffset` is the cookie's zone's offset now (time-zone.server.ts), null without a cookie.
 * While the browser's offset equals it, the zone is taken as unchanged and Intl is not asked:
 * Intl's first use in a page loads ICU's data, about 90 ms of a phone's main thread at hydration
 * (a Lighthouse trace of the dashboard, 4x CPU slowdown), on pages that format no date otherwise.
 */
export function useTimeZoneCookie(current: string, savedOffset: number | null) {
  useEffect(() => {
    if (savedOffset !== null && new Date().getTimezoneOffset() === savedOffset) return;
    let zone: string | null = null;
    try {
      zone = validTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
    } catch {
      zone = null;
    }
    if (!zone || zone === current) return;
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  }, [current, savedOffset]);
}
