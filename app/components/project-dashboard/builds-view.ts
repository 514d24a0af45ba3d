import type { DeploymentView } from "~/services/deployments/index.server";

/** Which page of builds was asked for: Netlify pages by number, Vercel by cursor. */
export type BuildsRequest = { page?: number; next?: string; prev?: string };

/** The Site Builds list as the dashboard's loader sends it. */
export type BuildsView =
  | {
      ok: true;
      request: BuildsRequest;
      results: DeploymentView[];
      latestDeployment: DeploymentView | null;
      pagination: { prev: string | null; next: string | null };
      isSiteOnVercel: boolean;
    }
  | {
      ok: false;
      request: BuildsRequest;
      message: string;
      /** The page or cursor asked for is not valid (the response is a 400). */
      invalid?: boolean;
      isSiteOnVercel: boolean;
    };

/** The dashboard URL of one page of builds; works as a plain link without JavaScript. */
export function buildsHref(studioId: string, request: BuildsRequest) {
  const params = new URLSearchParams();
  if (request.next) params.set("next", request.next);
  else if (request.prev) params.set("prev", request.prev);
  else if (request.page && request.page > 1) params.set("page", String(request.page));
  const query = params.toString();
  const path = `/sites/${encodeURIComponent(studioId)}`;
  return query ? `${path}?${query}` : path;
}

/** How many numbered page links show before the current one. */
const PAGES_BEFORE = 3;

export type PageLink = { label: string; page: number; current: boolean; rel?: "prev" | "next" };

/**
 * Numbered pages for page-numbered lists (Netlify): the current page, a few before it and the
 * next one when the provider says there is one. The provider gives no total, so no last page.
 */
export function numberedPages(current: number, hasNext: boolean): PageLink[] {
  const links: PageLink[] = [];
  for (let page = Math.max(1, current - PAGES_BEFORE); page <= current; page += 1) {
    links.push({ label: String(page), page, current: page === current });
  }
  if (hasNext) links.push({ label: String(current + 1), page: current + 1, current: false });
  return links;
}
