// The crash soak's command line (scripts/soak/crash.mjs), read once, when this module is first
// imported: every setting of a run, with the refusal of a bad value (exit 2), the seeded random
// generator that makes a run's kill moments and picks repeatable (--seed), and the log's prefix.
import { flag, option, wholeNumber } from "./lib.mjs";

export const ROLLING = flag("rolling");
export const ROLLS = wholeNumber("rolls", 3, { min: 1 });
// --rolling: SHUTDOWN_DELAY_SECONDS of the servers. 0 closes each listener at once, while the
// balancer still sends to it: requests arrive mid-shutdown and refused ones go elsewhere.
export const SHUTDOWN_DELAY = option("shutdown-delay", undefined);
export const KILLS = ROLLING ? 0 : wholeNumber("kills", 100);
export const PROJECTS = wholeNumber("projects", 60, { min: 1 });
export const CLIENTS = wholeNumber("clients", 4, { min: 1 });
export const INSTANCES = wholeNumber("instances", ROLLING ? 3 : 1, { min: 1 });
/** The longest a server lives between its health check and its kill. */
export const MAX_UP_MS = wholeNumber("max-uptime-ms", 3000, { min: 100 });
export const SEED = wholeNumber("seed", Math.floor(Math.random() * 1e9));
export const KEEP = flag("keep");
/** The share of kills that come while the restarted server is still starting. */
export const BOOT_KILLS = Number(option("boot-kills", "0.2"));
if (!(BOOT_KILLS >= 0 && BOOT_KILLS <= 1)) {
  console.error(`--boot-kills must be a share from 0 to 1, not "${option("boot-kills")}".`);
  process.exit(2);
}
// Local deployments step this often (queued, building, ready). Slower deployments make more
// projects still deploying when their automatic deployment is due (3 s after creation).
export const DEPLOY_STEP_SECONDS = wholeNumber("deploy-step-seconds", 1);
export const VERBOSE = !flag("quiet");
// `--pglite-from DIR`: start from a copy of a migrated DATA_DIR (the test suite's template).
export const PGLITE_FROM = option("pglite-from", undefined);
export const DB = option("db", ROLLING ? "postgres" : "both");
if (ROLLING && DB !== "postgres") {
  console.error("--rolling needs PostgreSQL: several instances share it.");
  process.exit(2);
}
if (!["postgres", "pglite", "both"].includes(DB)) {
  console.error(`--db must be postgres, pglite or both, not "${DB}".`);
  process.exit(2);
}

// A seeded generator, so a run's kill moments can be asked for again (--seed).
let seedState = SEED >>> 0;
export function random() {
  seedState = (seedState + 0x6d2b79f5) >>> 0;
  let t = seedState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
export const between = (/** @type {number} */ min, /** @type {number} */ max) =>
  min + random() * (max - min);

export const log = (/** @type {unknown[]} */ ...parts) =>
  console.log(`[soak:crash] ${parts.join(" ")}`);
