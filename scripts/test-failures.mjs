// The failed tests of a run and the first lines of each one's error, read from vitest's and
// Playwright's JSON reports, for the end of `npm test`: CI keeps only the tail of the output, and
// the tail must say why a test failed, not only which one.
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

/** The lines of an error worth reading at the end of a run. */
const LINES = 8;
/** More than this many failures are counted, not listed. */
const LISTED = 12;

/** @param {string | undefined} message */
function firstLines(message) {
  return stripVTControlCharacters(message ?? "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(0, LINES);
}

/**
 * @typedef {{ name: string, lines: string[] }} Failure
 */

/**
 * vitest's JSON report: a failed test, or a file that failed before its tests ran.
 * @param {any} report
 * @returns {Failure[]}
 */
export function vitestFailures(report) {
  /** @type {Failure[]} */
  const found = [];
  for (const file of report?.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter(
      (/** @type {any} */ t) => t.status === "failed",
    );
    for (const test of failedTests) {
      found.push({ name: test.fullName, lines: firstLines(test.failureMessages?.[0]) });
    }
    if (file.status === "failed" && failedTests.length === 0) {
      found.push({ name: file.name, lines: firstLines(file.message) });
    }
  }
  return found;
}

/**
 * Playwright's JSON report: a test whose last try did not end as expected.
 * @param {any} report
 * @returns {Failure[]}
 */
export function playwrightFailures(report) {
  /** @type {Failure[]} */
  const found = [];
  /** @param {any} suite */
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected" && test.status !== "flaky") continue;
        const failedTry = [...(test.results ?? [])]
          .reverse()
          .find((/** @type {any} */ r) => r.status !== "passed" && r.status !== "skipped");
        /** @type {any[]} */
        const errors = (failedTry?.errors ?? [failedTry?.error]).filter(Boolean);
        // Where the test stopped: the line of the test file the last error points at.
        const at = [...errors].reverse().find((e) => e.location)?.location;
        found.push({
          name: `[${test.projectName}] ${spec.file}:${spec.line} ${spec.title}`,
          // A timeout reports itself first and what was awaited second: both are kept.
          lines: [
            ...errors.slice(0, 2).flatMap((e) => firstLines(e.message)),
            ...(at ? [`at ${path.basename(at.file)}:${at.line}`] : []),
          ],
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report?.suites ?? []) walk(suite);
  return found;
}

/**
 * The lines to print: each failure's name and the first lines of its error.
 * @param {Failure[]} failures
 * @returns {string[]}
 */
export function failureLines(failures) {
  const lines = failures
    .slice(0, LISTED)
    .flatMap(({ name, lines: error }) => [`✗ ${name}`, ...error.map((line) => `    ${line}`)]);
  if (failures.length > LISTED) lines.push(`... and ${failures.length - LISTED} more failed`);
  return lines;
}
