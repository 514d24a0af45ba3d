import type { Page } from "@playwright/test";
import { expect, jsDisabled, settle, test } from "./support/fixtures";
import { createProject } from "./support/members";
import { toast } from "./support/toasts";

/**
 * Once with JavaScript and once without, on the newsletter page: the owner saves a template (a
 * missing body said beside the field, a taken name beside the name), renames it in its dialog and
 * deletes it after confirming; and a Verify that leaves the sender domain pending shows the toast
 * 'Verification in progress' beside 'Domain not verified'.
 */

const templates = (page: Page) => page.getByRole("region", { name: "Saved templates" });
const saveForm = (page: Page) => page.getByRole("form", { name: "Save a template" });
test("an owner saves, renames and deletes a newsletter template", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, `Templates ${tag} ${Date.now()}`);
  const studioId = dashboard.split("/").at(-1)!;
  await page.goto(`/sites/newsletter/${studioId}`);
  await expect(templates(page).getByText("No saved templates yet.")).toBeVisible();

  // A body of spaces only (past the browser's own 'required' without JavaScript): said beside
  // the field, nothing saved.
  await saveForm(page).getByLabel("Template name").fill("Weekly issue");
  await saveForm(page).getByLabel("Subject").fill("This week at the bakery");
  await saveForm(page).getByLabel("Body").fill("   ");
  await saveForm(page).getByRole("button", { name: "Save template" }).click();
  await expect(saveForm(page).getByText("Body is required")).toBeVisible();
  await saveForm(page).getByLabel("Body").fill("Fresh bread every morning.");
  await saveForm(page).getByRole("button", { name: "Save template" }).click();
  await expect(toast(page, "Template saved")).toBeVisible();
  const weekly = templates(page).getByRole("listitem", { name: "Weekly issue" });
  await expect(weekly).toContainText("This week at the bakery");
  await settle(page);

  // The same name in another case is taken.
  await saveForm(page).getByLabel("Template name").fill("WEEKLY ISSUE");
  await saveForm(page).getByLabel("Body").fill("Another body.");
  await saveForm(page).getByRole("button", { name: "Save template" }).click();
  await expect(saveForm(page).getByText("A template with this name already exists")).toBeVisible();
  await settle(page);

  // Rename in its dialog.
  await templates(page).getByRole("link", { name: "Rename Weekly issue" }).click();
  const rename = page.getByRole("alertdialog", { name: "Rename Weekly issue" });
  await rename.getByLabel("New name").fill("Friday letter");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(toast(page, "Template renamed")).toBeVisible();
  await expect(templates(page).getByRole("listitem", { name: "Friday letter" })).toBeVisible();
  await expect(templates(page).getByRole("listitem", { name: "Weekly issue" })).toHaveCount(0);
  await settle(page);

  // Delete asks first; Cancel keeps it.
  await templates(page).getByRole("link", { name: "Delete Friday letter" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Friday letter" });
  await confirm.getByRole("link", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(templates(page).getByRole("listitem", { name: "Friday letter" })).toBeVisible();
  await templates(page).getByRole("link", { name: "Delete Friday letter" }).click();
  await page
    .getByRole("alertdialog", { name: "Delete Friday letter" })
    .getByRole("button", { name: "Yes, delete" })
    .click();
  await expect(toast(page, "Template deleted")).toBeVisible();
  await expect(templates(page).getByText("No saved templates yet.")).toBeVisible();
});

test("Verify on a pending sender domain shows 'Verification in progress'", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, `Verifying ${tag} ${Date.now()}`);
  const studioId = dashboard.split("/").at(-1)!;
  await page.goto(`/sites/newsletter/${studioId}`);
  // A domain whose records never match stays pending (the local provider's trigger).
  const domain = `unverified.verifying${tag.replace(/\W/g, "")}${Date.now().toString(36)}.example`;
  await page.getByLabel("From e-mail").fill(`news@${domain}`);
  await page.getByRole("button", { name: "Save settings" }).click();
  await page.getByRole("button", { name: `Add ${domain}` }).click();
  await expect(page.getByRole("button", { name: `Verify ${domain}` })).toBeVisible();
  await settle(page);

  let release = () => {};
  if (!jsDisabled(testInfo)) {
    // With JavaScript the toast shows while the Verify post is on its way: hold it there.
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/sites\/newsletter\//, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
  }
  await page.getByRole("button", { name: `Verify ${domain}` }).click();
  if (!jsDisabled(testInfo)) {
    await expect(toast(page, "Verification in progress")).toBeVisible();
    await expect(toast(page, "Domain not verified")).toHaveCount(0);
    release();
  }
  // The answer: not verified yet, and verification goes on (the job checks again).
  await expect(toast(page, "Domain not verified")).toBeVisible();
  await expect(toast(page, "Verification in progress")).toBeVisible();
});
