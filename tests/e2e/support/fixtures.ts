import { test as base, expect, type Page } from "@playwright/test";

/**
 * The test fixture every browser test uses: a page whose console errors and uncaught exceptions
 * (CSP violations, hydration errors) fail the test.
 */
export const test = base.extend<{ page: Page }>({
  page: async ({ page }, provide) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      // 4xx answers to bad input are expected and logged by the browser as failed loads.
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await provide(page);
    expect(problems, "browser console errors").toEqual([]);
  },
});

export { expect };

/** True when the running Playwright project has JavaScript disabled. */
export function jsDisabled(testInfo: { project: { name: string } }) {
  return testInfo.project.name === "no-js";
}
