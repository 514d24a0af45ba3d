import { DEFAULT_TIME_ZONE, TIME_ZONE_COOKIE, validTimeZone } from "./dates";

/**
 * The person's time zone from the `tz` cookie their browser set (app/utils/time-zone.ts), or UTC
 * when there is none or it is not a real zone. Dates the server formats use it, and the root
 * loader sends it to the page so components format with the same zone.
 */
export function getTimeZone(request: Request): string {
  const header = request.headers.get("Cookie");
  if (!header) return DEFAULT_TIME_ZONE;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq).trim() !== TIME_ZONE_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      return DEFAULT_TIME_ZONE;
    }
    return validTimeZone(value) ?? DEFAULT_TIME_ZONE;
  }
  return DEFAULT_TIME_ZONE;
}
