// Unexpected errors of the pages' loaders and actions, answered with the request's id; and the
// route that answered a request, noted for its log line.

/**
 * Remix replaces an unexpected error by a bare "Unexpected Server Error" before an error boundary
 * sees it (production hides internals), so the page could not say which log line is its own.
 * This wraps the loader and action of every page route (a route with a component; resource
 * routes such as the JSON API keep Remix's answer) so that such an error is reported through the
 * build's `handleError` (app/entry.server.tsx logs it with the request id) and then thrown as a
 * 500 response whose body is `{ requestId }`: the error boundary shows that id
 * (app/components/route-error.tsx). Thrown responses (redirects, 404s, `data()` answers) and
 * aborted requests pass through untouched.
 *
 * @template {import("@remix-run/server-runtime").ServerBuild} Build
 * @param {Build} build
 * @returns {Build}
 */
export function instrumentBuild(build) {
  const handleError =
    build.entry.module.handleError ?? ((/** @type {unknown} */ error) => console.error(error));
  /** @type {Record<string, import("@remix-run/server-runtime").ServerBuild["routes"][string]>} */
  const routes = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const mod = route.module;
    if (!mod.loader && !mod.action) {
      routes[id] = route;
      continue;
    }
    const depth = depthOf(build.routes, id);
    /**
     * @param {(args: any) => unknown} handler
     * @returns {any} the module's loader or action type, which the wrapper keeps
     */
    const wrap = (handler) => {
      const noted = notingRoute(handler, id, depth);
      // Resource routes (no component, such as the JSON API) keep Remix's answer to an error.
      return mod.default ? withRequestId(noted, handleError) : noted;
    };
    routes[id] = {
      ...route,
      module: {
        ...mod,
        loader: mod.loader ? wrap(mod.loader) : undefined,
        action: mod.action ? wrap(mod.action) : undefined,
      },
    };
  }
  return { ...build, routes };
}

/**
 * How deep a route sits (root: 0).
 * @param {Record<string, { parentId?: string } | undefined>} routes
 * @param {string} id
 */
function depthOf(routes, id) {
  let depth = 0;
  for (let at = routes[id]?.parentId; at; at = routes[at]?.parentId) depth += 1;
  return depth;
}

/**
 * Notes on the request log's record (the load context's requestRecord, server/middleware.mjs)
 * the deepest route whose loader or action ran: the page (or resource route) that answered.
 * A page without a loader of its own is logged as the nearest layout that has one.
 * @param {(args: any) => unknown} handler
 * @param {string} id
 * @param {number} depth
 * @returns {(args: any) => unknown}
 */
function notingRoute(handler, id, depth) {
  return (/** @type {any} */ args) => {
    const record = args.context?.requestRecord;
    if (record && (record.routeDepth === undefined || depth > record.routeDepth)) {
      record.routeId = id;
      record.routeDepth = depth;
    }
    return handler(args);
  };
}

/**
 * One loader or action, answering its unexpected errors as described above.
 * @param {(args: any) => unknown} handler
 * @param {(error: unknown, args: any) => void} handleError
 * @returns {(args: any) => Promise<unknown>}
 */
export function withRequestId(handler, handleError) {
  return async (/** @type {any} */ args) => {
    try {
      return await handler(args);
    } catch (error) {
      if (isAnswer(error) || args.request?.signal?.aborted) throw error;
      // A page whose loader met the second-factor rule without answering it itself (most do,
      // through app/web/project-loader.server.ts): the same 403 page, never a 500.
      const refusal = secondFactorRefusal(error);
      if (refusal) throw refusal;
      handleError(error, args);
      const requestId = args.context?.requestId ?? null;
      throw Response.json({ requestId }, { status: 500, statusText: "Internal Server Error" });
    }
  };
}

/**
 * app/services/two-factor/required.server.ts's SecondFactorRequiredError as the page's 403
 * (app/web/second-factor.server.ts answers it the same way), else null.
 * @param {unknown} error
 */
function secondFactorRefusal(error) {
  if (!(error instanceof Error) || error.name !== "SecondFactorRequiredError") return null;
  const reason = /** @type {{ reason?: unknown }} */ (error).reason;
  return Response.json(
    {
      secondFactorRequired: reason,
      message: error.message,
      setupPath: "/sites/user-settings/two-factor",
    },
    { status: 403 },
  );
}

/** A response (redirect, 404), a `data()` answer or an error response: meant, not a failure. */
function isAnswer(/** @type {unknown} */ value) {
  if (value instanceof Response) return true;
  if (!value || typeof value !== "object") return false;
  const v = /** @type {Record<string, unknown>} */ (value);
  return (
    v.type === "DataWithResponseInit" ||
    (typeof v.status === "number" && typeof v.statusText === "string" && "internal" in v)
  );
}
