// `npm test`: lint, typecheck (app and tests; server and scripts' JSDoc; the client/ and cli/ packages), unit + integration tests (vitest: PostgreSQL when available, and
// PGlite), then browser tests (Playwright on Debian chromium, JavaScript on and off).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { failureLines, playwrightFailures, vitestFailures } from "./test-failures.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Not test-results/: Playwright empties that folder when it starts.
const reports = path.join(root, "test-reports");
fs.mkdirSync(reports, { recursive: true });
for (const f of ["vitest.json", "playwright.json"])
  fs.rmSync(path.join(reports, f), { force: true });

/**
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} [env] set beside the current environment
 */
function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1", ...env },
  });
  console.log(
    `--- ${label}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return result.status === 0;
}

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return true;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Browser tests need Debian chromium at ${CHROMIUM}: run 'sudo apt-get install chromium'.`,
    );
    return false;
  }
  console.log("Installing Debian chromium for the browser tests...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const install = spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], {
    stdio: "inherit",
    env,
  });
  if (update.status !== 0 || install.status !== 0 || !fs.existsSync(CHROMIUM)) {
    console.error(
      "Could not install chromium with apt-get: install the 'chromium' package and re-run.",
    );
    return false;
  }
  return true;
}

const bin = (/** @type {string} */ name) => path.join(root, "node_modules/.bin", name);
/** @type {[string, boolean][]} */
const results = [];
const only = process.argv.slice(2);
const want = (/** @type {string} */ step) => only.length === 0 || only.includes(step);

if (want("lint")) results.push(["lint", run("lint", bin("eslint"), ["."])]);
if (want("typecheck")) {
  results.push(["typecheck", run("typecheck", bin("tsc"), ["--noEmit"])]);
  // server/ and scripts/ are JavaScript: their JSDoc types are checked by a config of their own.
  results.push([
    "typecheck (server, scripts)",
    run("typecheck (server, scripts)", bin("tsc"), ["-p", "tsconfig.scripts.json"]),
  ]);
  // The workspace packages as Node loads them once built (NodeNext: imports end in .js).
  for (const config of ["client/tsconfig.build.json", "cli/tsconfig.check.json"]) {
    const label = `typecheck (${path.dirname(config)} package)`;
    results.push([label, run(label, bin("tsc"), ["-p", config, "--noEmit"])]);
  }
}
if (want("vitest")) {
  results.push([
    "vitest",
    run("unit + integration (vitest)", bin("vitest"), [
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${path.join(reports, "vitest.json")}`,
    ]),
  ]);
}
if (want("e2e")) {
  if (ensureChromium()) {
    results.push([
      "e2e",
      run("browser (playwright)", bin("playwright"), ["test"], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, "playwright.json"),
      }),
    ]);
  } else {
    results.push(["e2e", false]);
  }
}

// One summary for the whole run.
let passed = 0;
let failed = 0;
let skipped = 0;
/** @type {import("./test-failures.mjs").Failure[]} */
const failures = [];
try {
  const v = JSON.parse(fs.readFileSync(path.join(reports, "vitest.json"), "utf8"));
  failures.push(...vitestFailures(v));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
} catch {
  /* vitest did not run */
}
try {
  const p = JSON.parse(fs.readFileSync(path.join(reports, "playwright.json"), "utf8"));
  failures.push(...playwrightFailures(p));
  passed += p.stats.expected;
  failed += p.stats.unexpected + p.stats.flaky;
  skipped += p.stats.skipped;
} catch {
  /* playwright did not run */
}
console.log("\n=== summary ===");
for (const [step, ok] of results) console.log(`${ok ? "ok    " : "FAILED"} ${step}`);
for (const line of failureLines(failures)) console.log(line);
const failedSteps = results.filter(([, ok]) => !ok).length;
// A failed step with no failing test (lint, typecheck) still counts as a failure.
const reported = failed > 0 ? failed : failedSteps;
console.log(`Tests: ${passed} passed, ${reported} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failedSteps === 0 ? 0 : 1);
