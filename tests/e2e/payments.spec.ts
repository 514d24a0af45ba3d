import type { Page } from "@playwright/test";
import { expect, jsDisabled, test } from "./support/fixtures";
import { createProject } from "./support/members";

/**
 * Once with JavaScript and once without: from the dashboard's Active Integrations the owner opens
 * the project's Stripe accounts, is told 'Invalid API Version', has an invalid secret key refused
 * ('Stripe Secret Key Invalid: Account Not Added'), adds an account with a valid one ('Stripe
 * Secret Key Valid: Account Added'; only its last four characters shown), looks at its active
 * and archived products, and removes it through 'Remove {name}'.
 */

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

async function fillAccount(page: Page, secretKey: string, apiVersion = "") {
  const dialog = page.getByRole("dialog", { name: "Add Stripe Account" });
  await dialog.getByLabel("Account name").fill("Main shop");
  await dialog.getByLabel("Stripe publishable key").fill("pk_test_51Main0shop");
  await dialog.getByLabel("Stripe secret key").fill(secretKey);
  await dialog.getByLabel("API version").fill(apiVersion);
  return dialog;
}

test("an owner adds a Stripe account (refusals first) and removes it", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const projectName = `Payments ${tag} ${Date.now()}`;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, projectName);
  await page.goto(dashboard);
  const active = page.getByRole("region", { name: "Active Integrations" });
  await expect(active).toContainText("No Stripe account connected.");
  await active.getByRole("link", { name: "Manage Stripe accounts" }).click();
  await expect(page.getByRole("heading", { name: `Stripe for ${projectName}` })).toBeVisible();
  await expect(page.getByText("No Stripe account added yet.")).toBeVisible();

  // An API version without exactly two hyphens.
  await page.getByRole("link", { name: "Add Stripe Account" }).click();
  let dialog = await fillAccount(page, "sk_test_Valid0key1234", "2020-08");
  if (jsDisabled(testInfo)) {
    await dialog.getByRole("button", { name: "Add account" }).click();
    dialog = page.getByRole("dialog", { name: "Add Stripe Account" });
  } else {
    await expect(dialog.getByRole("button", { name: "Add account" })).toBeDisabled();
  }
  await expect(dialog.getByRole("alert")).toHaveText("Invalid API Version");

  // A secret key Stripe refuses.
  dialog = await fillAccount(page, "sk_test_invalid0key99");
  await dialog.getByRole("button", { name: "Add account" }).click();
  await expect(toast(page, "Stripe Secret Key Invalid: Account Not Added")).toBeVisible();
  await expect(page.getByText("No Stripe account added yet.")).toBeVisible();

  // A valid one.
  await page.getByRole("link", { name: "Add Stripe Account" }).click();
  dialog = await fillAccount(page, "sk_test_Valid0key1234");
  await dialog.getByRole("button", { name: "Add account" }).click();
  await expect(toast(page, "Stripe Secret Key Valid: Account Added")).toBeVisible();
  const table = page.getByRole("table", { name: `Stripe accounts of ${projectName}` });
  const row = table.getByRole("row").filter({ hasText: "Main shop" });
  await expect(row).toContainText("pk_test_51Main0shop");
  await expect(row).toContainText("1234");
  await expect(page.locator("body")).not.toContainText("sk_test_Valid0key1234");

  // Its products: the active tab first, then the archived one (each read when chosen).
  await row.getByRole("link", { name: "Products of Main shop" }).click();
  const panel = page.getByRole("tabpanel");
  await expect(page.getByRole("tab", { name: "Active Products" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  const starter = panel.getByRole("row").filter({ hasText: "Starter plan" });
  await expect(starter).toContainText("Recurring");
  await expect(starter).toContainText("$9.00");
  await expect(panel).not.toContainText("Consulting hour");
  await page.getByRole("tab", { name: "Archive Products" }).click();
  await expect(panel.getByRole("row").filter({ hasText: "Basic plan (2023)" })).toBeVisible();
  await expect(panel.getByRole("columnheader", { name: "Archived" })).toBeVisible();

  // Remove, through its confirmation.
  await row.getByRole("link", { name: "Remove Main shop" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Remove Main shop" });
  await confirm.getByRole("button", { name: "Yes, remove" }).click();
  await expect(toast(page, "Stripe account successfully removed from StackShift!")).toBeVisible();
  await expect(page.getByText("No Stripe account added yet.")).toBeVisible();
});
