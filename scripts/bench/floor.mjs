// The benchmark's floor: a page of the app shell with nothing of its own.

/** Where the floor page answers on the benchmark's server (scripts/bench/serve.mjs). */
export const FLOOR_PATH = "bench-floor";

/**
 * Adds to the route tree a child of the signed-in shell with no loader and an empty component,
 * so the benchmark can measure what any page costs before its own data and markup: the shell's
 * loader, route matching, the document's render and serialisation. Only the benchmark's server
 * adds it; the page is not in the client's manifest as a module of its own, so it is for the server's
 * figures only.
 *
 * @template {import("@remix-run/server-runtime").ServerBuild} Build
 * @param {Build} build
 * @returns {Build}
 */
export function withFloorRoute(build) {
  const parentId = "routes/_app";
  const sibling = build.assets.routes["routes/_app._index"];
  if (!build.routes[parentId] || !sibling)
    throw new Error("the floor needs the app shell's routes");
  const id = "bench-floor";
  return {
    ...build,
    routes: {
      ...build.routes,
      [id]: { id, parentId, path: FLOOR_PATH, module: { default: () => null } },
    },
    assets: {
      ...build.assets,
      routes: {
        ...build.assets.routes,
        [id]: {
          ...sibling,
          id,
          parentId,
          path: FLOOR_PATH,
          index: undefined,
          hasLoader: false,
          hasAction: false,
          hasClientLoader: false,
          hasClientAction: false,
          hasErrorBoundary: false,
        },
      },
    },
  };
}
