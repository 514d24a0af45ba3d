// The Remix options of the dashboard, in the file the stack is known by. vite.config.ts passes them
// to the Remix Vite plugin (Vite mode, docs/decisions/001-remix-vite-mode.md), so there is one
// place for future flags and route files whichever way the app is built.

/** @type {import("@remix-run/dev").VitePluginConfig} */
export default {
  // Tests and stories next to routes are not routes.
  ignoredRouteFiles: ["**/*.test.{ts,tsx}", "**/.*"],
  // The server build the custom server (server/index.mjs) imports.
  buildDirectory: "build",
  serverBuildFile: "index.js",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
