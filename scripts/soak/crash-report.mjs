// The crash soak's figures (scripts/soak/crash.mjs): one run's summary lines and what it lost or
// duplicated, as printed (tests/integration/crash-soak.test.ts reads these lines), whether a run
// failed, and with --record the same lines appended to docs/runs/soak-crash.md.
import { appendRunLog, machineLine } from "../run-log.mjs";
import { log } from "./crash-options.mjs";
import { flag } from "./lib.mjs";

/** @typedef {import("./crash-state.mjs").Result} Result */

/**
 * The summary lines of one database's run, as printed and (with --record) logged.
 * @param {Result} r
 */
export function summary(r) {
  const acked = r.acked.projects + r.acked.webhooks + r.acked.invitations + r.acked.acceptances;
  const lines = [
    `database: ${r.kind}, instances: ${r.instances}`,
    r.rolling
      ? `rolling restarts: ${r.restarts} (SIGTERM, each instance in turn), exits other than 0: ${r.badExits.length}`
      : `kills survived: ${r.restartFailed ? r.kills - 1 : r.kills}, restarts: ${r.restarts}`,
    ...(r.rolling
      ? [
          `requests failed: ${r.failedRequests.length}, connections refused and sent to another instance: ${r.rerouted}`,
          `at the SIGTERMs: requests under way ${r.stops.requests} (cut ${r.stops.requestsCut}), jobs finished ${r.stops.jobsFinished}, jobs given back ${r.stops.jobsGivenBack}`,
        ]
      : []),
    `writes acknowledged: ${acked} (projects ${r.acked.projects}, webhooks ${r.acked.webhooks}, invitations ${r.acked.invitations}, acceptances ${r.acked.acceptances})`,
    `writes found: ${r.found}`,
    `records lost: ${r.lost.length}`,
    `duplicates: ${r.duplicates.length}`,
    `projects final: ${r.final ?? 0}/${r.acked.projects} (success ${r.success ?? 0}), automatic deployments: ${r.autoDeploys ?? 0}`,
    `mails: ${r.mails ?? 0} (studio invitations ${r.studioMails ?? 0}), printed again after a kill: ${r.redelivered ?? 0}`,
    `webhook deliveries made: ${r.webhooks?.deliveries ?? 0}, received at the endpoint: ${r.webhooks?.arrived ?? 0}, sent again after a kill: ${r.webhooks?.repeated ?? 0}`,
    `answers 5xx (retried): ${r.serverErrors}, acceptances committed with their answer lost: ${r.acceptedUnacked ?? 0}`,
    `seconds: ${r.seconds}`,
  ];
  return lines;
}

/** @param {Result} r */
export function report(r) {
  for (const line of summary(r)) console.log(`[soak:crash]   ${line}`);
  for (const what of r.lost.slice(0, 20)) console.log(`[soak:crash]   LOST: ${what}`);
  for (const what of r.duplicates.slice(0, 20)) console.log(`[soak:crash]   DUPLICATE: ${what}`);
  for (const what of r.problems.slice(0, 20)) console.log(`[soak:crash]   PROBLEM: ${what}`);
  for (const what of r.failedRequests.slice(0, 20)) console.log(`[soak:crash]   FAILED: ${what}`);
  for (const what of r.badExits) console.log(`[soak:crash]   EXIT: ${what}`);
}

/**
 * Whether a run lost or duplicated anything, found a problem, or (--rolling) had a request fail
 * or an instance exit other than cleanly.
 * @param {Result} r
 */
export function failed(r) {
  return Boolean(
    r.lost.length ||
    r.duplicates.length ||
    r.problems.length ||
    r.failedRequests.length ||
    r.badExits.length,
  );
}

/**
 * `--record` (the npm scripts pass it): the figures go to docs/runs/soak-crash.md as printed.
 * @param {Result[]} results
 * @param {boolean} bad
 */
export function record(results, bad) {
  if (!flag("record")) return;
  const written = appendRunLog("soak-crash", {
    heading: "Crash soak runs (`npm run soak:crash`, `npm run soak:instances`)",
    title: `${bad ? "FAILED" : "ok"}: ${process.argv.slice(2).join(" ")}`,
    lines: [
      `Machine: ${machineLine({ packages: ["@electric-sql/pglite", "pg", "pg-boss"], databaseUrl: process.env.SOAK_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" })}.`,
      "",
      ...results.flatMap((r) => [...summary(r).map((line) => `- ${line}`), ""]),
    ],
  });
  log(`recorded in ${written}`);
}
