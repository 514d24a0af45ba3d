import type { Page } from "@playwright/test";
import { expect, pressWithProof, test } from "./support/fixtures";
import { createProject, logInOrSignUp, otherPerson } from "./support/members";

/**
 * Once with JavaScript and once without: an invited user who signs in finds the
 * invitation where they look. The owner invites an e-mail; its owner signs up (with the
 * confirmation mail, not through the invitation link) and accepts from /sites. Invited to a
 * second project, they open its dashboard and accept from the invitation card there.
 */

/** The toast of the last action (a Radix toast with JavaScript, a status message without). */
const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

const pendingInvitations = (page: Page) =>
  page.getByRole("region", { name: "Pending invitations" });

async function invite(page: Page, dashboard: string, email: string, role: string) {
  await page.goto(dashboard);
  const members = page.getByRole("region", { name: "Members" });
  await members.getByLabel("Email").fill(email);
  // An invitation as Admin asks a recent proof (decision 039); the form is filled again after.
  await pressWithProof(
    page,
    async () => {
      await members.getByLabel("Email").fill(email);
      await members.getByLabel("Role", { exact: true }).selectOption({ label: role });
      await members.getByRole("button", { name: "Send Invitation" }).click();
    },
    toast(page, `Invitation sent to ${email}!`),
  );
}

test("an invited user accepts from /sites, and from the project's dashboard card", async ({
  page,
  browser,
  signIn,
}, testInfo) => {
  test.setTimeout(150_000);
  const tag = testInfo.project.name;
  const run = Date.now();
  const ownerEmail = `inviter-${tag}@example.com`;
  const inviteeEmail = `invitee-${tag}-${run}@example.com`;
  const firstName = `Shared ${tag} ${run}`;
  const secondName = `Second ${tag} ${run}`;

  // 1. The owner (a platform admin) creates a project and invites an e-mail as Editor.
  await signIn(page, { name: "Ines Inviter", email: ownerEmail });
  const first = await createProject(page, firstName);
  await invite(page, first, inviteeEmail, "Editor");

  // 2. The invitee signs up on /signup (a confirmation mail, not the invitation's link): the
  //    project stays hidden until they accept, and /sites lists the invitation above the list.
  const { page: invitee, problems } = await otherPerson(browser, testInfo);
  await logInOrSignUp(invitee, "Ivo Invitee", inviteeEmail);
  await invitee.goto("/sites");
  const pending = pendingInvitations(invitee);
  const card = pending.getByRole("article", { name: firstName });
  await expect(card).toContainText("Ines Inviter invited you to collaborate as");
  await expect(card).toContainText("Editor");
  await expect(
    invitee.getByRole("main").getByRole("link", { name: firstName, exact: true }),
  ).toHaveCount(0);

  // 3. Accept from /sites: the project's dashboard, with the spec's toast.
  await card.getByRole("button", { name: "Accept", exact: true }).click();
  await expect(invitee).toHaveURL(new RegExp(`${first}$`));
  await expect(toast(invitee, "Yay, invitation accepted!")).toBeVisible();
  await expect(invitee.getByRole("heading", { name: firstName, level: 1 })).toBeVisible();
  await invitee.goto("/sites");
  await expect(invitee.getByRole("link", { name: firstName })).toBeVisible();
  await expect(pendingInvitations(invitee)).toHaveCount(0);

  // 4. Invited to a second project (now an existing account), the invitee opens its dashboard:
  //    the invitation card, not a 404.
  const second = await createProject(page, secondName);
  await invite(page, second, inviteeEmail, "Admin");
  const response = await invitee.goto(second);
  expect(response?.status()).toBe(200);
  const invitation = invitee.getByRole("region", { name: "You are invited to collaborate!" });
  await expect(invitation).toBeVisible();
  await expect(invitation.getByText(secondName, { exact: true })).toBeVisible();
  await expect(invitation.getByText("Admin", { exact: true })).toBeVisible();
  await expect(invitation.getByText("Ines Inviter invited")).toBeVisible();
  await expect(invitation.getByRole("link", { name: "Ignore" })).toBeVisible();

  // 5. Accept Invitation: the same address, now the dashboard, with their own member row.
  await invitation.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(toast(invitee, "Yay, invitation accepted!")).toBeVisible();
  await expect(invitee).toHaveURL(new RegExp(`${second}$`));
  const members = invitee.getByRole("region", { name: "Members" });
  const ownRow = members.getByRole("row").filter({ hasText: inviteeEmail });
  await expect(ownRow).toContainText("Admin");
  await expect(ownRow).toContainText("Accepted");

  // 6. The owner sees both acceptances.
  await page.goto(second);
  await expect(
    page
      .getByRole("region", { name: "Members" })
      .getByRole("row")
      .filter({ hasText: inviteeEmail }),
  ).toContainText("Accepted");

  expect(problems, "the invitee's browser console errors").toEqual([]);
});
