import { expect, logInOrSignUpWithForms, PASSWORD, test } from "./support/fixtures";

/**
 * Once with JavaScript and once without, on an account of its own: the user changes their name
 * (the user menu says it at once), signs out their session in another browser (that browser is
 * sent to the login page), and changes their password (the old one no longer logs in, the new
 * one does).
 */
test("a user changes their name and password and signs out another session", async ({
  page,
  signIn,
  openPage,
}, testInfo) => {
  test.setTimeout(120_000);
  const account = { name: "Sam Settings", email: `settings-${testInfo.project.name}@example.com` };
  await signIn(page, account);
  const other = await openPage({ label: "the other browser" });
  await logInOrSignUpWithForms(other, account);

  await page.goto("/sites/user-settings");
  await expect(page.getByRole("heading", { name: "User Settings", level: 1 })).toBeVisible();
  const profile = page.getByRole("region", { name: "Profile" });
  await profile.getByLabel("Name").fill("Samantha Settings");
  await profile.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Name saved").first()).toBeVisible();
  await expect(
    page.getByRole("banner").getByLabel("User menu for Samantha Settings"),
  ).toBeVisible();

  // The other browser's session: the row that is not this one.
  const sessions = page.getByRole("table", { name: "Your active sessions" });
  await expect(sessions.getByRole("row")).toHaveCount(3);
  await expect(sessions.getByText("This session")).toHaveCount(1);
  await sessions.getByRole("button", { name: /^Sign out/ }).click();
  await expect(page.getByText("Session signed out").first()).toBeVisible();
  await other.goto("/sites");
  await expect(other).toHaveURL(/\/auth\/login/);

  const password = page.getByRole("region", { name: "Password" });
  await password.getByLabel("Current password", { exact: true }).fill(PASSWORD);
  await password.getByLabel("New password", { exact: true }).fill("a fresh longer password");
  await password.getByLabel("Repeat the new password").fill("a fresh longer password");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed").first()).toBeVisible();

  await other.getByLabel("Email").fill(account.email);
  await other.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await other.getByRole("button", { name: "Log in" }).click();
  await expect(other.getByText("Invalid email or password")).toBeVisible();
  await other.getByLabel("Password", { exact: true }).fill("a fresh longer password");
  await other.getByRole("button", { name: "Log in" }).click();
  await expect(other.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
});
