import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { createProject } from "./support/members";

/**
 * Once with JavaScript and once without: the owner switches GPT on and off
 * through its confirmation, and Ecommerce, AI Newsletter and Social Media on; Visual Tests asks
 * for the Chromatic project token the first time and says what is wrong with a bad one ('Invalid
 * token format', beside the field and as a toast); the Activity Log shows the changes. End To End Tests: project-tools.spec.ts.
 */

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();
const addons = (page: Page) => page.getByRole("region", { name: "Add-ons" });

test("an owner switches add-ons through their confirmation, and sets Visual Tests up with a token", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const projectName = `Add-ons ${tag} ${Date.now()}`;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, projectName);
  await page.goto(dashboard);

  // GPT: off, asked, on.
  const gpt = addons(page).getByRole("switch", { name: "GPT" });
  await expect(gpt).toHaveAttribute("aria-checked", "false");
  await gpt.click();
  const confirm = page.getByRole("alertdialog", { name: "Enable GPT?" });
  await expect(confirm).toContainText(`GPT will be switched on for ${projectName}.`);
  await confirm.getByRole("button", { name: "Yes, enable" }).click();
  await expect(toast(page, `GPT enabled for ${projectName}.`)).toBeVisible();
  await expect(addons(page).getByRole("switch", { name: "GPT" })).toHaveAttribute(
    "aria-checked",
    "true",
  );

  // Cancel leaves it as it is; then off.
  await addons(page).getByRole("switch", { name: "GPT" }).click();
  const disable = page.getByRole("alertdialog", { name: "Disable GPT?" });
  await disable.getByRole("link", { name: "Cancel" }).click();
  await expect(disable).toHaveCount(0);
  await addons(page).getByRole("switch", { name: "GPT" }).click();
  await page
    .getByRole("alertdialog", { name: "Disable GPT?" })
    .getByRole("button", { name: "Yes, disable" })
    .click();
  await expect(toast(page, `GPT disabled for ${projectName}.`)).toBeVisible();
  await expect(addons(page).getByRole("switch", { name: "GPT" })).toHaveAttribute(
    "aria-checked",
    "false",
  );

  // The other plain add-ons: each through its confirmation.
  for (const label of ["Ecommerce", "AI Newsletter", "Social Media"]) {
    await addons(page).getByRole("switch", { name: label }).click();
    await page
      .getByRole("alertdialog", { name: `Enable ${label}?` })
      .getByRole("button", { name: "Yes, enable" })
      .click();
    await expect(toast(page, `${label} enabled for ${projectName}.`)).toBeVisible();
    await expect(addons(page).getByRole("switch", { name: label })).toHaveAttribute(
      "aria-checked",
      "true",
    );
  }

  // Visual Tests: the token dialog, a bad token, then a good one.
  await addons(page).getByRole("switch", { name: "Visual Tests" }).click();
  const setup = page.getByRole("alertdialog", { name: "Enable Visual Tests?" });
  await setup.getByLabel("Project token").fill("abc_123456789");
  await setup.getByRole("button", { name: "Yes, enable" }).click();
  await expect(
    page
      .getByRole("alertdialog", { name: "Enable Visual Tests?" })
      .getByText("Token must start with 'chpt_'"),
  ).toBeVisible();
  await expect(
    page.getByRole("alertdialog", { name: "Enable Visual Tests?" }).getByRole("alert"),
  ).toHaveText("Invalid token format");
  // And the specification's toast, where toasts show, outside the dialog (hidden from the
  // accessibility tree while the modal dialog is open, so counted with the hidden ones).
  const saidTwice = page
    .getByRole("alert", { includeHidden: true })
    .filter({ hasText: /^Invalid token format$/ });
  await expect(saidTwice).toHaveCount(2);
  await expect(saidTwice.last()).toBeVisible();
  const again = page.getByRole("alertdialog", { name: "Enable Visual Tests?" });
  await again.getByLabel("Project token").fill("chpt_0123456789abcdef");
  await again.getByRole("button", { name: "Yes, enable" }).click();
  await expect(toast(page, `Visual Tests enabled for ${projectName}.`)).toBeVisible();
  await expect(addons(page).getByRole("switch", { name: "Visual Tests" })).toHaveAttribute(
    "aria-checked",
    "true",
  );

  const log = page.getByRole("region", { name: "Activity Log" });
  await expect(log).toContainText("enabled Visual Tests");
});
