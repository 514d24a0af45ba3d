/**
 * The activity log's URL state, shared by loaders and the component (no server code here).
 * `?log=all` is the expanded log, so 'Show more' and 'Collapse' are plain links without
 * JavaScript.
 */
export const ACTIVITY_PARAM = "log";
export const ACTIVITY_ALL = "all";
/** The section's element id: links land on the log rather than the top of the page. */
export const ACTIVITY_ANCHOR = "activity-log";

export function activityExpanded(url: URL | URLSearchParams): boolean {
  const params = url instanceof URL ? url.searchParams : url;
  return params.get(ACTIVITY_PARAM) === ACTIVITY_ALL;
}

/** The current page's address with the log expanded (`all`) or collapsed, other params kept. */
export function activityHref(
  location: { pathname: string; search: string },
  expanded: boolean,
): string {
  const params = new URLSearchParams(location.search);
  if (expanded) params.set(ACTIVITY_PARAM, ACTIVITY_ALL);
  else params.delete(ACTIVITY_PARAM);
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}#${ACTIVITY_ANCHOR}`;
}

/** The full-page log, also what 'Show more' fetches once JavaScript runs. */
export function activityPagePath(studioId: string): string {
  return `/sites/${encodeURIComponent(studioId)}/activity`;
}

/** "2024-05-01 12:34 UTC": the same text on the server and in the browser. */
export function absoluteTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const text = date.toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 16)} UTC`;
}
