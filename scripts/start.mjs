// `npm start`: builds when the build is missing or older than the sources, then serves.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dev = process.argv.includes("--dev");

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

function buildIsStale() {
  const output = path.join(root, "build/server/index.js");
  if (!fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  const sources = [
    "app",
    "public",
    "vite.config.ts",
    "tailwind.config.ts",
    "postcss.config.js",
    "package.json",
  ];
  return sources.some((s) => newestMtime(s) > built);
}

if (!dev && buildIsStale()) {
  console.log("Building the dashboard (first start or sources changed)...");
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// React needs NODE_ENV on the server. Defaulting it here must not make a local run "production" in
// the contract's sense (where secrets become mandatory), so remember that it was implied.
if (!process.env.NODE_ENV) {
  process.env.NODE_ENV = dev ? "development" : "production";
  process.env.STACKSHIFT_IMPLIED_NODE_ENV = "1";
}
const { startServer } = await import("../server/index.mjs");
await startServer({ dev });
