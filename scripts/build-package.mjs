// `npm run build` of a workspace package (client/, cli/), run in its folder (npm's prepack runs
// it before `npm pack`): a clean dist/ from `tsc -p tsconfig.build.json`, the package's
// hand-kept declaration files copied beside the output (tsc does not copy them), and the
// package's `bin` files made executable.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = process.cwd();
const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
const dist = path.join(dir, "dist");

fs.rmSync(dist, { recursive: true, force: true });
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
  cwd: dir,
  stdio: "inherit",
});
if (result.status !== 0) process.exit(result.status ?? 1);

for (const file of fs.readdirSync(dir)) {
  if (file.endsWith(".d.ts")) fs.copyFileSync(path.join(dir, file), path.join(dist, file));
}
/** @type {Record<string, string>} */
const bins = typeof pkg.bin === "string" ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {});
for (const file of Object.values(bins)) fs.chmodSync(path.join(dir, file), 0o755);
console.log(`${pkg.name}@${pkg.version}: built ${path.relative(root, dist)}`);
