import { sanitizeProjectName } from "~/services/projects";

/** The longest search text a list reads, and the longest cursor. */
export const QUERY_MAX = 200;
export const CURSOR_MAX = 512;

/**
 * A list's search text as every list reads it: one line, NFC, without invisible characters,
 * spaces folded and trimmed (the project names' clean-up), lowercase, 200 characters at most. A
 * search only filters a list, so nothing in it is refused.
 */
export function searchText(raw: string | null | undefined): string {
  return sanitizeProjectName(raw ?? "")
    .toLowerCase()
    .slice(0, QUERY_MAX);
}

/**
 * A list's search and page from its address: `?q=` and `?cursor=` unless the page names them
 * otherwise (the picker's `pq`/`pcursor`, the forms' `after`). An empty cursor is the first page;
 * whether a cursor is one of ours is the list's own check.
 */
export function listParams(
  params: URLSearchParams,
  names: { q?: string; cursor?: string } = {},
): { query: string; cursor: string | null } {
  return {
    query: searchText(params.get(names.q ?? "q")),
    cursor: params.get(names.cursor ?? "cursor")?.slice(0, CURSOR_MAX) || null,
  };
}
