import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import remixConfig from "./remix.config.js";
import { bundleStats } from "./scripts/bench/bundle-stats-plugin.mjs";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const isTest = process.env.VITEST === "true";

export default defineConfig({
  // PGlite ships WASM and data files it finds relative to its own module; bundling it breaks that.
  ssr: { external: ["@electric-sql/pglite", "pg-boss", "@node-rs/argon2"] },
  // Server-only native/WASM packages: the dev server's dependency scan must not try to bundle them
  // for the browser.
  optimizeDeps: { exclude: ["@node-rs/argon2", "@electric-sql/pglite", "pg-boss"] },
  build: {
    rollupOptions: {
      // Fewer, larger chunks: a first load fetched 28 files, most under 2 KB, each a request on
      // a slow mobile connection. Rollup merges chunks below this size into the ones that load
      // them wherever that runs no code earlier than before (docs/performance.md).
      output: { experimentalMinChunkSize: 8_000 },
    },
  },
  plugins: [
    // The Remix options live in remix.config.js.
    !isTest && remix(remixConfig),
    tsconfigPaths(),
    // What each browser chunk holds, for `npm run bench:bundle` (scripts/bench/bundle.mjs).
    process.env.BUNDLE_STATS === "1" && bundleStats(),
  ],
});
