// The command line of `npm run bench` (./index.mjs) and what follows from it: the data set's
// size, how long each route is loaded, where the server listens, the run's database, and
// whether the figures are appended to docs/runs/bench.md.
import path from "node:path";

export const quick = process.argv.includes("--quick");
// `--no-append`: print only (CI runs `--quick --no-append` to keep the script working).
export const noAppend = process.argv.includes("--no-append");
// `--only TEXT`: measure only the routes whose label contains TEXT (with /healthz for the ratio).
export const only = (() => {
  const i = process.argv.indexOf("--only");
  return i === -1 ? undefined : process.argv[i + 1];
})();
// `--profile DIR`: the server writes a V8 CPU profile there when it stops (open it in Chrome's
// DevTools or speedscope); the figures of such a run are slower and are not appended.
export const profileDir = (() => {
  const i = process.argv.indexOf("--profile");
  return i === -1 ? undefined : path.resolve(process.argv[i + 1] ?? "bench-profile");
})();
export const PROJECTS = quick ? 10_000 : 100_000;
export const DURATION = quick ? 3 : 10;
export const PORT = Number(process.env.BENCH_PORT ?? 3400);
export const BASE = `http://127.0.0.1:${PORT}`;
export const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
export const dbName = `stackshift_bench_${Date.now()}`;
export const dbUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
})();
/** Lighthouse runs per page (`--lighthouse-runs N`); the figures are their medians. */
export const LIGHTHOUSE_RUNS = (() => {
  const i = process.argv.indexOf("--lighthouse-runs");
  return i === -1 ? 3 : Math.max(1, Number(process.argv[i + 1]) || 1);
})();
