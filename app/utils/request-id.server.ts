import type { AppLoadContext } from "@remix-run/node";

/** The request's id (server/middleware.mjs), or null where no HTTP server made one (tests). */
export function requestIdOf(context: AppLoadContext | undefined | null): string | null {
  const id = context?.requestId;
  return typeof id === "string" && id ? id : null;
}

/**
 * Path segments this long are secrets or opaque keys (reset and confirmation tokens, invitation
 * keys), which do not belong in a log; ids people use (studio ids) are shorter.
 */
const LONG_SEGMENT = 24;

/** The path as logged: no query string, long segments replaced by ':redacted'. */
export function loggablePath(url: string) {
  const { pathname } = new URL(url);
  return pathname
    .split("/")
    .map((segment) => (segment.length >= LONG_SEGMENT ? ":redacted" : segment))
    .join("/");
}

/** The line an unexpected error is logged under: its request id first, to search the logs by. */
export function errorLogLine(request: Request, requestId: string | null | undefined) {
  return `[request ${requestId || "-"}] Unexpected error on ${request.method} ${loggablePath(request.url)}`;
}
