import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import remixConfig from "./remix.config.js";

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
  plugins: [
    // The Remix options live in remix.config.js.
    !isTest && remix(remixConfig),
    tsconfigPaths(),
  ],
});
