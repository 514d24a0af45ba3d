/**
 * Thrown HTTP answers that pages and resource routes share. A 404 is the answer for "not there"
 * and for "not yours" alike (never 403 for a project or an admin page), so ids cannot be probed;
 * the error boundaries show it as 'Not found' (app/components/route-error.tsx).
 */

/** Throws a 404 response: `notFound()` ends the loader or action where it is called. */
export function notFound(message = "Not Found", init?: ResponseInit): never {
  throw new Response(message, { statusText: "Not Found", ...init, status: 404 });
}

/**
 * Throws a response when `condition` is falsy (a 404 unless `init` says otherwise), and narrows
 * its type when it holds: `invariantResponse(project, "Project not found")`.
 */
export function invariantResponse(
  condition: unknown,
  message: string | (() => string) = "Not Found",
  init?: ResponseInit,
): asserts condition {
  if (condition) return;
  const status = init?.status ?? 404;
  throw new Response(typeof message === "function" ? message() : message, {
    ...init,
    status,
    statusText: init?.statusText ?? (status === 404 ? "Not Found" : undefined),
  });
}
