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
  return loggablePathname(new URL(url).pathname);
}

/** A path (no query string) as logged: long segments replaced by ':redacted'. */
export function loggablePathname(pathname: string) {
  return pathname
    .split("/")
    .map((segment) => (segment.length >= LONG_SEGMENT ? ":redacted" : segment))
    .join("/");
}

/** What an unexpected error is logged with besides the error: the request's method and path. */
export function errorLogFields(request: Request) {
  return { method: request.method, path: loggablePath(request.url) };
}
