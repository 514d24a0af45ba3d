import type { Page } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { expect, test } from "./support/fixtures";
import { createProjectsThroughApi } from "./support/lifecycle";

/**
 * Once with JavaScript and once without: an agency admin sets up eight client projects
 * and invites five people to each in one sitting; every invitation's toast shows (the limits of
 * docs/configuration.md sit well above this). A fourth invitation mail to one address in a day is
 * refused beside the Email field, saying when to try again.
 */

/** The toast of the last action (a Radix toast with JavaScript, a status message without). */
const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

const membersOf = (page: Page) => page.getByRole("region", { name: "Members" });

/** Fills the invite form and sends it (role: the Editor default). */
async function sendInvitation(page: Page, email: string) {
  const members = membersOf(page);
  const field = members.getByLabel("Email");
  // With JavaScript the form empties itself after each invitation: type only once it has.
  await expect(field).toHaveValue("");
  await field.fill(email);
  await members.getByRole("button", { name: "Send Invitation" }).click();
}

test("an admin invites 40 people to 8 projects in one sitting; every 'Invitation sent' toast shows", async ({
  page,
  signIn,
}, testInfo) => {
  // 43 invitations, each a form post and its reload: about two minutes on a quiet machine.
  test.setTimeout(480_000);
  const tag = testInfo.project.name;
  const run = Date.now().toString(36);
  const person = (project: number, n: number) => `c${project}-p${n}-${tag}-${run}@example.com`;

  // A platform admin of ADMIN_EMAILS (only they, the approved and the invited may sign up).
  await signIn(page, { name: "Agnes Agency", email: `onboarder-${tag}@example.com` });
  const origin = `http://localhost:${E2E_PORT}`;
  const projects = await createProjectsThroughApi(page, origin, `Client ${tag} ${run}`, 8);

  for (const [index, studioId] of projects.entries()) {
    await page.goto(`/sites/${studioId}`);
    for (let n = 1; n <= 5; n += 1) {
      const email = person(index + 1, n);
      await sendInvitation(page, email);
      await expect(toast(page, `Invitation sent to ${email}!`)).toBeVisible();
    }
    const invited = membersOf(page).getByRole("row").filter({ hasText: "Invited" });
    await expect(invited).toHaveCount(5);
  }

  // The first person is invited to two more projects: three mails today. The fourth is refused,
  // beside the Email field (its accessible description), which keeps the address.
  const popular = person(1, 1);
  for (const studioId of projects.slice(1, 3)) {
    await page.goto(`/sites/${studioId}`);
    await sendInvitation(page, popular);
    await expect(toast(page, `Invitation sent to ${popular}!`)).toBeVisible();
  }
  await page.goto(`/sites/${projects[3]}`);
  await sendInvitation(page, popular);
  const field = membersOf(page).getByLabel("Email");
  await expect(field).toHaveAccessibleDescription(
    `${popular} has already been sent 3 invitation emails within a day, the most allowed. Please wait 24 hours and try again.`,
  );
  await expect(field).toHaveValue(popular);
  await expect(membersOf(page).getByRole("row").filter({ hasText: popular })).toHaveCount(0);
});
