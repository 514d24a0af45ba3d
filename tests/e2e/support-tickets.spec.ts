import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { adminAccount, createProject } from "./support/lifecycle";
import { waitForMail } from "./support/mail";
import { invitationLink, PASSWORD } from "./support/members";

/**
 * The help desk, once with JavaScript and once without: a member of a project (no platform
 * admin: invited by the owner, signed up from the mail) opens a ticket about it and finds it Open,
 * updated 'Just now', on /sites/support; a platform admin in another browser opens it, replies and
 * sets it In Progress; the member sees the reply and the status, the event log (with support's
 * read of the ticket) expands and collapses, and the member's notification mails arrive.
 */

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

test("a member's ticket is answered by support, who sets it In Progress; the member sees it and is mailed", async ({
  page,
  openPage,
  signIn,
}, testInfo) => {
  test.setTimeout(150_000);
  const tag = testInfo.project.name;
  const run = Date.now();
  const projectName = `Help desk ${tag} ${run}`;
  const memberEmail = `mia-${tag}-${run}@example.com`;
  const subject = `Images do not load ${tag} ${run}`;
  const answer = `Fixed the image cache ${run}, please reload.`;

  // 1. The owner creates a project and invites the member as Editor.
  await signIn(page, adminAccount(testInfo));
  const studioId = await createProject(page, projectName);
  await page.goto(`/sites/${studioId}`);
  const members = page.getByRole("region", { name: "Members" });
  await members.getByLabel("Email").fill(memberEmail);
  await members.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
  await members.getByRole("button", { name: "Send Invitation" }).click();
  await expect(toast(page, `Invitation sent to ${memberEmail}!`)).toBeVisible();

  // 2. The member signs up from the invitation mail and accepts it.
  const link = await invitationLink(memberEmail);
  const member = await openPage({ label: "member" });
  await member.goto(link);
  await member.getByRole("note").getByRole("link", { name: "Sign up" }).click();
  await member.getByLabel("Name").fill("Mia Member");
  await member.getByLabel("Password").fill(PASSWORD);
  await member.getByRole("button", { name: "Sign up" }).click();
  await expect(member).toHaveURL(link.split("?")[0]);
  await member.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(toast(member, "Yay, invitation accepted!")).toBeVisible();

  // 3. The member has no ticket yet and opens one about the project; a blank subject is
  //    refused beside the field first.
  await member.goto("/sites/support");
  await expect(member.getByRole("heading", { name: "Support", level: 1 })).toBeVisible();
  await expect(member.getByText("No tickets yet.", { exact: false })).toBeVisible();
  await member.getByRole("link", { name: "New ticket" }).click();
  const dialog = member.getByRole("dialog", { name: "New ticket" });
  await dialog.getByLabel("Subject").fill("   ");
  await dialog.getByLabel("Description").fill("Since this morning no image shows on the site.");
  await dialog.getByRole("button", { name: "Create ticket" }).click();
  await expect(dialog.getByText("Subject is required")).toBeVisible();
  await dialog.getByLabel("Subject").fill(subject);
  await dialog.getByLabel("Project").selectOption({ label: projectName });
  await dialog.getByRole("button", { name: "Create ticket" }).click();
  await expect(toast(member, "Ticket created")).toBeVisible();
  await expect(member.getByRole("heading", { name: subject, level: 1 })).toBeVisible();
  const ticketUrl = new URL(member.url()).pathname;
  expect(ticketUrl).toMatch(/^\/sites\/support\/[0-9a-f-]{36}$/);
  await member.getByLabel("Reply", { exact: true }).fill("It started after the last deploy.");
  await member.getByRole("button", { name: "Send reply" }).click();
  await expect(toast(member, "Reply sent")).toBeVisible();

  await member.goto("/sites/support");
  const row = member.getByRole("row", { name: new RegExp(subject) });
  await expect(row.getByRole("cell").nth(0)).toHaveText(projectName);
  await expect(row.getByRole("cell").nth(1)).toHaveText("Open");
  await expect(row.getByRole("cell").nth(2)).toHaveText("Just now");

  // 4. A platform admin, in another browser, finds it, replies and sets it In Progress.
  const support = await openPage({ label: "support" });
  await signIn(support, adminAccount(testInfo, `support-${tag}@example.com`));
  await support.goto("/sites/support");
  await support.getByRole("link", { name: subject }).click();
  await expect(support.getByRole("heading", { name: subject, level: 1 })).toBeVisible();
  await support.getByLabel("Reply", { exact: true }).fill(answer);
  await support.getByRole("button", { name: "Send reply" }).click();
  await expect(toast(support, "Reply sent")).toBeVisible();
  await support.getByLabel("Status", { exact: true }).selectOption({ label: "In Progress" });
  await support.getByRole("button", { name: "Update status" }).click();
  await expect(toast(support, "Status updated")).toBeVisible();

  // 5. The member sees the answer, marked as support's, and the new status; no status form.
  await member.goto(ticketUrl);
  await expect(member.getByRole("definition").filter({ hasText: "In Progress" })).toBeVisible();
  const conversation = member.getByRole("region", { name: "Conversation" });
  const supportReply = conversation.getByRole("listitem", { name: /^Support reply by / });
  await expect(supportReply).toContainText(answer);
  await expect(supportReply).toContainText("Support");
  await expect(member.getByRole("button", { name: "Update status" })).toHaveCount(0);

  // The event log: the 3 latest, then all 5 with 'Show more' (support's read of the ticket is
  // one of them), and back with 'Collapse'.
  const events = member.getByRole("region", { name: "Events" }).getByRole("table");
  await expect(events.getByRole("row")).toHaveCount(4); // the header and 3 events
  await expect(events.getByRole("row").nth(1)).toContainText("TicketUpdated");
  await expect(events.getByRole("row").nth(1)).toContainText("Status: Open -> In Progress");
  await expect(events.getByRole("row").nth(3)).toContainText("TicketViewed");
  await expect(events.getByRole("row").nth(3)).toContainText("Read by the support team");
  await member.getByRole("link", { name: "Show more" }).click();
  await expect(member).toHaveURL(/events=all/);
  await expect(events.getByRole("row")).toHaveCount(6);
  await expect(events.getByRole("row").nth(5)).toContainText("TicketCreated");
  await expect(events.getByRole("row").nth(5)).toContainText("Mia Member");
  await member.getByRole("link", { name: "Collapse" }).click();
  await expect(events.getByRole("row")).toHaveCount(4);

  await member.goto("/sites/support");
  await expect(row.getByRole("cell").nth(1)).toHaveText("In Progress");

  // 6. The member's notification mails: support's reply and the status change.
  const replyMail = await waitForMail(memberEmail, /Support replied/);
  expect(replyMail).toContain(answer);
  expect(replyMail).toContain(ticketUrl);
  const statusMail = await waitForMail(memberEmail, /Status: Open -> In Progress/);
  expect(statusMail).toContain(subject);
});
