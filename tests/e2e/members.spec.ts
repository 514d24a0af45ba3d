import type { Page } from "@playwright/test";
import { expect, pressWithProof, test } from "./support/fixtures";
import { createProject, invitationLink, otherPerson, PASSWORD } from "./support/members";

/**
 * Once with JavaScript and once without: the owner invites an e-mail, the
 * invitee signs up from the mail, accepts, sees only their own row and leaves; the owner invites
 * again, changes the role, removes the member, invites someone else and revokes it; the activity
 * log shows every event.
 */

/** The toast of the last action (a Radix toast with JavaScript, a status message without). */
const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

const membersOf = (page: Page) => page.getByRole("region", { name: "Members" });

async function invite(page: Page, email: string, role: string) {
  const members = membersOf(page);
  await members.getByLabel("Email").fill(email);
  await members.getByLabel("Role", { exact: true }).selectOption({ label: role });
  await members.getByRole("button", { name: "Send Invitation" }).click();
  await expect(toast(page, `Invitation sent to ${email}!`)).toBeVisible();
  const row = members.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Invited");
  return row;
}

test("the owner invites; the invitee signs up, accepts, sees only their row, leaves; re-invite, role, remove, revoke; the activity log shows it all", async ({
  page,
  browser,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const run = Date.now();
  const ownerEmail = `admin-${tag}@example.com`;
  const inviteeEmail = `ivy-${tag}-${run}@example.com`;
  const otherEmail = `otto-${tag}-${run}@example.com`;
  const projectName = `Team ${tag} ${run}`;

  // 1. The owner (a platform admin) creates a project and invites an e-mail as Editor.
  await signIn(page, { name: "Ada Admin", email: ownerEmail });
  const dashboard = await createProject(page, projectName);
  await page.goto(dashboard);
  const members = membersOf(page);
  const table = members.getByRole("table", { name: `Members of ${projectName}` });
  await invite(page, inviteeEmail, "Editor");
  await expect(table.getByRole("row").filter({ hasText: inviteeEmail })).toContainText("Editor");

  // 2. The mail arrives; the invitee opens the card, signs up and comes back.
  const firstLink = await invitationLink(inviteeEmail);
  const { page: invitee, problems } = await otherPerson(browser, testInfo);
  await invitee.goto(firstLink);
  await expect(
    invitee.getByRole("heading", { name: "You are invited to collaborate!" }),
  ).toBeVisible();
  await expect(invitee.getByText(projectName)).toBeVisible();
  const note = invitee.getByRole("note");
  await expect(note).toContainText(`Create your StackShift account with ${inviteeEmail} first`);
  await note.getByRole("link", { name: "Sign up" }).click();
  await expect(invitee.getByLabel("Email")).toHaveValue(inviteeEmail);
  await invitee.getByLabel("Name").fill("Ivy Invitee");
  await invitee.getByLabel("Password").fill(PASSWORD);
  await invitee.getByRole("button", { name: "Sign up" }).click();
  // The invitation mail's link proved the address: no confirmation mail, straight back to the card.
  await expect(invitee).toHaveURL(firstLink.split("?")[0]);

  // 3. Accept: the dashboard, with only the invitee's own row.
  await invitee.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(invitee).toHaveURL(new RegExp(`${dashboard}$`));
  await expect(toast(invitee, "Yay, invitation accepted!")).toBeVisible();
  const inviteeMembers = membersOf(invitee);
  const inviteeTable = inviteeMembers.getByRole("table", { name: `Members of ${projectName}` });
  await expect(inviteeTable.getByRole("row")).toHaveCount(2); // the header and their own row
  const ownRow = inviteeTable.getByRole("row").filter({ hasText: inviteeEmail });
  await expect(ownRow).toContainText("Ivy Invitee (you)");
  await expect(ownRow).toContainText("Editor");
  await expect(ownRow).toContainText("Accepted");
  await expect(inviteeTable).not.toContainText(ownerEmail);
  await expect(inviteeMembers.getByRole("button", { name: "Send Invitation" })).toHaveCount(0);

  // 4. Leave, through the confirmation.
  await ownRow.getByRole("link", { name: "Leave" }).click();
  const leave = invitee.getByRole("alertdialog", { name: "Leave project?" });
  await expect(leave).toContainText(`You will lose access to ${projectName}`);
  await leave.getByRole("button", { name: "Yes, leave" }).click();
  await expect(invitee).toHaveURL(/\/$/);
  await expect(toast(invitee, "You've left the project!")).toBeVisible();

  // 5. The owner invites them again, as Developer; they accept from the new mail (signed in).
  await page.goto(dashboard);
  await expect(table.getByRole("row").filter({ hasText: inviteeEmail })).toHaveCount(0);
  await invite(page, inviteeEmail, "Developer");
  const secondLink = await invitationLink(inviteeEmail, firstLink);
  await invitee.goto(secondLink);
  await expect(invitee.getByRole("note")).toHaveCount(0);
  await invitee.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(toast(invitee, "Yay, invitation accepted!")).toBeVisible();
  await expect(ownRow).toContainText("Developer");

  // 6. The owner makes them Admin; it applies on their very next request.
  await page.goto(dashboard);
  const memberRow = table.getByRole("row").filter({ hasText: inviteeEmail });
  await expect(memberRow).toContainText("Accepted");
  await expect(memberRow.getByLabel(`Role of ${inviteeEmail}`, { exact: true })).toHaveValue(
    "developer",
  );
  // Making someone an admin asks a recent proof (decision 039); after it the row shows Admin
  // chosen again, and the press is repeated.
  await pressWithProof(
    page,
    async () => {
      await memberRow
        .getByLabel(`Role of ${inviteeEmail}`, { exact: true })
        .selectOption({ label: "Admin" });
      await memberRow.getByRole("button", { name: `Save the role of ${inviteeEmail}` }).click();
    },
    toast(page, "Role updated!"),
  );
  await page.goto(dashboard);
  await expect(memberRow.getByLabel(`Role of ${inviteeEmail}`, { exact: true })).toHaveValue(
    "admin",
  );
  await invitee.goto(dashboard);
  await expect(inviteeTable.getByRole("row").filter({ hasText: ownerEmail })).toBeVisible();

  // 7. The owner removes them, through the confirmation; the project is gone for them.
  await memberRow.getByRole("link", { name: `Remove ${inviteeEmail}` }).click();
  const remove = page.getByRole("alertdialog", { name: "Remove Ivy Invitee?" });
  await expect(remove).toContainText(`${inviteeEmail} will lose access to ${projectName}`);
  await remove.getByRole("button", { name: "Yes, remove" }).click();
  await expect(toast(page, "Member removed!")).toBeVisible();
  await expect(memberRow).toHaveCount(0);
  expect((await invitee.goto(dashboard))?.status()).toBe(404);

  // 8. Another e-mail is invited, then revoked; its link shows a clear page.
  const otherRow = await invite(page, otherEmail, "Editor");
  const otherLink = await invitationLink(otherEmail);
  await otherRow.getByRole("link", { name: `Revoke the invitation of ${otherEmail}` }).click();
  const revoke = page.getByRole("alertdialog", { name: "Revoke invitation?" });
  await expect(revoke).toContainText(
    `The invitation link sent to ${otherEmail} will stop working.`,
  );
  await revoke.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(toast(page, "Invitation revoked!")).toBeVisible();
  await expect(otherRow).toHaveCount(0);
  expect((await invitee.goto(otherLink))?.status()).toBe(404);
  await expect(
    invitee.getByRole("heading", { name: "This invitation is no longer valid" }),
  ).toBeVisible();

  // 9. The activity log: the 3 latest, then every event through 'Show more', then 'Collapse'.
  await page.goto(dashboard);
  const log = page.getByRole("region", { name: "Activity Log" });
  const entries = log
    .getByRole("list", { name: "Latest activity, newest first" })
    .getByRole("listitem");
  const latest = [
    new RegExp(`^Invitation revoked.*ago.*revoked the invitation of ${otherEmail}`),
    new RegExp(`^Invitation sent.*invited ${otherEmail} as Editor`),
    new RegExp(`^Member removed.*removed ${inviteeEmail}`),
  ];
  await expect(entries).toHaveText(latest);
  await log.getByRole("link", { name: "Show more" }).click();
  await expect(entries).toHaveText([
    ...latest,
    new RegExp(`^Role changed.*changed the role of ${inviteeEmail} from Developer to Admin`),
    /^Invitation accepted.*Ivy Invitee accepted the invitation as Developer/,
    new RegExp(`^Invitation sent.*invited ${inviteeEmail} as Developer`),
    /^Member left.*Ivy Invitee left the project/,
    /^Invitation accepted.*Ivy Invitee accepted the invitation as Editor/,
    new RegExp(`^Invitation sent.*invited ${inviteeEmail} as Editor`),
  ]);
  await log.getByRole("link", { name: "Collapse" }).click();
  await expect(entries).toHaveText(latest);

  expect(problems, "the invitee's browser console errors").toEqual([]);
  await invitee.context().close();
});
