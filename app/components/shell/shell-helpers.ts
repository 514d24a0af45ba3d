/** Pure helpers behind the top bar; unit-tested in shell-helpers.test.ts. */
import type { Location, ShouldRevalidateFunction } from "@remix-run/react";
import { isLive, PICKER_COUNT_CAP, type ProjectBadge } from "~/services/projects";

/** Project names are shown cut to 27 characters. */
export const PROJECT_NAME_LIMIT = 27;

/** The picker's label: names longer than the limit are cut and get '...'. */
export function truncateProjectName(name: string, limit = PROJECT_NAME_LIMIT) {
  return name.length > limit ? `${name.slice(0, limit)}...` : name;
}

/** How many projects one page of the picker lists; 'Load more' and the search reach the rest. */
export const PICKER_LIMIT = 50;

/** What the picker needs of a project; the loaders send only this, not the whole summary. */
export type PickerProject = {
  studioId: string;
  name: string;
  /** The list's derived badge (project-status.ts): build state and 'New'. */
  badge: ProjectBadge;
  live: boolean;
};

/** One page of the picker's projects, keyset-paginated like the project list. */
export type PickerPage = {
  projects: PickerProject[];
  /** The search, lowercased; "" for none. */
  query: string;
  /** How many projects match the search, over all pages. */
  total: number;
  /** The cursor this page starts after, or null for the first page. */
  cursor: string | null;
  nextCursor: string | null;
};

/** 'Live' badge: the site finished creating and has a custom domain (project-status.ts). */
export const isLiveProject = isLive;

export function toPickerProject(project: {
  studioId: string;
  name: string;
  badge: ProjectBadge;
  live: boolean;
}): PickerProject {
  return {
    studioId: project.studioId,
    name: project.name,
    badge: project.badge,
    live: project.live,
  };
}

/** The picker's match count, e.g. '120 projects'. */
export function projectCount(total: number) {
  if (total > PICKER_COUNT_CAP) return `${PICKER_COUNT_CAP}+ projects`;
  return `${total} ${total === 1 ? "project" : "projects"}`;
}

/** /sites/{segment} pages that are not a project. */
const SITE_PAGES = new Set(["integrations", "domains", "support", "user-settings"]);
/** /sites/{section}/{studioId}: the project navigation pages (project-nav.tsx). */
const PROJECT_SECTIONS = new Set([
  "website",
  "analytics",
  "forms",
  "newsletter",
  "social-media",
  "settings",
]);

/** The studioId of the project the current page belongs to, if any. */
export function selectedStudioId(pathname: string): string | null {
  const parts = pathname.split("/").filter(Boolean);
  if (parts[0] !== "sites" || !parts[1]) return null;
  if (PROJECT_SECTIONS.has(parts[1])) return parts[2] ? decode(parts[2]) : null;
  if (SITE_PAGES.has(parts[1])) return null;
  return decode(parts[1]);
}

/** A malformed escape (/sites/%E0) names no project rather than throwing. */
function decode(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The current URL with some search params set or removed (null). How the URL-addressable menus
 * and dialogs open and close without JavaScript.
 */
export function urlWith(pathname: string, search: string, changes: Record<string, string | null>) {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** Search params that only open or close a part of the shell; they never change loader data. */
export const OVERLAY_PARAMS = ["drawer", "dialog", "menu"] as const;

/**
 * True when two URLs differ only in overlay params: the layout need not reload its projects just
 * because a drawer or dialog opened.
 */
export function onlyOverlayChanged(current: URL, next: URL) {
  if (current.pathname !== next.pathname) return false;
  const strip = (url: URL) => {
    const params = new URLSearchParams(url.search);
    for (const key of OVERLAY_PARAMS) params.delete(key);
    params.sort();
    return params.toString();
  };
  return strip(current) === strip(next);
}

/**
 * shouldRevalidate of the list and dashboard routes: opening or closing a drawer or dialog
 * (?dialog=, ?drawer=) changes nothing their loaders return, so it skips the reload; a form
 * submission or the periodic refresh (the same URL) still reloads.
 */
export const overlayShouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formAction,
  defaultShouldRevalidate,
}) => {
  if (!formAction && currentUrl.href !== nextUrl.href && onlyOverlayChanged(currentUrl, nextUrl)) {
    return false;
  }
  return defaultShouldRevalidate;
};

/**
 * shouldRevalidate of the root (the user, the colour mode, the toast, the time zone): a refresh
 * of the same address that no form caused (a page's periodic refresh, a loaded fetcher's reload)
 * changes none of it, so the refresh asks the server for the page's own data only. After a form
 * (with its toast) or on another address, it reloads as usual.
 */
export const documentShouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (!formMethod && currentUrl.href === nextUrl.href) return false;
  return defaultShouldRevalidate;
};

export type Theme = "light" | "dark";

export function otherTheme(theme: Theme): Theme {
  return theme === "dark" ? "light" : "dark";
}

/** Avatar letters: first and last word's initials ("Ada Lovelace" -> "AL"). */
export function initials(name: string) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const letters = words.length > 1 ? words[0][0] + words[words.length - 1][0] : words[0][0];
  return letters.toUpperCase();
}

/** The page the dialog was opened on, without the `?dialog=` that opened it. */
export function pageWithoutDialog(location: Pick<Location, "pathname" | "search">) {
  const params = new URLSearchParams(location.search);
  params.delete("dialog");
  params.delete("index");
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}`;
}
