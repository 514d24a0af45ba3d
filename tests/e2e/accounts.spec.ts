import { expect, settle, test } from "./support/fixtures";
import { linkIn, waitForMail } from "./support/mail";

/**
 * Accounts you can trust, as a person meets them (JavaScript on and off, rate limits on): a
 * signup confirms its address (the mailed link's page, with the signup's password) before it can
 * log in, and wrong passwords lock only that account
 * from that address, with a message that says when to retry.
 */
const PASSWORD = "a long enough password";

test("a new platform admin confirms the address before logging in, with Resend", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = `verify-${testInfo.project.name}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("Name").fill("Vera Verified");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();
  const first = linkIn(await waitForMail(email, /\/auth\/verify\//), "/auth/verify/");

  // Logging in before confirming says why, and offers the mail again.
  await page.goto("/auth/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    `Confirm your email address first: open the link we sent to ${email}.`,
  );
  await page.getByRole("button", { name: "Resend confirmation email" }).click();
  // The login's failure may still be up as a toast (its own status region): find the answer by text.
  await expect(page.getByRole("status").filter({ hasText: "we sent a new link" })).toBeVisible();
  let second = first;
  await expect
    .poll(async () => {
      second = linkIn(await waitForMail(email, /\/auth\/verify\//), "/auth/verify/");
      return second;
    })
    .not.toBe(first);

  // The older link no longer works.
  await page.goto(first);
  await expect(
    page.getByRole("heading", { name: "This confirmation link cannot be used" }),
  ).toBeVisible();
  // The newest one only shows a page (a mail scanner opening it creates nothing, signs no one in).
  await page.goto(second);
  await expect(page.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await expect(page.getByText(`the StackShift account for ${email}`)).toBeVisible();
  await page.goto("/sites");
  await expect(page).toHaveURL(/\/auth\/login/);
  // Confirming needs the password chosen at signup; a wrong one is said beside the field.
  await page.goto(second);
  await page.getByLabel("Password").fill("not the signup password");
  await page.getByRole("button", { name: "Confirm email" }).click();
  await expect(
    page.getByText("This is not the password you chose when you signed up."),
  ).toBeVisible();
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Confirm email" }).click();
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  await expect(page.getByText("Your email is confirmed").first()).toBeVisible();
  // A platform admin once confirmed: the admin page is there.
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Manage Request for Access" })).toBeVisible();
});

test("wrong passwords lock that account from this address and say when to retry", async ({
  page,
}) => {
  const email = `nobody-${Date.now()}@example.com`;
  // Each try waits for its own answer, so the counts arrive in order.
  const attempt = async (password: string) => {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await Promise.all([
      page.waitForResponse(
        (r) => r.url().includes("/auth/login") && r.request().method() === "POST",
      ),
      page.getByRole("button", { name: "Log in" }).click(),
    ]);
    // And the page has taken the answer in (its data reloaded) before the next try, as a person
    // reads the message first: a try sent meanwhile cuts that reload off.
    await settle(page);
  };
  await page.goto("/auth/login");
  for (let i = 0; i < 5; i += 1) {
    await attempt(`wrong password ${i}`);
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  }
  await attempt("wrong password 6");
  await expect(page.getByRole("alert")).toHaveText(
    "Too many failed attempts. Please wait 15 minutes and try again.",
  );
});
