import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { linkIn, waitForMail } from "./support/mail";
import { createProject, reloadUntil, uniqueName } from "./support/lifecycle";

/**
 * Once with JavaScript and once without: the owner is told beside the field that a notification
 * address is not one, then sets a notification address on the project's Contact form, which
 * waits until the link mailed to it is confirmed on its page; a visitor sends the published local
 * site's Contact form (a plain HTML post to the public endpoint) and is thanked on the site; the submission shows on the Forms page and
 * its notification mail arrives through the SMTP test server; it is deleted, and 'Delete all'
 * (naming the count) empties the form. Past the project's 50 confirmation links of the day, a
 * save is refused beside the Notification e-mails field, which keeps what was typed.
 */

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

async function sendContactForm(page: Page, siteUrl: string, message: string) {
  await page.goto(siteUrl);
  const form = page.getByRole("region", { name: "Contact" });
  await form.getByLabel("Name").fill("Vera Visitor");
  await form.getByLabel("E-mail").fill("vera@example.com");
  await form.getByLabel("Message").fill(message);
  await form.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status")).toHaveText("Thank you! Your message has been sent.");
}

test("a visitor's Contact form reaches the Forms page and the inbox, and is deleted", async ({
  page,
  signIn,
}, testInfo) => {
  // Project creation, publishing and two mailed round trips; slow on a loaded machine.
  test.setTimeout(240_000);
  await signIn(page, { name: "Ada Admin", email: `admin-${testInfo.project.name}@example.com` });
  const name = uniqueName(testInfo, "Forms");
  const studioId = await createProject(page, name);
  const formsPage = `/sites/forms/${studioId}`;
  const alerts = `forms-alerts-${testInfo.project.name}-${Date.now()}@example.com`;

  await page.goto(formsPage);
  await expect(page.getByRole("heading", { name: "Forms", level: 1 })).toBeVisible();
  await expect(page.getByRole("table", { name: "Forms" })).toContainText("Contact");
  await expect(page.getByText("No submissions yet.")).toBeVisible();
  // A refused address is said beside the field, which keeps what was typed.
  const emails = page.getByLabel("Notification e-mails");
  await emails.fill("not-an-address");
  await page.getByRole("button", { name: "Save form settings" }).click();
  await expect(emails).toHaveAccessibleDescription(
    /Each address must be a valid e-mail address \(separate them with commas\)/,
  );
  await expect(emails).toHaveValue("not-an-address");
  await emails.fill(alerts);
  await page.getByRole("button", { name: "Save form settings" }).click();
  await expect(toast(page, "Form settings saved")).toBeVisible();
  // Not a member's address: it gets nothing until it confirms the link mailed to it.
  const addresses = page.getByRole("list").filter({ hasText: alerts });
  await expect(addresses).toContainText("Waiting for confirmation");
  const ask = await waitForMail(alerts, /\/form-notifications\//);
  await page.goto(linkIn(ask, "/form-notifications/"));
  await expect(page.getByRole("heading", { name: "Confirm form notifications" })).toBeVisible();
  await expect(page.getByText(`website's Contact form to ${alerts}`)).toBeVisible();
  await page.getByRole("button", { name: "Confirm these mails" }).click();
  await expect(page.getByRole("heading", { name: "Form notifications confirmed" })).toBeVisible();
  await page.goto(formsPage);
  await expect(addresses).toContainText("Confirmed: gets the mails");

  // The site is published a few seconds after the project is created.
  let siteUrl = "";
  await reloadUntil(
    page,
    `/sites/${studioId}`,
    async () => {
      const visit = page.getByRole("link", { name: `Visit ${name} (opens in a new tab)` });
      siteUrl = (await visit.getAttribute("href", { timeout: 500 })) ?? "";
      expect(siteUrl).toContain("/local/sites/");
    },
    60_000,
  );
  await reloadUntil(page, siteUrl, async () => {
    await expect(page.getByText("Published with StackShift")).toBeVisible({ timeout: 500 });
  });

  await sendContactForm(page, siteUrl, "Do you bake rye on Sundays?");
  const mail = await waitForMail(alerts, /New Contact form submission/);
  expect(mail).toContain("Do you bake rye on Sundays?");

  await page.goto(formsPage);
  const table = page.getByRole("table", { name: "Submissions of Contact, newest first" });
  const row = table.getByRole("row").filter({ hasText: "Do you bake rye on Sundays?" });
  await expect(row).toContainText("vera@example.com");
  await row.getByRole("link", { name: /^View/ }).click();
  const opened = page.getByRole("dialog", { name: "Submission" });
  await expect(opened).toContainText("Vera Visitor");
  await opened.getByRole("link", { name: "Cancel" }).click();
  await row.getByRole("link", { name: /^Delete/ }).click();
  await page
    .getByRole("alertdialog", { name: "Delete this submission" })
    .getByRole("button", { name: "Yes, delete" })
    .click();
  await expect(toast(page, "Submission deleted")).toBeVisible();
  await expect(page.getByText("No submissions yet.")).toBeVisible();

  await sendContactForm(page, siteUrl, "First of two");
  await sendContactForm(page, siteUrl, "Second of two");
  await page.goto(formsPage);
  await page.getByRole("searchbox", { name: "Search submissions" }).fill("second");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(table.getByRole("row")).toHaveCount(2);
  await page.goto(formsPage);
  await page.getByRole("link", { name: "Delete all" }).click();
  await page
    .getByRole("alertdialog", { name: "Delete all 2 submissions" })
    .getByRole("button", { name: "Yes, delete" })
    .click();
  await expect(toast(page, "All submissions deleted")).toBeVisible();
  await expect(page.getByText("No submissions yet.")).toBeVisible();
});

test("past the project's limit of confirmation links, a save is refused beside the field", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page, { name: "Ada Admin", email: `admin-${testInfo.project.name}@example.com` });
  const studioId = await createProject(page, uniqueName(testInfo, "Links"));
  await page.goto(`/sites/forms/${studioId}`);
  const emails = page.getByLabel("Notification e-mails");
  const save = page.getByRole("button", { name: "Save form settings" });
  const batch = (round: number) =>
    Array.from(
      { length: 10 },
      (_, i) => `links-${testInfo.project.name}-${studioId}-${round}-${i}@example.com`,
    ).join(", ");
  // Five saves of ten new outside addresses: the project's 50 links of the day.
  for (let round = 0; round < 5; round += 1) {
    await emails.fill(batch(round));
    await save.click();
    // The list below the form shows this round's addresses once the save is through.
    const last = `links-${testInfo.project.name}-${studioId}-${round}-9@example.com`;
    await expect(page.getByRole("list").filter({ hasText: last })).toContainText(
      "Waiting for confirmation",
    );
  }
  const typed = `one-more-${testInfo.project.name}-${studioId}@example.com`;
  await emails.fill(typed);
  await save.click();
  await expect(emails).toHaveAccessibleDescription(
    /This project has sent 50 confirmation links within a day, the most allowed\. Please wait \d+ hours and try again\./,
  );
  await expect(emails).toHaveValue(typed);
  // Nothing was saved: the last accepted list is still the form's.
  await page.goto(`/sites/forms/${studioId}`);
  await expect(page.getByText(typed)).toHaveCount(0);
});
