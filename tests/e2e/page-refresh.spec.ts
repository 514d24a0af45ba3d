import type { Page, TestInfo } from "@playwright/test";
import { expect, jsDisabled, test } from "./support/fixtures";
import { buildStateLabel, createProjectsThroughApi, reloadUntil } from "./support/lifecycle";

/**
 * The project pages keep themselves current, as an open tab sees them. With JavaScript, every
 * 60 s the page asks /sites/{id}/version?section= whether its data changed: while nothing did
 * the answer is 304 and nothing is reloaded; once someone changes what the page shows (a
 * deployment requested through the JSON API, a visitor's form submission), the next refresh
 * shows it without a reload of the page. The page's timers run on a clock the test moves.
 * Without JavaScript nothing refreshes: the page shows the change once it is loaded again.
 */

/** Watches the page's version checks (their statuses) and its data reloads. */
function watchRefreshes(page: Page, studioId: string, section: string) {
  const checks: number[] = [];
  const reloads: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (
      url.pathname === `/sites/${studioId}/version` &&
      url.searchParams.get("section") === section
    ) {
      checks.push(response.status());
    }
    if (url.pathname === `/sites/${section}/${studioId}.data`) reloads.push(url.search);
  });
  return { checks, reloads };
}

/** Someone is there (the refresh pauses for an idle person), and `ms` pass on the page's clock. */
async function passTime(page: Page, ms: number) {
  await page.mouse.move(10 + Math.floor(Math.random() * 100), 10);
  await page.clock.fastForward(ms);
}

/** Marks the loaded document: the mark is gone if the page is loaded again. */
async function markDocument(page: Page) {
  await page.evaluate(() => Object.assign(window, { loadedOnce: true }));
}
const stillTheSameDocument = (page: Page) => page.evaluate(() => "loadedOnce" in window);

async function signInAndCreate(
  page: Page,
  signIn: (page: Page, account: { name: string; email: string }) => Promise<void>,
  testInfo: TestInfo,
  prefix: string,
) {
  const tag = testInfo.project.name;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const origin = new URL(page.url()).origin;
  const [studioId] = await createProjectsThroughApi(
    page,
    origin,
    `${prefix} ${tag} ${Date.now()}`,
    1,
  );
  return { origin, studioId: studioId! };
}

test("a deployment requested through the API shows on the open Website page at its next refresh", async ({
  page,
  signIn,
}, testInfo) => {
  // A project's first deployment, then a second one, each built by the local provider's jobs.
  test.setTimeout(120_000);
  const js = !jsDisabled(testInfo);
  if (js) await page.clock.install();
  const { origin, studioId } = await signInAndCreate(page, signIn, testInfo, "Website refresh");
  const websitePage = `/sites/website/${studioId}`;
  const published = page.getByRole("region", { name: "Published deployment" });
  const earlier = page.getByRole("region", { name: "Earlier deployments" });

  // The project's first deployment is published a few seconds after it is created; once its
  // build is done the project stands still (until someone changes it).
  await reloadUntil(page, `/sites/${studioId}`, async () =>
    expect(await buildStateLabel(page)).toBe("Ready"),
  );
  await page.goto(websitePage);
  await expect(published.getByText("StackShift: first deployment", { exact: true })).toBeVisible();
  await expect(published).toContainText("(ready");
  const { checks, reloads } = watchRefreshes(page, studioId, "website");
  await markDocument(page);

  if (js) {
    // Half a minute (the dashboard's interval) asks nothing; a minute asks, and nothing changed.
    await passTime(page, 31_000);
    await passTime(page, 30_000);
    await expect.poll(() => checks).toEqual([304]);
    expect(reloads, "an unchanged refresh reloads nothing").toEqual([]);
  }

  const requested = await page.request.post("/api/app/deployments", {
    headers: { Origin: origin },
    data: { id: studioId },
  });
  expect(requested.status()).toBe(202);
  // The server publishes it once built (the open page is not asked: it waits for its minute).
  await expect
    .poll(async () => (await page.request.get(websitePage)).text(), { timeout: 60_000 })
    .toContain("<strong>StackShift: deployment</strong>");
  const newest = published.getByText("StackShift: deployment", { exact: true });
  await expect(newest).toHaveCount(0);

  if (js) {
    await passTime(page, 61_000);
    await expect(newest).toBeVisible();
    await expect(earlier).toContainText("StackShift: first deployment");
    expect(checks).toEqual([304, 200]);
    expect(reloads).toHaveLength(1);
    expect(await stillTheSameDocument(page), "shown without loading the page again").toBe(true);
  } else {
    await page.reload();
    await expect(newest).toBeVisible();
    await expect(earlier).toContainText("StackShift: first deployment");
  }
});

test("a visitor's form submission shows on the open Forms page at its next refresh", async ({
  page,
  signIn,
}, testInfo) => {
  const js = !jsDisabled(testInfo);
  if (js) await page.clock.install();
  const { origin, studioId } = await signInAndCreate(page, signIn, testInfo, "Forms refresh");
  const formsPage = `/sites/forms/${studioId}`;
  // Once its first build is done the project stands still (until someone changes it).
  await reloadUntil(page, `/sites/${studioId}`, async () =>
    expect(await buildStateLabel(page)).toBe("Ready"),
  );

  // The first view makes the site's Contact form; its address is where the site posts.
  await page.goto(formsPage);
  const contact = page.getByRole("table", { name: "Forms" }).getByRole("row", { name: /Contact/ });
  const endpoint = new URL(await contact.getByRole("cell").last().innerText());
  await page.goto(formsPage);
  await expect(page.getByText("No submissions yet.")).toBeVisible();
  const { checks, reloads } = watchRefreshes(page, studioId, "forms");
  await markDocument(page);

  if (js) {
    await passTime(page, 61_000);
    await expect.poll(() => checks).toEqual([304]);
    expect(reloads, "an unchanged refresh reloads nothing").toEqual([]);
  }

  const message = `Hello from a visitor ${Date.now()}`;
  const sent = await page.request.post(endpoint.pathname, {
    headers: { Origin: origin, Accept: "application/json" },
    form: { name: "Vera Visitor", email: "vera@example.com", message },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const submissions = page.getByRole("table", { name: /^Submissions of Contact/ });
  const row = submissions.getByRole("row").filter({ hasText: message });

  if (js) {
    await passTime(page, 61_000);
    await expect(row).toBeVisible();
    expect(checks).toEqual([304, 200]);
    expect(reloads).toHaveLength(1);
    expect(await stillTheSameDocument(page), "shown without loading the page again").toBe(true);
  } else {
    await expect(page.getByText("No submissions yet.")).toBeVisible();
    await page.reload();
    await expect(row).toBeVisible();
  }
});
