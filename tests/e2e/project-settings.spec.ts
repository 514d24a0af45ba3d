import { expect, jsDisabled, pressWithProof, test } from "./support/fixtures";
import { createProject, uniqueName } from "./support/lifecycle";

/**
 * Once with JavaScript and once without: the owner renames a project on its Settings page (the
 * new name shows in its header) and deletes it by typing that name (the list no longer has it).
 */
test("an owner renames a project and deletes it", async ({ page, signIn }, testInfo) => {
  test.setTimeout(90_000);
  await signIn(page, { name: "Ada Admin", email: `admin-${testInfo.project.name}@example.com` });
  const name = uniqueName(testInfo, "Settings");
  const studioId = await createProject(page, name);
  await page.goto(`/sites/settings/${studioId}`);
  const renamed = `${name} renamed`;
  const nameSection = page.getByRole("region", { name: "Project name" });
  await nameSection.getByLabel("Name").fill(renamed);
  await nameSection.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText("Project renamed").first()).toBeVisible();
  await expect(page.getByText(renamed, { exact: true }).first()).toBeVisible();

  await page.getByRole("link", { name: "Delete project" }).click();
  const dialog = page.getByRole("alertdialog", { name: `Delete ${renamed}?` });
  const confirm = dialog.getByRole("button", { name: "Delete project" });
  await dialog.getByLabel(`Type ${renamed} to confirm`).fill("not the name");
  if (jsDisabled(testInfo)) {
    await confirm.click();
    await expect(
      page
        .getByRole("alertdialog")
        .getByText("Type the project's name exactly to delete it")
        .first(),
    ).toBeVisible();
  } else {
    await expect(confirm).toBeDisabled();
  }
  await page.getByRole("alertdialog").getByLabel(`Type ${renamed} to confirm`).fill(renamed);
  // Back from /auth/confirm (a session older than 10 minutes), the dialog holds the typed name.
  await pressWithProof(
    page,
    () => page.getByRole("alertdialog").getByRole("button", { name: "Delete project" }).click(),
    page.getByText(`Project ${renamed} deleted`).first(),
  );
  await expect(page).toHaveURL(/\/sites$/);
  await expect(page.getByRole("link", { name: renamed, exact: true })).toHaveCount(0);
  await page.goto(`/sites/${studioId}`);
  await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
});
