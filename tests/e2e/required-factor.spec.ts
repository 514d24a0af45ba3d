import { expect, test } from "./support/fixtures";
import { createProject, invitationLink, otherPerson, PASSWORD } from "./support/members";
import { setUpAuthenticatorApp } from "./support/totp";

/**
 * Once with JavaScript and once without (decision 042): an owner with an authenticator app
 * requires a second factor of the project's members; a member without one, who could open the
 * project before, is now asked to set one up instead of seeing it.
 */
test("a member of a project that requires a second factor is asked to set one up", async ({
  page,
  browser,
  signIn,
}, testInfo) => {
  test.setTimeout(150_000);
  const tag = testInfo.project.name;
  const run = Date.now();
  const memberEmail = `mina-${tag}-${run}@example.com`;
  const projectName = `Guarded ${tag} ${run}`;

  await signIn(page, { name: "Owen Owner", email: `factor-owner-${tag}@example.com` });
  await setUpAuthenticatorApp(page);
  const dashboard = await createProject(page, projectName);
  const studioId = dashboard.split("/").pop()!;

  // The member joins while nothing is required, and sees the project.
  await page.goto(dashboard);
  const members = page.getByRole("region", { name: "Members" });
  await members.getByLabel("Email").fill(memberEmail);
  await members.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
  await members.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${memberEmail}!`).first()).toBeVisible();
  const link = await invitationLink(memberEmail);
  const { page: member } = await otherPerson(browser, testInfo);
  await member.goto(link);
  await member.getByRole("note").getByRole("link", { name: "Sign up" }).click();
  await member.getByLabel("Name").fill("Mina Member");
  await member.getByLabel("Password").fill(PASSWORD);
  await member.getByRole("button", { name: "Sign up" }).click();
  await member.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(member.getByText("Yay, invitation accepted!").first()).toBeVisible();
  await expect(member.getByRole("heading", { name: projectName })).toBeVisible();

  // The owner requires a second factor.
  await page.goto(`/sites/settings/${studioId}`);
  const section = page.getByRole("region", { name: "Two-factor authentication" });
  await section.getByLabel("Require a second factor of every member").check();
  await section.getByRole("button", { name: "Save" }).click();
  // Saved before the page is loaded again (loading it at once would cancel the save's request).
  await expect(
    page.getByText("A second factor is now required of every member").first(),
  ).toBeVisible();
  await page.goto(`/sites/settings/${studioId}`);
  await expect(section.getByLabel("Require a second factor of every member")).toBeChecked();

  // The member is asked to set one up, on every page of the project.
  for (const path of [dashboard, `/sites/settings/${studioId}`]) {
    await member.goto(path);
    await expect(
      member.getByRole("heading", { name: "This project requires a second factor", level: 1 }),
    ).toBeVisible();
    await expect(member.getByRole("heading", { name: projectName })).toHaveCount(0);
  }
  await member.getByRole("link", { name: "Set up two-factor authentication" }).click();
  await expect(member.getByRole("heading", { name: "Two-factor sign-in", level: 1 })).toBeVisible();

  // With an authenticator app of their own, the project opens again.
  await setUpAuthenticatorApp(member);
  await member.goto(dashboard);
  await expect(member.getByRole("heading", { name: projectName })).toBeVisible();
});
