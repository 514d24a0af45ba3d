import type { Page } from "@playwright/test";
import { AUTO_DEPLOY_PORT, PICKER_PORT } from "../../playwright.config";
import { expect, jsDisabled, test } from "./support/fixtures";
import {
  adminAccount,
  createProject,
  createProjectsThroughApi,
  reloadUntil,
  uniqueName,
} from "./support/lifecycle";

/**
 * Once with JavaScript and once without: a new project's entry in the
 * project list goes from 'In Progress' to 'Ready' (by the list's own refresh, or a reload) and
 * never shows 'UPGRADE REQUIRED'; the top bar's picker counts its matches and reaches the 120th
 * of 120 projects through 'Load more'.
 */

/** Waits for the picker server, busy with its queue, a while longer than the default. */
const slowExpect = expect.configure({ timeout: 30_000 });

/** A page on another test server (a watched browser context of the running project). */
async function openOn(openPage: (o: { baseURL: string }) => Promise<Page>, port: number) {
  const page = await openPage({ baseURL: `http://localhost:${port}` });
  return { context: page.context(), page };
}

/** The list's row of a project, found by its name link. */
const listRow = (page: Page, name: string) =>
  page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name, exact: true }) });

test("a new project's list entry goes from In Progress to Ready and never shows UPGRADE REQUIRED", async ({
  openPage,
  signIn,
}, testInfo) => {
  // The second server's deployments take 20 s a step, so 'In Progress' lasts long enough to
  // see; the list refreshes itself every 60 s.
  test.setTimeout(240_000);
  const { context, page } = await openOn(openPage, AUTO_DEPLOY_PORT);
  await signIn(page, adminAccount(testInfo));
  const name = uniqueName(testInfo, "Badges");
  const studioId = await createProject(page, name);

  // createProject ends on /sites with the new project listed.
  const row = listRow(page, name);
  const status = row.getByRole("list", { name: "Status" });
  await expect(status.getByText("In Progress", { exact: true })).toBeVisible();
  await expect(status.getByText("New", { exact: true })).toBeVisible();
  await expect(row.getByText("UPGRADE REQUIRED")).toHaveCount(0);

  if (jsDisabled(testInfo)) {
    await reloadUntil(
      page,
      "/sites",
      () => expect(status.getByText("Ready", { exact: true })).toBeVisible({ timeout: 500 }),
      150_000,
    );
  } else {
    // Without a reload: a marker on the window survives only if the page is never reloaded.
    await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
    await expect(status.getByText("Ready", { exact: true })).toBeVisible({ timeout: 150_000 });
    expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(
      true,
    );
  }
  await expect(status.getByText("In Progress", { exact: true })).toHaveCount(0);
  await expect(status.getByText("New", { exact: true })).toBeVisible();
  await expect(row.getByText("UPGRADE REQUIRED")).toHaveCount(0);

  // The dashboard agrees, and with no publish site address the navigation has no external link.
  await page.goto(`/sites/${encodeURIComponent(studioId)}`);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const badges = page.getByRole("list", { name: "Status" });
  await expect(badges.getByText("Ready", { exact: true })).toBeVisible();
  await expect(page.getByText("UPGRADE REQUIRED")).toHaveCount(0);
  const nav = page.getByRole("navigation", { name: "Project" });
  await expect(nav.getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(nav.getByRole("link", { name: /Published site/ })).toHaveCount(0);
  await context.close();
});

test("the picker counts its matches and reaches the 120th of 120 projects with Load more", async ({
  openPage,
  signIn,
}, testInfo) => {
  // This server provisions and deploys the 120 new projects (and the other browser project's
  // 120) while the test reads the picker: on a slow CI machine a page can take well over 10 s.
  test.setTimeout(300_000);
  const expect = slowExpect;
  const { context, page } = await openOn(openPage, PICKER_PORT);
  await signIn(page, adminAccount(testInfo, `picker-${testInfo.project.name}@example.com`));

  // 120 projects through the JSON API, with the page's session, in three groups made one after
  // another: 001-020, 021-070, 071-120. The picker lists the newest first, 50 a page, so each
  // group is one page: 120-071, then 070-021, then 020-001.
  const prefix = uniqueName(testInfo, "Picker");
  const origin = `http://localhost:${PICKER_PORT}`;
  await createProjectsThroughApi(page, origin, prefix, 120, 3, [20, 50, 50]);
  const projectLink = (scope: ReturnType<Page["getByRole"]>, n: string) =>
    scope.getByRole("link", { name: new RegExp(`^${prefix} ${n}\\b`) });

  await page.goto("/sites");
  let panel;
  if (jsDisabled(testInfo)) {
    // Before JavaScript the picker is a disclosure whose search is a GET form (?pq=).
    panel = page.getByRole("group").filter({ hasText: "Select project" });
    await panel.getByText("Select project").click();
    await panel.getByLabel("Find project").fill(prefix);
    await panel.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/[?&]pq=/);
  } else {
    await page.getByRole("button", { name: "Select project" }).click();
    panel = page.getByRole("dialog", { name: "Projects" });
    // The search answers after a short debounce; until then the picker shows the newest projects,
    // and a 'Load more' clicked before the answer would be dropped when it arrives.
    const searched = page.waitForResponse(
      (r) => new URL(r.url()).searchParams.get("q") === prefix.toLowerCase() && r.status() === 200,
    );
    await panel.getByLabel("Find project").fill(prefix);
    await searched;
  }
  await expect(panel.getByText("120 projects", { exact: true })).toBeVisible();
  await expect(projectLink(panel, "120")).toBeVisible();
  await expect(projectLink(panel, "071")).toBeVisible();
  await expect(projectLink(panel, "001")).toHaveCount(0);

  // Two pages more: 70..21, then 20..1. Without JavaScript each is a page of its own. This
  // server's queue is busy provisioning the 120 projects, so a page may take a while.
  await panel.getByRole("link", { name: "Load more" }).click();
  await expect(projectLink(panel, "021")).toBeVisible();
  await panel.getByRole("link", { name: "Load more" }).click();
  await expect(projectLink(panel, "001")).toBeVisible();
  await expect(panel.getByRole("link", { name: "Load more" })).toHaveCount(0);
  await expect(panel.getByText("120 projects", { exact: true })).toBeVisible();
  if (!jsDisabled(testInfo)) {
    // With JavaScript the pages are appended: all 120 are listed at once.
    await expect(panel.getByRole("list", { name: "Projects found" }).getByRole("link")).toHaveCount(
      120,
    );
  }

  // The 120th opens its dashboard.
  await projectLink(panel, "001").click();
  await expect(page.getByRole("heading", { name: `${prefix} 001`, level: 1 })).toBeVisible();
  await context.close();
});

test("the picker's list comes when it opens: fetched with JavaScript, 'Show my projects' without", async ({
  page,
  signIn,
}, testInfo) => {
  await signIn(page, adminAccount(testInfo));
  const name = uniqueName(testInfo, "Opened");
  await createProject(page, name);
  await page.goto("/sites");
  let panel;
  if (jsDisabled(testInfo)) {
    panel = page.getByRole("group").filter({ hasText: "Select project" });
    await panel.getByText("Select project").click();
    // The page came without the list: one link asks for it.
    await expect(panel.getByRole("list", { name: "Projects found" })).toHaveCount(0);
    await panel.getByRole("link", { name: "Show my projects" }).click();
    await expect(page).toHaveURL(/[?&]pq=/);
  } else {
    await page.getByRole("button", { name: "Select project" }).click();
    panel = page.getByRole("dialog", { name: "Projects" });
  }
  const found = panel.getByRole("list", { name: "Projects found" });
  await expect(found.getByRole("link", { name: new RegExp(`^${name}\\b`) })).toBeVisible();
  await found.getByRole("link", { name: new RegExp(`^${name}\\b`) }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
});

test("the picker shows the newest search's answer even when the list asked for earlier lands after it", async ({
  page,
  signIn,
}, testInfo) => {
  await signIn(page, adminAccount(testInfo));
  const prefix = uniqueName(testInfo, "Newest");
  const origin = new URL(page.url()).origin;
  await createProjectsThroughApi(page, origin, prefix, 2);
  // And one the search does not find, so the unsearched list differs from the searched one.
  await createProjectsThroughApi(page, origin, uniqueName(testInfo, "Other"), 1);
  const found = (panel: ReturnType<Page["getByRole"]>) =>
    panel.getByRole("list", { name: "Projects found" }).getByRole("link");

  if (jsDisabled(testInfo)) {
    // Without JavaScript one search is one page: nothing older can land after it.
    await page.goto("/sites");
    const panel = page.getByRole("group").filter({ hasText: "Select project" });
    await panel.getByText("Select project").click();
    await panel.getByLabel("Find project").fill(prefix);
    await panel.getByRole("button", { name: "Search" }).click();
    await expect(panel.getByText("2 projects", { exact: true })).toBeVisible();
    await expect(found(panel)).toHaveCount(2);
    return;
  }

  // The picker's first load (the newest projects, q=) waits for the browser to discover the
  // /resources/picker route; a search typed meanwhile does not cancel it. Held here: the first
  // discovery request, until the search has been answered, so the older answer lands last.
  let releaseDiscovery = () => {};
  const discoveryHeld = new Promise<void>((resolve) => (releaseDiscovery = resolve));
  let discoveries = 0;
  await page.route(
    (url) =>
      url.pathname === "/__manifest" && url.searchParams.getAll("p").includes("/resources/picker"),
    async (route) => {
      discoveries += 1;
      if (discoveries === 1) await discoveryHeld;
      await route.continue();
    },
  );
  const answers: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    // The fetcher's request is the route's data URL (/resources/picker.data?q=).
    if (url.pathname.startsWith("/resources/picker")) answers.push(url.searchParams.get("q") ?? "");
  });

  await page.goto("/sites");
  await page.getByRole("button", { name: "Select project" }).click();
  const panel = page.getByRole("dialog", { name: "Projects" });
  await expect.poll(() => discoveries).toBe(1);
  const searched = page.waitForResponse(
    (r) => new URL(r.url()).searchParams.get("q") === prefix.toLowerCase(),
  );
  await panel.getByLabel("Find project").fill(prefix);
  await searched;
  await expect(panel.getByText("2 projects", { exact: true })).toBeVisible();
  const newest = page.waitForResponse(
    (r) =>
      new URL(r.url()).pathname.startsWith("/resources/picker") &&
      new URL(r.url()).searchParams.get("q") === "",
  );
  releaseDiscovery();
  await newest;
  // Shown correctly, nothing changes on the page, so there is nothing to wait for: a moment in
  // which a wrong answer would be drawn (it was, in a frame, before the picker kept the newest).
  await page.waitForTimeout(500);
  // The race happened: the list asked for first was answered last.
  expect(answers).toEqual([prefix.toLowerCase(), ""]);
  // Its answer is not shown, and nothing is asked again.
  await expect(panel.getByText("2 projects", { exact: true })).toBeVisible();
  await expect(found(panel)).toHaveCount(2);
  await expect(panel.getByLabel("Find project")).toHaveValue(prefix.toLowerCase());
  expect(answers).toEqual([prefix.toLowerCase(), ""]);
});
