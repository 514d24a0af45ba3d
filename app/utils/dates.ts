/**
 * Dates as people read them, in their own time zone: every absolute date the app shows goes
 * through `formatDate`. The zone comes from the browser once (a `tz` cookie, set by
 * `useTimeZoneCookie` in app/utils/time-zone.ts) and is UTC until then; the server reads it
 * (app/utils/time-zone.server.ts) and the root loader hands it to the page, so the server render
 * and the hydrated page print the same text. Relative times ('3 minutes ago') need no zone.
 */

/** Before the browser has told us its zone (first visit, no JavaScript). */
export const DEFAULT_TIME_ZONE = "UTC";
/** The cookie that keeps the browser's zone (not secret, readable by the page's script). */
export const TIME_ZONE_COOKIE = "tz";

/** Zones Intl accepted already (a few hundred exist): no formatter to build to check them again. */
const knownZones = new Set<string>();

/**
 * `value` if it is a time zone this runtime knows (an IANA name such as "Europe/Paris", or
 * "UTC"), else null. Intl.supportedValuesOf leaves out valid aliases browsers report (UTC,
 * Asia/Calcutta), so the test is whether Intl accepts it.
 */
export function validTimeZone(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return null;
  if (knownZones.has(value)) return value;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return null;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
  } catch {
    return null;
  }
  // There are a few hundred real zones; anything else was refused above.
  knownZones.add(value);
  return value;
}

/**
 * - date: "Mar 9, 2025"
 * - dateTime: "Mar 9, 2025 at 3:04 PM"
 * - timestamp: "Mar 9, 2025 15:04:05"
 */
export type DateStyle = "date" | "dateTime" | "timestamp";

const OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { year: "numeric", month: "short", day: "numeric" },
  dateTime: {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hourCycle: "h12",
  },
  timestamp: {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  },
};

// Building a formatter is slow; there are a few hundred zones and three styles.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(style: DateStyle, timeZone: string) {
  const key = `${style} ${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", { ...OPTIONS[style], timeZone });
    formatters.set(key, found);
  }
  return found;
}

/**
 * `value` (a Date, an ISO string or epoch milliseconds) in `timeZone` (UTC when it is not a
 * valid zone). The text is assembled from Intl's parts in a fixed pattern, so Node's and the
 * browser's ICU versions (which differ in spacing, e.g. before AM/PM) print the same thing.
 */
export function formatDate(
  value: Date | string | number,
  timeZone: string,
  style: DateStyle = "date",
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const zone = validTimeZone(timeZone) ?? DEFAULT_TIME_ZONE;
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of formatter(style, zone).formatToParts(date)) part[p.type] = p.value;
  const day = `${part.month} ${part.day}, ${part.year}`;
  if (style === "date") return day;
  if (style === "dateTime") {
    return `${day} at ${part.hour}:${part.minute} ${part.dayPeriod?.toUpperCase()}`;
  }
  return `${day} ${part.hour}:${part.minute}:${part.second}`;
}
