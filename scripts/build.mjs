// Builds the app when the build is missing or older than its sources (used by `npm start` and by
// the test setup, which builds once so servers started by tests never build concurrently).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = [
  "app",
  "public",
  "vite.config.ts",
  "remix.config.js",
  "tailwind.config.ts",
  "postcss.config.js",
  "package.json",
];

/** @param {string} entry a path relative to the repository's root */
function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full))
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function buildIsStale() {
  const output = path.join(root, "build/server/index.js");
  if (!fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  return SOURCES.some((s) => newestMtime(s) > built);
}

/** Returns true when the build is fresh (built now or already). */
export function buildIfStale() {
  if (!buildIsStale()) return true;
  console.log("Building the dashboard (first start or sources changed)...");
  // Not the test runner's variables: VITEST switches the Remix plugin off. And always the
  // production build: under the test runner NODE_ENV is "test", which made Vite bundle React's
  // development build (measured: 55 KB more gzip on every page).
  const { VITEST: _v, VITEST_POOL_ID: _p, VITEST_WORKER_ID: _w, ...env } = process.env;
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"],
    { cwd: root, stdio: "inherit", env: { ...env, NODE_ENV: "production" } },
  );
  return result.status === 0;
}
