import { expect, logInOrSignUpWithForms, PASSWORD, test } from "./support/fixtures";
import { linkIn, waitForMail } from "./support/mail";

/**
 * The ceiling per account (decision 041), once with JavaScript and once without: 20 wrong
 * passwords from 20 addresses (the test server believes X-Forwarded-For from loopback, as
 * TRUST_PROXY does by default) push the account past it. A browser that never signed in to the
 * account then gets "We emailed you a link to finish signing in" for the right password and no
 * session; the mailed link shows a page whose button signs that browser in. The owner's own
 * browser, which signed in before, signs in at once with the password.
 */
test("past the ceiling a new browser finishes signing in through a mailed link, a known one at once", async ({
  page,
  openPage,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const account = { name: "Cleo Ceiling", email: `ceiling-${tag}@example.com` };
  // The owner's browser signs in once: it is a known device from now on.
  await logInOrSignUpWithForms(page, account);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();

  // Guessers on 20 addresses, each in a /48 of its own.
  const block = tag === "js" ? 0x1100 : 0x1200;
  for (let i = 0; i < 20; i += 1) {
    const res = await request.post("/auth/login", {
      form: { email: account.email, password: `guess ${i}`, redirectTo: "/sites" },
      headers: { Origin: baseURL!, "X-Forwarded-For": `2001:db8:${(block + i).toString(16)}::1` },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(401);
  }

  // The owner on a new computer: the right password, no session, a mailed link.
  const other = await openPage({ label: "a new computer" });
  await other.goto("/auth/login");
  await other.getByLabel("Email").fill(account.email);
  await other.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await other.getByRole("button", { name: "Log in" }).click();
  await expect(other.getByText("We emailed you a link to finish signing in.")).toBeVisible();
  await other.goto("/sites");
  await expect(other).toHaveURL(/\/auth\/login/);

  const mail = await waitForMail(account.email, /\/auth\/sign-in\//);
  await other.goto(linkIn(mail, "/auth/sign-in/"));
  await expect(other.getByRole("heading", { name: "Finish signing in" })).toBeVisible();
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();

  // The owner's own browser, its session gone: the password signs in at once.
  await page.context().clearCookies({ name: "stackshift_session" });
  await page.goto("/auth/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
});
