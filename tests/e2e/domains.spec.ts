import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { createProject } from "./support/members";

/**
 * Once with JavaScript and once without: the owner of a new project opens
 * Domain Settings' dialog; an invalid domain keeps Confirm disabled (with JavaScript) or comes
 * back with its message beside the field (without); a valid one is set ('Custom domain set
 * successfully!'), shows pending with its DNS records, then verified once the local provider
 * sees it (LOCAL_DOMAIN_VERIFY_SECONDS, 5 by default); /sites/domains lists it; clearing it
 * reverts it ('Revert Domain', 'Custom domain reverted successfully!'); the Activity Log has both.
 */

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();
const domainSettings = (page: Page) => page.getByRole("region", { name: "Domain Settings" });

/** Reloads the dashboard until `check` passes (the site is created, the domain verified). */
async function reloadUntil(page: Page, check: () => Promise<void>, timeout = 60_000) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout, intervals: [1_000, 2_000] });
}

test("an owner sets a custom domain, sees it pending then verified and listed, and reverts it", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(150_000);
  const tag = testInfo.project.name;
  const run = Date.now();
  const projectName = `Domains ${tag} ${run}`;
  const domain = `www.site-${tag}-${run}.example`;

  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, projectName);
  await page.goto(dashboard);
  const settings = domainSettings(page);
  const edit = settings.getByRole("link", { name: /Edit the custom domain/ }).first();
  // The site is created by provisioning in the background: Edit appears once it exists.
  await reloadUntil(page, () => expect(edit).toBeVisible({ timeout: 1_000 }));
  await expect(settings).toContainText("None");

  // An invalid domain: Confirm stays disabled with JavaScript; the server refuses it without.
  await edit.click();
  const dialog = page.getByRole("dialog", { name: "Custom domain" });
  const field = dialog.getByLabel("Domain");
  await field.fill("https://shop.example.com/sale");
  const confirm = dialog.getByRole("button", { name: "Confirm" });
  if (tag === "js") {
    await expect(confirm).toBeDisabled();
  } else {
    await confirm.click();
    await expect(page.getByRole("dialog", { name: "Custom domain" })).toContainText(
      "Enter the domain only, without https:// or a path",
    );
  }

  // A valid one: set, pending, with the records to create.
  await page.getByRole("dialog", { name: "Custom domain" }).getByLabel("Domain").fill(domain);
  await page
    .getByRole("dialog", { name: "Custom domain" })
    .getByRole("button", { name: "Confirm" })
    .click();
  await expect(toast(page, "Custom domain set successfully!")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Custom domain" })).toHaveCount(0);
  await expect(settings).toContainText(domain);
  const records = settings.getByRole("table", { name: `DNS records for ${domain}` });
  await expect(records.getByRole("row").filter({ hasText: "CNAME" })).toContainText("www");

  // The local provider sees the records a few seconds later; the re-check job records it.
  await reloadUntil(page, () =>
    expect(settings.getByText("Verified")).toBeVisible({ timeout: 1_000 }),
  );
  await expect(settings).toContainText("Certificate issued");

  // /sites/domains lists it, with its project.
  await page.goto(`/sites/domains?q=${encodeURIComponent(`site-${tag}-${run}`)}`);
  const row = page.getByRole("row").filter({ hasText: domain });
  await expect(row).toContainText("Verified");
  await row.getByRole("link", { name: projectName }).click();
  await expect(page).toHaveURL(new RegExp(`${dashboard}$`));

  // Cleared, the button reverts.
  await domainSettings(page)
    .getByRole("link", { name: /Edit the custom domain/ })
    .first()
    .click();
  const again = page.getByRole("dialog", { name: "Custom domain" });
  await expect(again.getByLabel("Domain")).toHaveValue(domain);
  // With JavaScript the one button becomes 'Revert Domain' once the field is cleared; without
  // it, 'Revert Domain' is there beside Confirm.
  if (tag === "js") await again.getByLabel("Domain").fill("");
  await again.getByRole("button", { name: "Revert Domain" }).click();
  await expect(toast(page, "Custom domain reverted successfully!")).toBeVisible();
  await expect(domainSettings(page)).not.toContainText(domain);
  await expect(domainSettings(page)).toContainText("None");

  const log = page.getByRole("region", { name: "Activity Log" });
  await expect(log).toContainText(`reverted the custom domain ${domain}`);
});
