import { expect, test } from "./support/fixtures";
import {
  adminAccount,
  buildStateLabel,
  createProject,
  reloadUntil,
  statusBadges,
  uniqueName,
} from "./support/lifecycle";
import { waitForMail } from "./support/mail";

/**
 * Once with JavaScript and once without: a new project provisions and
 * deploys through the local providers and its dashboard shows the real progression; a forced
 * failure (a name with "fail-deploy", app/providers/hosting/local.server.ts) shows the failure page,
 * retry works, and the third failed retry lands on the permanent error page; the studio
 * activation card resends the invitation.
 */
const dashboard = (studioId: string) => `/sites/${encodeURIComponent(studioId)}`;

test.beforeEach(async ({ page, signIn }, testInfo) => {
  await signIn(page, adminAccount(testInfo));
});

test("a new project provisions and deploys, its dashboard shows the progression, Visit opens the site", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // "slow-deploy" makes each local deployment step five times longer (10 s on this server), so
  // the first view after creation sees the build in progress however slow the machine is.
  const name = uniqueName(testInfo, "Lifecycle slow-deploy");
  const studioId = await createProject(page, name);

  await page.goto(dashboard(studioId));
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(statusBadges(page).getByText("New")).toBeVisible();
  const builds = page.getByRole("table", { name: /Deployments of the site/ });

  // Reload until the latest deployment is published, noting each build state seen on the way.
  const seen: string[] = [];
  await reloadUntil(
    page,
    dashboard(studioId),
    async () => {
      const label = await buildStateLabel(page);
      if (label && seen.at(-1) !== label) seen.push(label);
      await expect(builds.getByRole("row").filter({ hasText: "Published" })).toHaveCount(1, {
        timeout: 500,
      });
      await expect(statusBadges(page).getByText("Ready", { exact: true })).toBeVisible({
        timeout: 500,
      });
    },
    60_000,
  );
  testInfo.annotations.push({ type: "build states", description: seen.join(" -> ") });
  // It did not start out finished: provisioning and the build showed first.
  expect(seen[0]).toMatch(/^(Getting Ready|In Progress)$/);
  expect(seen.at(-1)).toBe("Ready");
  await expect(page.getByRole("alert").filter({ hasText: "deployment" })).toHaveCount(0);
  await expect(
    page.getByRole("list", { name: "Hosting providers" }).getByText("Primary"),
  ).toBeVisible();

  // Visit opens the local provider's published site in a new tab.
  const [site] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("link", { name: `Visit ${name} (opens in a new tab)` }).click(),
  ]);
  await site.waitForLoadState();
  await expect(site.getByText("Published with StackShift")).toBeVisible();
  // The local site is named after the project's slug and studio id (siteName in provisioning).
  await expect(
    site.getByRole("heading", { name: new RegExp(`-${studioId}$`), level: 1 }),
  ).toBeVisible();
  await site.close();
});

test("a failing deployment leads to the failure page, retries, and after the third failed retry to the permanent error", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const name = uniqueName(testInfo, "fail-deploy");
  const studioId = await createProject(page, name);
  const failedPage = `${dashboard(studioId)}/failed-deployment`;
  const failedHeading = page.getByRole("heading", { name: "Oops! Failed Deployment..." });

  // The dashboard's banner leads to the failure page once the first deployment failed.
  const retryLink = page.getByRole("link", { name: "See what happened and retry the deployment" });
  await reloadUntil(page, dashboard(studioId), () =>
    expect(retryLink).toBeVisible({ timeout: 500 }),
  );
  await expect(statusBadges(page).getByText("Build Error")).toBeVisible();
  await retryLink.click();
  await expect(page).toHaveURL(new RegExp(`${failedPage}$`));
  await expect(failedHeading).toBeVisible();
  await expect(page.getByText("3 of 3 retries left.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go back to Dashboard" })).toBeVisible();

  for (const left of ["2 of 3 retries left.", "1 retry left.", null]) {
    await page.getByRole("button", { name: "Retry deploy" }).click();
    await expect(page.getByText("Retrying Deployment!").first()).toBeVisible();
    await expect(page.getByText("StackShift deploying once again...").first()).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();

    if (left) {
      // While the retry runs the page sends back to the dashboard; it fails again.
      await reloadUntil(page, failedPage, async () => {
        await expect(failedHeading).toBeVisible({ timeout: 500 });
        await expect(page.getByText(left)).toBeVisible({ timeout: 500 });
      });
    }
  }

  // The third retry failed too: the deployment error is permanent.
  const permanentHeading = page.getByRole("heading", {
    name: "Oops! Permanent Error Deployment...",
  });
  await reloadUntil(page, failedPage, () => expect(permanentHeading).toBeVisible({ timeout: 500 }));
  await expect(page).toHaveURL(new RegExp(`${dashboard(studioId)}/deployment-error$`));
  await expect(page.getByText("failed after 3 retries")).toBeVisible();
  await page.getByRole("link", { name: "Go back to Dashboard" }).click();
  await expect(page).toHaveURL(new RegExp(`${dashboard(studioId)}$`));
  await expect(page.getByRole("link", { name: "See the deployment error" })).toBeVisible();
});

test("the studio activation card resends the invitation after a confirmation", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const name = uniqueName(testInfo, "Studio");
  const studioId = await createProject(page, name);
  const email = `admin-${testInfo.project.name}@example.com`;
  // Provisioning the studio invites the owner: the invitation is mailed.
  await waitForMail(email, new RegExp(`invited to edit content in ${name}`));

  await page.goto(dashboard(studioId));
  const note = page.getByRole("note", { name: "Activate your studio" });
  await expect(note).toContainText(`Check your inbox (${email})`);

  // Cancel first: nothing is sent.
  await note.getByRole("link", { name: "Resend Invitation" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Resend Invitation?" });
  await expect(confirm).toContainText(`Sanity will email the invitation to ${email} again.`);
  await confirm.getByRole("link", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();

  await note.getByRole("link", { name: "Resend Invitation" }).click();
  await confirm.getByRole("button", { name: "Yes, resend" }).click();
  await expect(page.getByText("Sanity Email Resent!").first()).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`${dashboard(studioId)}$`));
});
