/**
 * The rules of page-view analytics that need no database: the period a page shows, and what of
 * a page view is kept (the path without query or fragment, the referring host), so that nothing
 * personal is ever stored.
 */
import { addDays, differenceInCalendarDays, formatISO, parseISO } from "date-fns";
import { z } from "zod";

/** The presets of the period picker, in days ending today (UTC). */
export const RANGE_PRESETS = [7, 30, 90] as const;
export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;

/** Distinct paths (and referrers) kept per project and day; the rest count under one row. */
export const MAX_PATHS_PER_DAY = 500;
export const MAX_REFERRERS_PER_DAY = 200;
export const OTHER_PAGES = "(other pages)";
export const OTHER_REFERRERS = "(other sites)";
export const MAX_PATH_LENGTH = 300;

/** The public id a site's script sends (projects.analytics_key: 32 hex digits). */
export const ANALYTICS_KEY = /^[0-9a-f]{32}$/;

export const RANGE_MESSAGES = {
  date: "Enter a date as YYYY-MM-DD",
  order: "The end must be on or after the start",
  span: `Choose at most ${MAX_RANGE_DAYS} days`,
} as const;

const isoDay = z.iso.date({ error: RANGE_MESSAGES.date });

const bothDays = (r: { from: string; to: string }) =>
  isoDay.safeParse(r.from).success && isoDay.safeParse(r.to).success;

/** A custom period (?from=&to=): both days included. Order and span are checked on real days. */
export const rangeSchema = z
  .object({ from: isoDay, to: isoDay })
  .refine((r) => !bothDays(r) || r.from <= r.to, { path: ["to"], error: RANGE_MESSAGES.order })
  .refine(
    (r) =>
      !bothDays(r) ||
      r.from > r.to ||
      differenceInCalendarDays(parseISO(r.to), parseISO(r.from)) < MAX_RANGE_DAYS,
    { path: ["from"], error: RANGE_MESSAGES.span },
  );

export type DayRange = { from: string; to: string; days: number };
export type RangeChoice = {
  range: DayRange;
  /** The preset chosen (7, 30, 90), or null for a custom period. */
  preset: number | null;
  /** Field errors of a custom period that could not be used (the default period is shown). */
  errors: { from?: string[]; to?: string[] } | null;
};

/** The UTC calendar day of an instant, as YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function lastDays(days: number, today: string): DayRange {
  return {
    from: formatISO(addDays(parseISO(today), -(days - 1)), { representation: "date" }),
    to: today,
    days,
  };
}

/**
 * The period of the page from its query: ?from=&to= (validated), else ?days= one of the presets,
 * else the last 30 days. Bad input never fails the page: its errors are shown beside the fields.
 */
export function parseRange(params: URLSearchParams, now: Date): RangeChoice {
  const today = utcDay(now);
  if (params.has("from") || params.has("to")) {
    const parsed = rangeSchema.safeParse({
      from: params.get("from") ?? "",
      to: params.get("to") ?? "",
    });
    if (parsed.success) {
      const { from, to } = parsed.data;
      const days = differenceInCalendarDays(parseISO(to), parseISO(from)) + 1;
      return { range: { from, to, days }, preset: null, errors: null };
    }
    const fields = z.flattenError(parsed.error).fieldErrors;
    return {
      range: lastDays(DEFAULT_RANGE_DAYS, today),
      preset: DEFAULT_RANGE_DAYS,
      errors: { from: fields.from, to: fields.to },
    };
  }
  const asked = Number(params.get("days"));
  const preset = (RANGE_PRESETS as readonly number[]).includes(asked) ? asked : DEFAULT_RANGE_DAYS;
  return { range: lastDays(preset, today), preset, errors: null };
}

/** Every day of a range, in order (the chart and table show days without views as 0). */
export function daysOf(range: DayRange): string[] {
  const start = parseISO(range.from);
  return Array.from({ length: range.days }, (_, i) =>
    formatISO(addDays(start, i), { representation: "date" }),
  );
}

/**
 * The path of a page view as stored: the pathname of what the page reported (a path or a full
 * address), without query or fragment, repeated and trailing slashes removed, percent-encoded as
 * the URL parser leaves it (control characters included), at most 300 characters. `root` is where the site lives on its host (the local
 * provider serves sites under /local/sites/{siteId}); it is cut off. Null for nonsense.
 */
export function normalizePath(reported: unknown, root = ""): string | null {
  if (typeof reported !== "string" || reported.length > 4096) return null;
  let pathname: string;
  try {
    pathname = new URL(reported, "http://site.invalid").pathname;
  } catch {
    return null;
  }
  pathname = pathname.replace(/\/{2,}/g, "/");
  if (root && (pathname === root || pathname.startsWith(`${root}/`))) {
    pathname = pathname.slice(root.length) || "/";
  }
  if (pathname.length > 1) pathname = pathname.replace(/\/+$/, "") || "/";
  return pathname.slice(0, MAX_PATH_LENGTH);
}

/**
 * The referring site of a page view: the host name of an http(s) referrer (no path: it may name a
 * search or a person), without "www.". Null for none, for anything else, and for the site's own
 * hosts (a visitor moving between its pages is not a referral).
 */
export function referrerHost(reported: unknown, ownHosts: readonly string[]): string | null {
  if (typeof reported !== "string" || reported === "" || reported.length > 4096) return null;
  let url: URL;
  try {
    url = new URL(reported);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase();
  if (ownHosts.includes(host)) return null;
  return host.replace(/^www\./, "").slice(0, 253) || null;
}

/** User agents that announce themselves as robots: their fetches are not page views. */
export const ROBOT_AGENT = /bot|crawl|spider|slurp|facebookexternalhit|preview|monitor/i;
