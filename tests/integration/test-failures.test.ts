/**
 * `npm test`'s closing summary names each failed test with the first lines of its error
 * (scripts/test-failures.mjs), read from vitest's and Playwright's JSON reports as they write them.
 */
import { describe, expect, it } from "vitest";
import { failureLines, playwrightFailures, vitestFailures } from "../../scripts/test-failures.mjs";

describe("the failures at the end of npm test", () => {
  it("names a failed vitest test with its error's first lines, and a file that failed to load", () => {
    const report = {
      testResults: [
        {
          name: "/repo/tests/integration/a.test.ts",
          status: "failed",
          message: "",
          assertionResults: [
            { fullName: "a passes", status: "passed", failureMessages: [] },
            {
              fullName: "a answers 204",
              status: "failed",
              failureMessages: [
                "\u001b[31mAssertionError: expected 500 to be 204\u001b[39m\n\n- Expected\n+ Received\n\n- 204\n+ 500\n    at a.test.ts:12:3\n    at b.ts:1:1\n    at c.ts:1:1\n    at d.ts:1:1",
              ],
            },
          ],
        },
        {
          name: "/repo/tests/integration/b.test.ts",
          status: "failed",
          message: "Error: Cannot find module './gone'\n    at b.test.ts:1:1",
          assertionResults: [],
        },
      ],
    };
    expect(vitestFailures(report)).toEqual([
      {
        name: "a answers 204",
        lines: [
          "AssertionError: expected 500 to be 204",
          "- Expected",
          "+ Received",
          "- 204",
          "+ 500",
          "    at a.test.ts:12:3",
          "    at b.ts:1:1",
          "    at c.ts:1:1",
        ],
      },
      {
        name: "/repo/tests/integration/b.test.ts",
        lines: ["Error: Cannot find module './gone'", "    at b.test.ts:1:1"],
      },
    ]);
  });

  it("names a Playwright test that failed or was flaky, with the timeout, what it awaited and where", () => {
    const result = (status: string, ...messages: string[]) => ({
      status,
      errors: messages.map((message) => ({ message })),
    });
    const report = {
      suites: [
        {
          suites: [
            {
              specs: [
                {
                  title: "the picker counts",
                  file: "badges-and-picker.spec.ts",
                  line: 85,
                  tests: [
                    { projectName: "js", status: "expected", results: [result("passed")] },
                    {
                      projectName: "no-js",
                      status: "unexpected",
                      results: [
                        {
                          status: "timedOut",
                          errors: [
                            { message: "Test timeout of 300000ms exceeded." },
                            {
                              message:
                                "Error: expect(locator).toBeVisible() failed\n\nLocator: getByText('120 projects')\nExpected: visible",
                              location: {
                                file: "/repo/tests/e2e/badges-and-picker.spec.ts",
                                line: 126,
                              },
                            },
                          ],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
        {
          specs: [
            {
              title: "members",
              file: "members.spec.ts",
              line: 28,
              tests: [
                {
                  projectName: "js",
                  status: "flaky",
                  results: [result("failed", "Error: mail to ivy@example.com"), result("passed")],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(playwrightFailures(report)).toEqual([
      {
        name: "[no-js] badges-and-picker.spec.ts:85 the picker counts",
        lines: [
          "Test timeout of 300000ms exceeded.",
          "Error: expect(locator).toBeVisible() failed",
          "Locator: getByText('120 projects')",
          "Expected: visible",
          "at badges-and-picker.spec.ts:126",
        ],
      },
      { name: "[js] members.spec.ts:28 members", lines: ["Error: mail to ivy@example.com"] },
    ]);
  });

  it("lists twelve failures and counts the rest", () => {
    const failures = Array.from({ length: 14 }, (_, i) => ({ name: `t${i}`, lines: ["boom"] }));
    const lines = failureLines(failures);
    expect(lines.filter((line) => line.startsWith("✗ "))).toHaveLength(12);
    expect(lines.at(-1)).toBe("... and 2 more failed");
    expect(lines.slice(0, 2)).toEqual(["✗ t0", "    boom"]);
  });
});
