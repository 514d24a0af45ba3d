import { expect, jsDisabled, test } from "./support/fixtures";
import { adminAccount } from "./support/lifecycle";

/**
 * How a page loads (docs/decisions/036-paint-before-scripts.md): the server's HTML paints first
 * and names no script to fetch; the page's modules are fetched once the browser has painted it,
 * and then it hydrates (without a hydration error: the fixtures fail a test on any console
 * error). Without JavaScript no script is fetched at all.
 */
test("the page paints before its scripts are fetched, then hydrates", async ({
  page,
  signIn,
}, testInfo) => {
  await signIn(page, adminAccount(testInfo));
  const response = await page.goto("/sites");
  expect(response?.status()).toBe(200);
  expect(await response?.text()).not.toMatch(/<link[^>]*modulepreload/);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();

  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
        .map((entry) => entry.startTime),
    );
  if (jsDisabled(testInfo)) {
    expect(await scripts()).toEqual([]);
    return;
  }
  // Hydrated: Remix's router is there once the entry has run.
  await page.waitForFunction(() => "__remixRouter" in window);
  const firstPaint = await page.evaluate(
    () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
  );
  expect(firstPaint).not.toBeNull();
  const starts = await scripts();
  expect(starts.length).toBeGreaterThan(0);
  expect(Math.min(...starts)).toBeGreaterThanOrEqual(firstPaint!);
});
