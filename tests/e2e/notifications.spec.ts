import AxeBuilder from "@axe-core/playwright";
import { request as playwrightRequest, type Page, type TestInfo } from "@playwright/test";
import { expect, jsDisabled, settle, test } from "./support/fixtures";
import { adminAccount, createProject, reloadUntil, uniqueName } from "./support/lifecycle";
import { linkIn, mailsMatching, waitForMail } from "./support/mail";

/**
 * Once with JavaScript and once without: the owner's failed deploys are mailed by default; once
 * they untick 'Deployment failed, as owner' on User Settings > Notifications the next failed
 * deploy of the project mails nobody, and ticking it again brings the mail back. The unsubscribe
 * link of a received mail opens a page that only shows what it turns off; its button does it,
 * the project's choice then reads 'Nothing', and the one-click POST of the mail's
 * List-Unsubscribe header (RFC 8058) answers without a session. A project whose name holds
 * "fail-deploy" fails its deployments with the local hosting provider.
 */

// Both tests change the same account's settings: one after the other.
test.describe.configure({ mode: "serial" });

const SETTINGS = "/sites/user-settings/notifications";
const dashboard = (studioId: string) => `/sites/${encodeURIComponent(studioId)}`;

/**
 * No axe violation, WCAG 2.1 A and AA or best practice, as the accessibility suite asks of every
 * page (axe runs as a script in the page: with JavaScript only).
 */
async function expectAccessible(page: Page, testInfo: TestInfo) {
  if (jsDisabled(testInfo)) return;
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual(
    [],
  );
}

/** Ticks or unticks the owner's failed deploys and saves the page's one form. */
async function setOwnerFailedDeploys(page: Page, on: boolean) {
  await page.goto(SETTINGS);
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  const box = page
    .getByRole("table", { name: "Events mailed to you, by your role in the project" })
    .getByLabel("Deployment failed, as owner");
  await box.setChecked(on);
  await page.getByRole("button", { name: "Save notification settings" }).click();
  await expect(page.getByText("Notification settings saved").first()).toBeVisible();
  await settle(page);
  await page.goto(SETTINGS);
  await expect(
    page
      .getByRole("table", { name: "Events mailed to you, by your role in the project" })
      .getByLabel("Deployment failed, as owner"),
  ).toBeChecked({ checked: on });
}

/** Presses Retry deploy and waits until the retry failed too (`left` retries are then left). */
async function retryAndFail(page: Page, studioId: string, left: string) {
  const failedPage = `${dashboard(studioId)}/failed-deployment`;
  await page.goto(failedPage);
  await page.getByRole("button", { name: "Retry deploy" }).click();
  await expect(page.getByText("Retrying Deployment!").first()).toBeVisible();
  await settle(page);
  await reloadUntil(page, failedPage, async () => {
    await expect(page.getByRole("heading", { name: "Oops! Failed Deployment..." })).toBeVisible({
      timeout: 500,
    });
    await expect(page.getByText(left)).toBeVisible({ timeout: 500 });
  });
}

test("a failed deploy mails the owner; with it turned off the next one mails nobody; on again, it mails", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(240_000);
  const account = adminAccount(testInfo);
  await signIn(page, account);
  await setOwnerFailedDeploys(page, true);

  const name = uniqueName(testInfo, "Notify fail-deploy");
  const subject = new RegExp(`Deployment failed: ${name}`);
  const studioId = await createProject(page, name);
  // The first deployment fails by itself: its mail comes, with the project and the error page.
  const first = await waitForMail(account.email, subject);
  expect(first).toContain(`A deployment of "${name}" failed.`);
  expect(linkIn(first, `/sites/${studioId}/failed-deployment`)).toBeTruthy();

  await setOwnerFailedDeploys(page, false);
  await retryAndFail(page, studioId, "2 of 3 retries left.");
  // The fan-out and the mail jobs run at once on this idle server: give them time, no mail.
  await page.waitForTimeout(5_000);
  expect(mailsMatching(account.email, subject)).toHaveLength(1);

  await setOwnerFailedDeploys(page, true);
  await retryAndFail(page, studioId, "1 retry left.");
  await expect
    .poll(() => mailsMatching(account.email, subject).length, { timeout: 20_000 })
    .toBe(2);
});

test("the unsubscribe link of a received mail shows what it turns off, and its button does it", async ({
  page,
  signIn,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const account = adminAccount(testInfo);
  await signIn(page, account);
  const name = uniqueName(testInfo, "Unsubscribe fail-deploy");
  await createProject(page, name);
  const mail = await waitForMail(account.email, new RegExp(`Deployment failed: ${name}`));
  const link = linkIn(mail, "/notifications/unsubscribe/");
  // The same address in the List-Unsubscribe header, with the one-click header (RFC 8058).
  expect(mail).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  expect(mail.replace(/\r?\n[ \t]+/g, " ")).toContain(`List-Unsubscribe: <${link}>`);

  // Opening the link only shows.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Stop notification e-mails" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(
    `every notification e-mail about the project ${name} to ${account.email}`,
  );
  await expectAccessible(page, testInfo);
  await page.goto(SETTINGS);
  await expectAccessible(page, testInfo);
  const choice = page.getByLabel(`Mail me about ${name}`);
  await expect(choice).toHaveValue("settings");

  // The button turns the project's mails off.
  await page.goto(link);
  await page.getByRole("button", { name: `Stop e-mails about ${name}` }).click();
  await expect(
    page.getByRole("heading", { name: "Notification e-mails turned off" }),
  ).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: name })).toContainText(
    `${account.email} no longer gets notification e-mails about ${name}`,
  );
  await settle(page);
  await page.goto(SETTINGS);
  await expect(page.getByLabel(`Mail me about ${name}`)).toHaveValue("none");

  // A mail program's one-click POST: no cookie, no Origin, only the body RFC 8058 gives.
  const mailProgram = await playwrightRequest.newContext({ baseURL });
  try {
    const res = await mailProgram.post(link, { form: { "List-Unsubscribe": "One-Click" } });
    expect(res.status()).toBe(200);
    // Without that body, a POST from no page of ours is refused (the page's form keeps the
    // CSRF rule).
    const bare = await mailProgram.post(link, { form: {} });
    expect(bare.status()).toBe(403);
  } finally {
    await mailProgram.dispose();
  }
});
