import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { createProject } from "./support/members";

/**
 * Once with JavaScript and once without: a new project's newsletter settings show the defaults;
 * the owner saves the sender and company, gets the test e-mail (through the SMTP test server),
 * adds the from-address's domain (its DNS records with the '@' host and the DMARC record), sees
 * 'Domain not verified' at first and 'Domain verified' once the local provider has checked; a
 * domain whose records never match stays 'Domain not verified'.
 */

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

async function saveSender(page: Page, fromEmail: string) {
  await page.getByLabel("From e-mail").fill(fromEmail);
  await page.getByLabel("Company name").fill("Corner Bakery");
  await page.getByLabel("Footer text").fill("Fresh bread every morning.");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toast(page, "Settings saved")).toBeVisible();
}

/** Verify until the toast says `title` (the local provider answers a few seconds after). */
async function verifyUntil(page: Page, domain: string, title: string) {
  await expect(async () => {
    await page.getByRole("button", { name: `Verify ${domain}` }).click();
    await expect(toast(page, title)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000, intervals: [2_000] });
}

test("an owner sets up the newsletter sender and verifies its domain", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const email = `admin-${tag}@example.com`;
  await signIn(page, { name: "Ada Admin", email });
  const dashboard = await createProject(page, `Newsletter ${tag} ${Date.now()}`);
  const studioId = dashboard.split("/").at(-1)!;
  await page.goto(`/sites/newsletter/${studioId}`);
  await expect(page.getByRole("heading", { name: "Newsletter", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Sender name")).toHaveValue("Newsletter");
  await expect(page.getByLabel("Brand colour", { exact: true })).toHaveValue("#296EFF");
  await expect(page.getByLabel("Show an unsubscribe link in the footer")).toBeChecked();

  const domain = `mail.bakery${tag.replace(/\W/g, "")}${Date.now().toString(36)}.example`;
  await saveSender(page, `news@${domain}`);
  await page.reload();
  await expect(page.getByLabel("From e-mail")).toHaveValue(`news@${domain}`);
  await expect(page.getByRole("figure", { name: "Newsletter preview" })).toContainText(
    "Fresh bread every morning.",
  );

  await page.getByRole("button", { name: "Send test e-mail" }).click();
  await expect(toast(page, "Test e-mail sent")).toBeVisible();
  expect(await waitForMail(email, /Corner Bakery/)).toContain("Fresh bread every morning.");

  await page.getByRole("button", { name: `Add ${domain}` }).click();
  await expect(toast(page, "Domain added")).toBeVisible();
  const records = page.getByRole("table", { name: `DNS records of ${domain}` });
  await expect(records.getByRole("cell", { name: "_dmarc", exact: true })).toBeVisible();
  await expect(records.getByRole("cell", { name: "@", exact: true }).first()).toBeVisible();
  await expect(records).toContainText("v=DMARC1; p=none;");
  await expect(page.getByText("Domain is not verified yet")).toBeVisible();

  await page.getByRole("button", { name: `Verify ${domain}` }).click();
  await expect(toast(page, "Domain not verified")).toBeVisible();
  await verifyUntil(page, domain, "Domain verified");
  await expect(page.getByRole("article", { name: domain })).toContainText("verified");

  // A domain whose records never match.
  const failing = `unverified.bakery${tag.replace(/\W/g, "")}${Date.now().toString(36)}.example`;
  await saveSender(page, `news@${failing}`);
  await page.getByRole("button", { name: `Add ${failing}` }).click();
  await expect(toast(page, "Domain added")).toBeVisible();
  await expect(async () => {
    await page.getByRole("button", { name: `Verify ${failing}` }).click();
    await expect(toast(page, "Domain not verified")).toBeVisible({ timeout: 3_000 });
    await expect(page.getByRole("article", { name: failing })).toContainText("do not match", {
      timeout: 1_000,
    });
  }).toPass({ timeout: 30_000, intervals: [2_000] });
});
