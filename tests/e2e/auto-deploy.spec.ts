import { AUTO_DEPLOY_PORT } from "../../playwright.config";
import { expect, test } from "./support/fixtures";
import { adminAccount, createProject, reloadUntil, uniqueName } from "./support/lifecycle";

/**
 * Automatic deployment, in the browser: on a server whose AUTO_DEPLOY_AFTER_MINUTES is 3
 * seconds and whose deployments are slow, a new project still in progress gets exactly one
 * automatic deployment, listed in its Site Builds.
 */
test("a project still deploying after the configured age gets one automatic deployment", async ({
  openPage,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const page = await openPage({ baseURL: `http://localhost:${AUTO_DEPLOY_PORT}` });
  const context = page.context();
  await signIn(page, adminAccount(testInfo));
  const name = uniqueName(testInfo, "Auto");
  const studioId = await createProject(page, name);
  const builds = page.getByRole("table", { name: /Deployments of the site/ });
  const rows = (title: string) => builds.getByRole("row").filter({ hasText: title });

  await reloadUntil(
    page,
    `/sites/${encodeURIComponent(studioId)}`,
    async () => {
      await expect(rows("StackShift: automatic deployment")).toHaveCount(1);
      await expect(rows("StackShift: first deployment")).toHaveCount(1);
    },
    60_000,
  );
  // Later sweeps must not deploy it again.
  await page.waitForTimeout(12_000);
  await page.reload();
  await expect(rows("StackShift: automatic deployment")).toHaveCount(1);
  await context.close();
});
