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
 */
export function useTimeZoneCookie(current: string) {
  useEffect(() => {
    let zone: string | null = null;
    try {
      zone = validTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
    } catch {
      zone = null;
    }
    if (!zone || zone === current) return;
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  }, [current]);
}
