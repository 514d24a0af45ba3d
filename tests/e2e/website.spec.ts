import { expect, test } from "./support/fixtures";
import { createProject, reloadUntil, uniqueName } from "./support/lifecycle";

/**
 * Once with JavaScript and once without: on the Website page the owner redeploys a published
 * project (the new deployment is published when ready, the first becomes an earlier one) and
 * rolls back to the first, each through its confirmation.
 */
test("an owner redeploys the website and rolls it back", async ({ page, signIn }, testInfo) => {
  test.setTimeout(150_000);
  await signIn(page, { name: "Ada Admin", email: `admin-${testInfo.project.name}@example.com` });
  const name = uniqueName(testInfo, "Website");
  const studioId = await createProject(page, name);
  const websitePage = `/sites/website/${studioId}`;
  const published = page.getByRole("region", { name: "Published deployment" });
  const earlier = page.getByRole("region", { name: "Earlier deployments" });

  await reloadUntil(
    page,
    websitePage,
    async () => {
      await expect(published.getByRole("link", { name: "Redeploy" })).toBeVisible({ timeout: 500 });
      await expect(published).toContainText("(ready", { timeout: 500 });
    },
    60_000,
  );
  await expect(page.getByRole("table", { name: "Where the site is served" })).toContainText(
    "/local/sites/",
  );

  await published.getByRole("link", { name: "Redeploy" }).click();
  await page
    .getByRole("alertdialog", { name: "Redeploy the website?" })
    .getByRole("button", { name: "Yes, redeploy" })
    .click();
  await expect(page.getByText("Redeploy started").first()).toBeVisible();

  // Once the new deployment is published, the first one can be published again.
  await reloadUntil(
    page,
    websitePage,
    async () => {
      await expect(earlier.getByRole("link", { name: /^Roll back/ })).toHaveCount(1, {
        timeout: 500,
      });
    },
    60_000,
  );
  await earlier.getByRole("link", { name: /^Roll back/ }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Yes, roll back" }).click();
  await expect(page.getByText("Website rolled back").first()).toBeVisible();
  await expect(earlier.getByRole("link", { name: /^Roll back/ })).toHaveCount(1);
});
