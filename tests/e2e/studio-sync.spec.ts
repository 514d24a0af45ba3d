import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { linkIn, waitForMail } from "./support/mail";
import { invitationLink, otherPerson, PASSWORD } from "./support/members";

/**
 * "Leaving ends access everywhere", once with JavaScript and once without: the owner
 * and a member join the project's local content studio (its page lists them); the owner removes
 * the member on the dashboard, and once the job has run the studio no longer lists them.
 */

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The newest studio invitation mail to `email` for the studio named `studioName`: its link. */
async function studioInvitationLink(email: string, studioName: string): Promise<string> {
  const invited = new RegExp(`edit content in ${escape(studioName)} \\(StackShift Studio\\)`);
  let body = "";
  // The invitation leaves with a job (after provisioning, or after an acceptance).
  await expect(async () => {
    body = await waitForMail(email, invited);
  }).toPass({ timeout: 60_000 });
  return linkIn(body, "/local/studio/");
}

/** Opens the invitation link and accepts it; the studio page then lists its members. */
async function acceptStudioInvitation(page: Page, link: string) {
  await page.goto(link);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page.getByText("Invitation accepted", { exact: true }).first()).toBeVisible();
}

/**
 * Creates a project through the Create New dialog and returns its dashboard's path (as
 * support/members.ts's createProject, with room for a busy machine: creation waits on the
 * provisioning's first steps).
 */
async function createProject(page: Page, projectName: string): Promise<string> {
  await page.goto("/");
  await page.getByRole("main").getByRole("link", { name: "Create New" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create New" });
  await dialog.getByLabel("Name").fill(projectName);
  await dialog.getByLabel("Enterprise").check();
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await dialog.getByRole("alertdialog").getByRole("button", { name: "Yes, create" }).click();
  await expect(page.getByText(`Project ${projectName} created!`).first()).toBeVisible({
    timeout: 60_000,
  });
  await page.goto("/sites");
  const href = await page.getByRole("link", { name: projectName }).getAttribute("href");
  expect(href).toMatch(/^\/sites\/[^/?]+$/);
  return href!;
}

const studioTable = (page: Page, studioName: string) =>
  page.getByRole("table", { name: `Members of the studio ${studioName}` });

test("an admin removes a member; once the job ran, the local studio no longer lists them", async ({
  page,
  browser,
  signIn,
}, testInfo) => {
  test.setTimeout(300_000);
  const tag = testInfo.project.name;
  const run = Date.now();
  const ownerEmail = `admin-${tag}@example.com`;
  const memberEmail = `sam-${tag}-${run}@example.com`;
  const projectName = `Studio sync ${tag} ${run}`;

  // 1. The owner creates a project and joins its content studio from the invitation mail.
  await signIn(page, { name: "Ada Admin", email: ownerEmail });
  const dashboard = await createProject(page, projectName);
  const ownerLink = await studioInvitationLink(ownerEmail, projectName);
  const studioPage = new URL(ownerLink).pathname;
  await acceptStudioInvitation(page, ownerLink);
  const table = studioTable(page, projectName);
  await expect(table.getByRole("row").filter({ hasText: ownerEmail })).toContainText(
    "Administrator",
  );

  // 2. The owner invites a member, who signs up from the mail and accepts.
  await page.goto(dashboard);
  const members = page.getByRole("region", { name: "Members" });
  await members.getByLabel("Email").fill(memberEmail);
  await members.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
  await members.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${memberEmail}!`).first()).toBeVisible();
  const { page: member } = await otherPerson(browser, testInfo);
  await member.goto(await invitationLink(memberEmail));
  await member.getByRole("note").getByRole("link", { name: "Sign up" }).click();
  await member.getByLabel("Name").fill("Sam Member");
  await member.getByLabel("Password").fill(PASSWORD);
  await member.getByRole("button", { name: "Sign up" }).click();
  await member.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(member.getByText("Yay, invitation accepted!").first()).toBeVisible();

  // 3. The studio invitation follows the acceptance (a job); the member joins the studio too.
  await acceptStudioInvitation(member, await studioInvitationLink(memberEmail, projectName));
  await expect(
    studioTable(member, projectName).getByRole("row").filter({ hasText: memberEmail }),
  ).toContainText("Editor");
  await page.goto(studioPage);
  const memberRow = table.getByRole("row").filter({ hasText: memberEmail });
  await expect(memberRow).toContainText("Editor");
  await expect(memberRow).toContainText("Member");

  // 4. The owner removes the member on the dashboard, through the confirmation.
  await page.goto(dashboard);
  const dashboardRow = members
    .getByRole("table", { name: `Members of ${projectName}` })
    .getByRole("row")
    .filter({ hasText: memberEmail });
  await dashboardRow.getByRole("link", { name: `Remove ${memberEmail}` }).click();
  const remove = page.getByRole("alertdialog", { name: "Remove Sam Member?" });
  await remove.getByRole("button", { name: "Yes, remove" }).click();
  await expect(page.getByText("Member removed!").first()).toBeVisible();

  // 5. Once the job has run, the studio no longer lists them, and they no longer see its members.
  await expect(async () => {
    await page.goto(studioPage);
    await expect(table.getByRole("row").filter({ hasText: ownerEmail })).toBeVisible({
      timeout: 2_000,
    });
    await expect(memberRow).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await member.goto(studioPage);
  await expect(
    member.getByText("Log in as a member of this studio to see its members."),
  ).toBeVisible();
});
