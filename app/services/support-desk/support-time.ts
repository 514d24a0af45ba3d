/**
 * "When did this ticket last move", as the support list says it. Pure: the page passes the
 * loader's clock as `now`, so the server render and the hydrated page print the same words.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;

/**
 * 'x days ago', 'x hours ago', 'x minutes ago' (the largest whole unit), else 'Just now'. A time
 * ahead of `now` (clocks a little apart) or unreadable also reads 'Just now'.
 */
export function lastUpdated(at: string | Date, now: string | Date): string {
  const elapsed = new Date(now).getTime() - new Date(at).getTime();
  if (!Number.isFinite(elapsed) || elapsed < MINUTE) return "Just now";
  if (elapsed >= DAY) return plural(Math.floor(elapsed / DAY), "day");
  if (elapsed >= HOUR) return plural(Math.floor(elapsed / HOUR), "hour");
  return plural(Math.floor(elapsed / MINUTE), "minute");
}
