import type { Page } from "@playwright/test";
import { PICKER_PORT } from "../../playwright.config";
import { expect as baseExpect, jsDisabled, test } from "./support/fixtures";
import { createProjectsThroughApi } from "./support/lifecycle";

/**
 * Once with JavaScript and once without: the integrations catalogue's two entries; an
 * integration's projects found with 'Find StackShift to configure' (lowercased; sent by itself
 * after a pause with JavaScript, with Enter without), 'Load More' for the rest, and Configure
 * (a platform admin's path carries their user id) leading to the project's Stripe accounts.
 * On the picker's server, where a dozen more projects do not slow the other tests.
 */

// The picker's server provisions 120 projects meanwhile: on a busy CI machine a page there has
// taken over 10 s (the default wait) to come.
const expect = baseExpect.configure({ timeout: 30_000 });

const projectsList = (page: Page) => page.getByRole("list").filter({ hasText: "Configure" });

test("the catalogue, an integration's project search, Load More and Configure", async ({
  openPage,
  signIn,
}, testInfo) => {
  // On the busiest CI runs this shares its server with the picker test's 240 new projects.
  test.setTimeout(360_000);
  const tag = testInfo.project.name;
  const prefix = `Integrate ${tag} ${Date.now()}`;
  const origin = `http://localhost:${PICKER_PORT}`;
  const page = await openPage({ baseURL: origin });
  await signIn(page, { name: "Pia Picker", email: `picker-${tag}@example.com` });
  // Made in four groups, one after another (01, 02, 03-11 together, 12): the order the test
  // reads is the newest first (12, then 11-03 in any order) and the last page's 02, 01.
  await createProjectsThroughApi(page, origin, prefix, 12, 2, [1, 1, 9, 1]);

  await page.goto("/sites/integrations");
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  await expect(
    page.getByText("Connect your Stripe account to start accepting form payments."),
  ).toBeVisible();
  await expect(
    page.getByText("Connect your social media accounts to display public feed on your page."),
  ).toBeVisible();
  await page.getByRole("link", { name: "Choose a project for Stripe" }).click();
  await expect(page.getByRole("heading", { name: "Stripe", level: 1 })).toBeVisible();

  const search = page.getByRole("searchbox", { name: "Find StackShift to configure" });
  let releaseScripts = () => {};
  if (!jsDisabled(testInfo)) {
    // Typed before the page's scripts have run (a slow phone, a busy machine): once they run,
    // the search is taken up and sent like one typed afterwards.
    const held = new Promise<void>((resolve) => (releaseScripts = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload({ waitUntil: "commit" });
  }
  await search.fill(prefix.toUpperCase());
  releaseScripts();
  // Lowercased as typed with JavaScript; by the server without (the box then shows its search).
  if (jsDisabled(testInfo)) await search.press("Enter");
  await expect(page).toHaveURL(/[?&]q=integrate/i);
  await expect(search).toHaveValue(prefix.toLowerCase());
  const items = projectsList(page).getByRole("listitem");
  await expect(items).toHaveCount(10);
  await expect(items.first()).toContainText(`${prefix} 12`);

  await page.getByRole("link", { name: "Load More" }).click();
  if (jsDisabled(testInfo)) {
    // Without JavaScript the next page replaces this one.
    await expect(items).toHaveCount(2);
    await expect(page.getByText("Showing older projects.")).toBeVisible();
  } else {
    await expect(items).toHaveCount(12);
  }
  await expect(items.last()).toContainText(`${prefix} 01`);
  await expect(page.getByRole("link", { name: "Load More" })).toHaveCount(0);

  // Configure: the platform admin's path, then the project's Stripe accounts.
  const configure = page.getByRole("link", { name: `Configure ${prefix} 01` });
  await expect(configure).toHaveAttribute(
    "href",
    /^\/studios\/integrations\/payments\/[^/]+\/[0-9a-f-]{36}$/,
  );
  await configure.click();
  await expect(page.getByRole("heading", { name: `Stripe for ${prefix} 01` })).toBeVisible();
  await expect(page.getByText("No Stripe account added yet.")).toBeVisible();
});
