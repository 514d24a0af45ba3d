import { DEFAULT_TIME_ZONE, TIME_ZONE_COOKIE, validTimeZone } from "./dates";

/**
 * The person's time zone from the `tz` cookie their browser set (app/utils/time-zone.ts), or UTC
 * when there is none or it is not a real zone. Dates the server formats use it, and the root
 * loader sends it to the page so components format with the same zone.
 */
export function getTimeZone(request: Request): string {
  return savedTimeZone(request) ?? DEFAULT_TIME_ZONE;
}

/** The zone in the `tz` cookie when there is one and it is a real zone, else null. */
export function savedTimeZone(request: Request): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq).trim() !== TIME_ZONE_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      return null;
    }
    return validTimeZone(value);
  }
  return null;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `zone`'s offset from UTC at `at`, in the terms of the browser's `Date.getTimezoneOffset()`
 * (minutes to add to local time to get UTC: -60 for Europe/Paris in winter). The page compares
 * it with the browser's own offset before asking the browser for its zone (time-zone.ts).
 */
export function timeZoneOffset(zone: string, at: Date = new Date()): number {
  let format = offsetFormatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    offsetFormatters.set(zone, format);
  }
  const name = format.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "";
  // "GMT" for UTC itself, else "GMT+05:30" / "GMT-08:00".
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!match) return 0;
  const east = Number(match[2]) * 60 + Number(match[3]);
  // "GMT+00:00" is 0, not -0.
  return match[1] === "+" && east !== 0 ? -east : east;
}
