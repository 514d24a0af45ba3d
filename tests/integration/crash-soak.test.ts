/**
 * Crashes and restarts (decision 023): the short version of `npm run soak:crash` (scripts/soak/
 * crash.mjs) with 5 kills (CRASH_SOAK_KILLS=N for more), on PostgreSQL when the run has it and on
 * PGlite always; the 100-kill runs are `npm run soak:crash` and `npm run soak:instances`. The script
 * SIGKILLs the real server under load and restarts it; every acknowledged write must be found,
 * every webhook delivery received, nothing duplicated, every project final and the job queue settled.
 */
import { spawn } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { childEnv } from "../helpers";

const postgres = Boolean(process.env.DATABASE_URL);

function runSoak(args: string[], env: Record<string, string> = {}) {
  // The servers the script starts take their database from its options, not this worker's.
  const { DATABASE_URL: _d, ...inherited } = childEnv(env);
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const proc = spawn(process.execPath, ["scripts/soak/crash.mjs", ...args], {
      env: inherited,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    proc.stdout.on("data", (d) => (output += d));
    proc.stderr.on("data", (d) => (output += d));
    proc.on("exit", (code) => resolve({ code, output }));
  });
}

/** The figures the script prints, by label. */
function figure(output: string, label: string) {
  const match = new RegExp(`${label}: (\\d+)`).exec(output);
  return match ? Number(match[1]) : undefined;
}

function expectSurvived({ code, output }: { code: number | null; output: string }) {
  // Printed whatever happens, so a failure shows what was lost.
  console.info(
    output
      .split("\n")
      .filter((l) => l.startsWith("[soak:crash]"))
      .join("\n"),
  );
  expect(figure(output, "kills survived")).toBe(KILLS);
  expect(figure(output, "records lost")).toBe(0);
  expect(figure(output, "duplicates")).toBe(0);
  const acknowledged = figure(output, "writes acknowledged");
  expect(acknowledged).toBeGreaterThan(0);
  expect(figure(output, "writes found")).toBe(acknowledged);
  // Each project's webhook got its member events: every delivery made reached the endpoint.
  const deliveries = figure(output, "webhook deliveries made");
  expect(deliveries).toBeGreaterThan(0);
  expect(figure(output, "received at the endpoint")).toBe(deliveries);
  expect(output).toContain("[soak:crash] ok");
  expect(code).toBe(0);
}

// A few projects and clients, and half the kills while the restarted server starts: the time
// goes into the restarts (about 10 s each on a busy 2-core machine), not the load. Five kills
// (two or three of them while booting) in `npm test`; the full-size runs are the soak scripts.
const KILLS = Number(process.env.CRASH_SOAK_KILLS ?? 5);
const SHORT = [
  ...["--kills", String(KILLS), "--projects", "6", "--clients", "3"],
  ...["--max-uptime-ms", "1500", "--boot-kills", "0.5", "--quiet"],
];

// Both at once: most of a run is waiting for a server to start.
describe.concurrent(`npm run soak:crash -- --kills ${KILLS}`, () => {
  it.runIf(postgres)(
    `PostgreSQL: ${KILLS} SIGKILLs under load lose and duplicate nothing`,
    async () => {
      const result = await runSoak([...SHORT, "--db", "postgres"], {
        SOAK_DATABASE_URL: inject("postgresAdminUrl"),
      });
      expectSurvived(result);
    },
    300_000,
  );

  it(`PGlite: ${KILLS} SIGKILLs under load lose and duplicate nothing, and the directory opens again`, async () => {
    // From a copy of the suite's migrated template: a fresh PGlite directory takes a while.
    const result = await runSoak([
      ...SHORT,
      "--db",
      "pglite",
      "--pglite-from",
      inject("pgliteTemplate"),
    ]);
    expectSurvived(result);
  }, 300_000);
});
