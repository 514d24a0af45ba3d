import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, jsDisabled, PASSWORD, settle, test } from "./support/fixtures";
import { codeFor } from "./support/totp";

/**
 * Once with JavaScript and once without, on an account of its own: the person sets up an
 * authenticator app from User Settings (the key as text beside the QR code, confirmed by a first
 * code) and sees ten recovery codes once; logging in then asks for a code after the password; a
 * wrong code and a code used before are refused; a recovery code signs in once and not twice.
 */

async function logInWithPassword(page: Page, email: string) {
  await page.goto("/auth/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
}

async function typeCode(page: Page, code: string) {
  await page.getByLabel("Authentication code or recovery code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

/** Signs this browser out by forgetting its cookies, once the page has settled. */
async function logOut(page: Page) {
  await settle(page);
  await page.context().clearCookies();
}

test("a person turns on an authenticator app and signs in with codes and a recovery code", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const account = { name: "Tess Totp", email: `twofactor-${testInfo.project.name}@example.com` };
  await signIn(page, account);

  await page.goto("/sites/user-settings");
  const section = page.getByRole("region", { name: "Two-factor sign-in" });
  await expect(section.getByText("Off: your password alone signs you in.")).toBeVisible();
  await section.getByRole("link", { name: "Manage two-factor sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor sign-in", level: 1 })).toBeVisible();

  const app = page.getByRole("region", { name: "Authenticator app" });
  await app.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(app.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await app.getByLabel("Set-up key").innerText()).replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  await app.getByLabel("Code from the app").fill("000000");
  await app.getByRole("button", { name: "Turn on" }).click();
  await expect(app.getByText(/This code is not right/)).toBeVisible();

  await app.getByLabel("Code from the app").fill(await codeFor(secret));
  await app.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = await codes.allInnerTexts();
  await expect(app.getByText(/^On since/)).toBeVisible();
  // Shown once: a fresh load lists how many are left, not the codes.
  await settle(page);
  await page.goto("/sites/user-settings/two-factor");
  await expect(page.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
  await expect(page.getByText("10 of 10 unused.")).toBeVisible();

  // The password alone no longer signs in: the code does.
  await logOut(page);
  await logInWithPassword(page, account.email);
  await typeCode(page, "123456");
  await expect(page.getByText("This code is not right, or it was used already")).toBeVisible();
  // The step's page, with its error showing, has no serious accessibility violation (axe runs
  // as a script in the page: with JavaScript only).
  if (!jsDisabled(testInfo)) {
    const axe = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual(
      [],
    );
  }
  const code = await codeFor(secret, 1);
  await typeCode(page, code);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();

  // The same code, on the next sign-in: refused.
  await logOut(page);
  await logInWithPassword(page, account.email);
  await typeCode(page, code);
  await expect(page.getByText("This code is not right, or it was used already")).toBeVisible();

  // A recovery code, once.
  await typeCode(page, recovery[0]);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  await expect(page.getByText("You signed in with a recovery code").first()).toBeVisible();
  await logOut(page);
  await logInWithPassword(page, account.email);
  await typeCode(page, recovery[0]);
  await expect(page.getByText("This code is not right, or it was used already")).toBeVisible();
  await typeCode(page, recovery[1]);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  await settle(page);
  await page.goto("/sites/user-settings/two-factor");
  await expect(page.getByText("8 of 10 unused.")).toBeVisible();
});
