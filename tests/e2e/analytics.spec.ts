import { expect, test } from "./support/fixtures";
import { createProject, reloadUntil, uniqueName } from "./support/lifecycle";

/**
 * Once with JavaScript (the site's script sends a beacon) and once without (the site's
 * <noscript> pixel): a visitor coming from another site opens the published local site, and the
 * view appears on the project's Analytics page: the total, today's row of the day table, the
 * chart, the page and the referring site. The period can be changed, and a bad one is explained
 * beside its field.
 */
test("page views of the local published site appear in Analytics", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(150_000);
  await signIn(page, { name: "Ada Admin", email: `admin-${testInfo.project.name}@example.com` });
  const name = uniqueName(testInfo, "Analytics");
  const studioId = await createProject(page, name);
  const analyticsPage = `/sites/analytics/${studioId}`;
  const views = page.getByRole("region", { name: "Page views", exact: true });
  const days = page.getByRole("table", { name: "Page views per day" });

  await page.goto(analyticsPage);
  await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
  await expect(views.getByText("No page views in this period yet.")).toBeVisible();
  // 30 days and the header row.
  await expect(days.getByRole("row")).toHaveCount(31);
  await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(
    page.getByRole("region", { name: "Count views on your live site" }).locator("pre code"),
  ).toContainText(
    /<script defer src="http:\/\/localhost:\d+\/analytics\.js" data-site="[0-9a-f]{32}">/,
  );

  // The site is published a few seconds after the project is created (the Website page says
  // when, without visiting the site: every visit is a view).
  let siteUrl = "";
  await reloadUntil(
    page,
    `/sites/website/${studioId}`,
    async () => {
      const published = page.getByRole("region", { name: "Published deployment" });
      await expect(published).toContainText("(ready", { timeout: 500 });
      const address = page
        .getByRole("table", { name: "Where the site is served" })
        .getByRole("link");
      siteUrl = (await address.first().getAttribute("href")) ?? "";
    },
    60_000,
  );
  expect(siteUrl).toContain("/local/sites/");

  await page.goto(siteUrl, { referer: "https://news.example.org/stories/42?reader=jane" });
  await expect(page.getByText("Published with StackShift")).toBeVisible();

  await reloadUntil(page, analyticsPage, async () => {
    await expect(days.getByRole("row").last().getByRole("cell")).toHaveText("1", {
      timeout: 500,
    });
  });
  await expect(views).toContainText("1 page view,");
  await expect(page.getByRole("img", { name: /^Page views per day, .*: 1 in all$/ })).toBeVisible();
  await expect(
    page.getByRole("table", { name: "Top pages" }).getByRole("row", { name: "/ 1" }),
  ).toBeVisible();
  await expect(
    page
      .getByRole("table", { name: "Top referrers" })
      .getByRole("row", { name: "news.example.org 1" }),
  ).toBeVisible();

  await page.getByRole("link", { name: "Last 7 days" }).click();
  await expect(page.getByRole("link", { name: "Last 7 days" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(days.getByRole("row")).toHaveCount(8);
  await expect(days.getByRole("row").last().getByRole("cell")).toHaveText("1");

  const custom = page.getByRole("form", { name: "Custom period" });
  await custom.getByLabel("From").fill("2026-03-10");
  await custom.getByLabel("To").fill("2026-03-01");
  await custom.getByRole("button", { name: "Show" }).click();
  await expect(custom.getByLabel("To")).toHaveAccessibleDescription(
    "The end must be on or after the start",
  );
  await custom.getByLabel("From").fill("2026-03-01");
  await custom.getByLabel("To").fill("2026-03-03");
  await custom.getByRole("button", { name: "Show" }).click();
  await expect(days.getByRole("row")).toHaveCount(4);
  await expect(views).toContainText("0 page views");
});
