import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Keyboard only: after signing in, a person creates a project, invites a member
 * and changes the invitation's role without a pointer - Tab to each control, Enter or Space to
 * use it, typing to choose an option - with JavaScript and without. Nothing here clicks.
 */

/** Presses Tab until `target` has the focus (at most `max` times), as a keyboard user would. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test("a project is created, a member invited and the role changed with the keyboard alone", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const run = Date.now().toString(36);
  const name = `Keys ${tag} ${run}`;
  const invitee = `keys-${tag}-${run}@example.com`;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });

  // Create New, from the project list.
  await page.goto("/sites");
  await tabTo(page, page.getByRole("main").getByRole("link", { name: "Create New" }).first());
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Create New" });
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByLabel("Name"));
  await page.keyboard.type(name);
  // A radio group is one Tab stop; the arrow keys choose within it.
  const enterprise = dialog.getByLabel("Enterprise");
  await tabTo(
    page,
    dialog.getByRole("radio", { checked: true }).or(dialog.getByRole("radio").first()).first(),
  );
  for (let i = 0; i < 4 && !(await enterprise.isChecked()); i += 1) {
    await page.keyboard.press("ArrowDown");
  }
  await expect(enterprise).toBeChecked();
  await tabTo(page, dialog.getByRole("button", { name: "Create", exact: true }));
  await page.keyboard.press("Enter");
  const confirm = dialog.getByRole("alertdialog");
  await expect(confirm).toContainText(`named "${name}"?`);
  await tabTo(page, confirm.getByRole("button", { name: "Yes, create" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText(`Project ${name} created!`).first()).toBeVisible();

  // Open its dashboard from the list.
  await page.goto("/sites");
  await tabTo(page, page.getByRole("link", { name, exact: true }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();

  // Invite an e-mail as Editor.
  const members = page.getByRole("region", { name: "Members" });
  await tabTo(page, members.getByLabel("Email"));
  await page.keyboard.type(invitee);
  const role = members.getByLabel("Role", { exact: true });
  await tabTo(page, role);
  await page.keyboard.type("Editor");
  await expect(role).toHaveValue("editor");
  await tabTo(page, members.getByRole("button", { name: "Send Invitation" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText(`Invitation sent to ${invitee}!`).first()).toBeVisible();
  const row = members.getByRole("row").filter({ hasText: invitee });
  await expect(row).toContainText("Invited");

  // Change the invitation's role to Developer.
  const rowRole = row.getByLabel(`Role of ${invitee}`, { exact: true });
  await tabTo(page, rowRole);
  await page.keyboard.type("Developer");
  await expect(rowRole).toHaveValue("developer");
  await tabTo(page, row.getByRole("button", { name: `Save the role of ${invitee}` }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Role updated!").first()).toBeVisible();
  await page.reload();
  await expect(
    members
      .getByRole("row")
      .filter({ hasText: invitee })
      .getByLabel(`Role of ${invitee}`, { exact: true }),
  ).toHaveValue("developer");
});
