import { expect, logInOrSignUpWithForms, PASSWORD, test } from "./support/fixtures";
import { linkIn, waitForMail } from "./support/mail";

/**
 * Once with JavaScript and once without, on an account of its own: the user changes their name
 * (the user menu says it at once), ticks and unticks the studio splash preference (each kept on
 * a fresh load), signs out their session in another browser (that browser is sent to the login
 * page), and changes their password (the old one no longer logs in, the new one does).
 */
test("a user changes their name, splash preference and password and signs out another session", async ({
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

  const preferences = page.getByRole("region", { name: "Preferences" });
  const splash = preferences.getByLabel("Do not show the studio splash before opening a studio");
  await expect(splash).not.toBeChecked();
  await splash.check();
  await preferences.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByText("Preferences saved").first()).toBeVisible();
  await page.goto("/sites/user-settings");
  await expect(splash).toBeChecked();
  await splash.uncheck();
  await preferences.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByText("Preferences saved").first()).toBeVisible();
  await page.goto("/sites/user-settings");
  await expect(splash).not.toBeChecked();

  // The other browser's session: the row that is not this one.
  const sessions = page.getByRole("table", { name: "Your active sessions" });
  await expect(sessions.getByRole("row")).toHaveCount(3);
  await expect(sessions.getByText("This session")).toHaveCount(1);
  await sessions.getByRole("button", { name: /^Sign out/ }).click();
  await expect(page.getByText("Session signed out").first()).toBeVisible();
  await other.goto("/sites");
  await expect(other).toHaveURL(/\/auth\/login/);

  // A token made, and the other browser signed in again: 'Sign out everywhere else' ends that
  // session and revokes the token, says so and offers to make new ones (decision 040).
  await page.goto("/sites/user-settings/tokens");
  const newToken = page.getByRole("region", { name: "New token" });
  await newToken.getByLabel("Name").fill(`Deploys ${testInfo.project.name}`);
  await newToken.getByLabel(/^Read and write/).check();
  await newToken.getByLabel("Expires").selectOption({ label: "In 7 days" });
  await newToken.getByRole("button", { name: "Make token" }).click();
  await expect(
    page.getByRole("status", { name: `Your new token Deploys ${testInfo.project.name}` }),
  ).toBeVisible();
  await logInOrSignUpWithForms(other, account);
  await page.goto("/sites/user-settings");
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByText("Signed out everywhere else").first()).toBeVisible();
  const tokens = page.getByRole("region", { name: "API tokens" });
  await expect(tokens.getByRole("status")).toHaveText(
    "1 API token was revoked: scripts using it are refused from now on. Make new ones for the scripts you still use.",
  );
  await tokens.getByRole("link", { name: "Make new API tokens" }).click();
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
  await expect(
    page.getByRole("row").filter({ hasText: `Deploys ${testInfo.project.name}` }),
  ).toContainText("Revoked");
  await other.goto("/sites");
  await expect(other).toHaveURL(/\/auth\/login/);

  await page.goto("/sites/user-settings");
  const password = page.getByRole("region", { name: "Password" });
  await password.getByLabel("Current password", { exact: true }).fill(PASSWORD);
  await password.getByLabel("New password", { exact: true }).fill("a fresh longer password");
  await password.getByLabel("Repeat the new password").fill("a fresh longer password");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed").first()).toBeVisible();

  await other.getByLabel("Email").fill(account.email);
  await other.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await other.getByRole("button", { name: "Log in" }).click();
  await expect(
    other.getByRole("alert").filter({ hasText: "Invalid email or password" }),
  ).toBeVisible();
  await other.getByLabel("Password", { exact: true }).fill("a fresh longer password");
  await other.getByRole("button", { name: "Log in" }).click();
  await expect(other.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
});

/**
 * The e-mail change, once with JavaScript and once without: it needs the current password; the
 * link mailed to the new address only shows a page, whose button (in this signed-in browser)
 * makes the change; the old address gets a notice whose link restores it and signs out every
 * session.
 */
test("a user changes their e-mail with their password, and the old address can undo it", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  // A platform admin's address (playwright.config.ts), so the account may sign up.
  const account = { name: "Eve Email", email: `email-old-${testInfo.project.name}@example.com` };
  const next = `email-new-${testInfo.project.name}-${Date.now()}@example.com`;
  await signIn(page, account);

  await page.goto("/sites/user-settings");
  const profile = page.getByRole("region", { name: "Profile" });
  await profile.getByLabel("E-mail").fill(next);
  await profile.getByLabel("Current password").fill("not my password");
  await profile.getByRole("button", { name: "Change e-mail" }).click();
  await expect(profile.getByText("The current password is not right")).toBeVisible();
  await profile.getByLabel("E-mail").fill(next);
  await profile.getByLabel("Current password").fill(PASSWORD);
  await profile.getByRole("button", { name: "Change e-mail" }).click();
  await expect(page.getByText("Confirmation link sent").first()).toBeVisible();
  await expect(profile.getByText(`Waiting for confirmation of ${next}.`)).toBeVisible();

  // The link shows a page; the address changes only with its button.
  await page.goto(linkIn(await waitForMail(next, /\/auth\/email-change\//), "/auth/email-change/"));
  await expect(page.getByRole("heading", { name: "Confirm your new e-mail" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm new e-mail" }).click();
  await expect(page.getByText("E-mail address changed").first()).toBeVisible();
  await expect(page.getByText(`Your account, signed in as ${next}.`)).toBeVisible();

  // The old address is told, and its link undoes the change and signs every session out.
  const notice = await waitForMail(account.email, /\/auth\/email-revert\//);
  expect(notice).toContain(`from ${account.email} to ${next}`);
  await page.goto(linkIn(notice, "/auth/email-revert/"));
  await expect(page.getByRole("heading", { name: "Undo the e-mail change" })).toBeVisible();
  await page.getByRole("button", { name: `Restore ${account.email}` }).click();
  await expect(page.getByText("Your e-mail address is restored").first()).toBeVisible();
  await expect(page.getByText(/Your password no longer works/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/forgot/);

  // The password both knew is void (decision 040): it no longer signs in.
  await page.goto("/sites");
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Invalid email or password" }),
  ).toBeVisible();

  // Forgot password works for an account without one; the owner then signs in as before.
  await page.goto("/auth/forgot");
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(/we've sent a link to reset the password/).first()).toBeVisible();
  const reset = await waitForMail(account.email, /\/auth\/reset\//);
  await page.goto(linkIn(reset, "/auth/reset/"));
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
});

/**
 * E-mail change requests are limited per person (10 a day): the eleventh is refused beside the
 * E-mail field with the wait, once with JavaScript and once without.
 */
test("the eleventh e-mail change of a day is refused beside the E-mail field", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const account = { name: "Lee Limit", email: `email-limit-${testInfo.project.name}@example.com` };
  await signIn(page, account);
  const stamp = Date.now();
  await page.goto("/sites/user-settings");
  const profile = page.getByRole("region", { name: "Profile" });
  const ask = async (i: number) => {
    await profile
      .getByLabel("E-mail")
      .fill(`limit-${testInfo.project.name}-${stamp}-${i}@example.com`);
    await profile.getByLabel("Current password").fill(PASSWORD);
    await profile.getByRole("button", { name: "Change e-mail" }).click();
  };
  for (let i = 0; i < 10; i += 1) {
    await ask(i);
    await expect(
      profile.getByText(
        `Waiting for confirmation of limit-${testInfo.project.name}-${stamp}-${i}@`,
      ),
    ).toBeVisible();
  }
  await ask(10);
  const email = profile.getByLabel("E-mail");
  await expect(email).toHaveAccessibleDescription(
    /Too many e-mail changes asked today\. Please wait \d+ hours and try again\./,
  );
  await expect(email).toHaveAttribute("aria-invalid", "true");
});

/**
 * Once with JavaScript and once without: Delete account asks for the password in a dialog; a
 * wrong one is said beside the field and the dialog stays, the right one deletes the account and
 * sends the person to the login page, where the old password no longer signs in.
 */
test("a user deletes their account with their password, after a wrong one is refused beside the field", async ({
  page,
  signIn,
}, testInfo) => {
  const account = { name: "Dana Delete", email: `delete-${testInfo.project.name}@example.com` };
  await signIn(page, account);
  await page.goto("/sites/user-settings");
  await page.getByRole("link", { name: "Delete account" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete your account?" });
  const password = dialog.getByLabel("Your password");
  await password.fill("not my password");
  await dialog.getByRole("button", { name: "Yes, delete my account" }).click();
  await expect(dialog.getByText("The current password is not right")).toBeVisible();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/sites\/user-settings/);

  await dialog.getByLabel("Your password").fill(PASSWORD);
  await dialog.getByRole("button", { name: "Yes, delete my account" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByText("Your account has been deleted").first()).toBeVisible();

  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Invalid email or password" }),
  ).toBeVisible();
});
