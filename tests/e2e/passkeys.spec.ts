import type { Page } from "@playwright/test";
import { expect, jsDisabled, test, type Account } from "./support/fixtures";

/**
 * Passkeys in the browser. With JavaScript: Chromium's virtual authenticator (the DevTools
 * protocol's WebAuthn domain, on http://localhost, a secure context) holds the passkey; it is
 * added in User Settings (the first factor shows its ten recovery codes once), renamed, used to
 * sign in from the login page without an e-mail, and deleted. Without JavaScript the pages say
 * that passkeys need it, and the section's list still shows.
 */
type SignIn = (page: Page, account: Account) => Promise<void>;

test("a passkey is added, signs in from the login page and is deleted; without JavaScript the pages say passkeys need it", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  if (jsDisabled(testInfo)) await withoutJavaScript(page, signIn);
  else await withJavaScript(page, signIn);
});

/** Chromium's virtual authenticator holds the passkey. */
async function withJavaScript(page: Page, signIn: SignIn) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  const account = { name: "Pia Passkeys", email: "passkeys-js@example.com" };
  await signIn(page, account);
  await page.goto("/sites/user-settings/two-factor");
  const section = page.getByRole("region", { name: "Passkeys" });
  await expect(section.getByText("You have no passkeys yet.")).toBeVisible();
  await section.getByLabel("Name of the new passkey").fill("Test laptop");
  await section.getByRole("button", { name: "Add a passkey" }).click();

  const codes = section.getByRole("region", { name: "Save these recovery codes" });
  await expect(codes).toBeVisible();
  await expect(codes.getByRole("listitem")).toHaveCount(10);
  await expect(codes).toContainText("not shown again");
  await expect(section.getByRole("status")).toHaveText("Passkey Test laptop added.");
  const row = section.getByRole("row").filter({ hasText: "Test laptop" });
  await expect(row).toContainText("Never");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0].isResidentCredential).toBe(true);

  // Renamed through its dialog.
  await row.getByRole("link", { name: "Rename Test laptop" }).click();
  const rename = page.getByRole("alertdialog", { name: "Rename Test laptop" });
  await rename.getByLabel("Name").fill("Virtual key");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Passkey renamed to Virtual key").first()).toBeVisible();
  await expect(section.getByRole("row").filter({ hasText: "Virtual key" })).toBeVisible();

  // Logged out, then back in with the passkey alone: no e-mail typed.
  await page.getByRole("button", { name: `User menu for ${account.name}` }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.goto("/auth/login?redirectTo=%2Fsites%2Fuser-settings%2Ftwo-factor");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/sites\/user-settings\/two-factor$/);
  const used = section.getByRole("row").filter({ hasText: "Virtual key" });
  await expect(used).not.toContainText("Never");

  // Deleted behind its confirmation: the account's last factor, so two-factor sign-in ends.
  await used.getByRole("link", { name: "Delete Virtual key" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Virtual key?" });
  await confirm.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(page.getByText("Passkey Virtual key deleted").first()).toBeVisible();
  await expect(section.getByText("You have no passkeys yet.")).toBeVisible();

  // The passkey the device still holds is refused now, with the reason beside the button.
  await page.getByRole("button", { name: `User menu for ${account.name}` }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not registered" })).toBeVisible();
}

async function withoutJavaScript(page: Page, signIn: SignIn) {
  await page.goto("/auth/login");
  await expect(page.getByText("Signing in with a passkey needs JavaScript.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);

  await signIn(page, { name: "Nico Passkeys", email: "passkeys-no-js@example.com" });
  await page.goto("/sites/user-settings/two-factor");
  const section = page.getByRole("region", { name: "Passkeys" });
  await expect(section.getByText("Adding and using passkeys needs JavaScript.")).toBeVisible();
  await expect(section.getByText("You have no passkeys yet.")).toBeVisible();
  await expect(section.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
}
