import type { Page } from "@playwright/test";
import { PICKER_PORT } from "../../playwright.config";
import { expect, test } from "./support/fixtures";
import { createProject, invitationLink, otherPerson, PASSWORD } from "./support/members";

/**
 * Once with JavaScript and once without: an editor sees Domain Settings and the add-ons but
 * cannot change them (no Edit link, no switches, no Dev Console); the owner switches End To End
 * Tests on and its card lists the site repository's latest 4 runs; a platform admin raises a
 * project's StackShift version from its Settings page, and the gated cards follow.
 */

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();
const addons = (page: Page) => page.getByRole("region", { name: "Add-ons" });

test("an editor reads the domain and add-ons; the owner's End To End Tests card lists its runs", async ({
  page,
  browser,
  signIn,
}, testInfo) => {
  test.setTimeout(150_000);
  const tag = testInfo.project.name;
  const run = Date.now();
  const projectName = `Tools ${tag} ${run}`;
  const editorEmail = `eddie-${tag}-${run}@example.com`;

  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, projectName);
  await page.goto(dashboard);

  // The owner invites an editor, who signs up from the mail and accepts.
  const members = page.getByRole("region", { name: "Members" });
  await members.getByLabel("Email").fill(editorEmail);
  await members.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
  await members.getByRole("button", { name: "Send Invitation" }).click();
  await expect(toast(page, `Invitation sent to ${editorEmail}!`)).toBeVisible();
  const link = await invitationLink(editorEmail);
  const { page: editor } = await otherPerson(browser, testInfo);
  await editor.goto(link);
  await editor.getByRole("note").getByRole("link", { name: "Sign up" }).click();
  await editor.getByLabel("Name").fill("Eddie Editor");
  await editor.getByLabel("Password").fill(PASSWORD);
  await editor.getByRole("button", { name: "Sign up" }).click();
  await editor.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(toast(editor, "Yay, invitation accepted!")).toBeVisible();

  // The editor reads: no Edit link, no switches, no tool launches; the states are shown.
  await editor.goto(dashboard);
  const editorDomains = editor.getByRole("region", { name: "Domain Settings" });
  await expect(editorDomains).toContainText("None");
  await expect(editorDomains.getByRole("link", { name: /Edit the custom domain/ })).toHaveCount(0);
  await expect(addons(editor).getByRole("switch")).toHaveCount(0);
  await expect(addons(editor).getByText("Disabled", { exact: true })).toHaveCount(6);
  await expect(addons(editor).getByRole("button", { name: /Open Dev Console/ })).toHaveCount(0);
  // Asking for the confirmation by its address gets no dialog either.
  await editor.goto(`${dashboard}?addon=gpt`);
  await expect(editor.getByRole("alertdialog")).toHaveCount(0);

  // The owner: the tools are there; End To End Tests on, then its latest runs.
  await page.goto(dashboard);
  await expect(addons(page).getByRole("button", { name: /Open Dev Console/ })).toBeVisible();
  await expect(addons(page).getByRole("button", { name: /Open Theme Preview/ })).toBeVisible();
  await addons(page).getByRole("switch", { name: "End To End Tests" }).click();
  await page
    .getByRole("alertdialog", { name: "Enable End To End Tests?" })
    .getByRole("button", { name: "Yes, enable" })
    .click();
  await expect(toast(page, `End To End Tests enabled for ${projectName}.`)).toBeVisible();
  // The site (and its repository) come with provisioning: the runs once it exists.
  const runs = addons(page).getByRole("table", { name: /Latest End To End Tests runs of / });
  await expect(async () => {
    await page.reload();
    await expect(runs).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });
  await expect(runs.getByRole("row")).toHaveCount(5); // the header and 4 runs
  await expect(runs.getByRole("link").first()).toHaveAttribute(
    "href",
    /^https:\/\/github\.com\/stackshift-sites\/tools-.+\/actions\/runs\/\d+$/,
  );

  // The editor sees the runs too, still without a switch.
  await editor.goto(dashboard);
  await expect(
    addons(editor).getByRole("table", { name: /Latest End To End Tests runs of / }),
  ).toBeVisible();
  await expect(addons(editor).getByRole("switch")).toHaveCount(0);
});

test("a platform admin raises a project's StackShift version from Settings; the gates follow", async ({
  openPage,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const projectName = `Version ${tag} ${Date.now()}`;
  const page = await openPage({ baseURL: `http://localhost:${PICKER_PORT}` });
  await signIn(page, { name: "Pia Picker", email: `picker-${tag}@example.com` });
  const dashboard = await createProject(page, projectName);
  const studioId = dashboard.split("/").at(-1)!;

  // Version 3 on this server: End To End Tests and Theme Preview say what they need.
  await page.goto(dashboard);
  await expect(addons(page)).toContainText("Needs StackShift version 4 or later.");
  await expect(addons(page)).toContainText("Needs StackShift version 6 or later.");
  await expect(addons(page).getByRole("switch", { name: "End To End Tests" })).toHaveCount(0);

  await page.goto(`/sites/settings/${studioId}`);
  const version = page.getByRole("region", { name: "StackShift version" });
  await expect(version).toContainText("This project runs StackShift version 3");
  await version.getByLabel("Raise to version").selectOption("6");
  await version.getByRole("button", { name: "Raise version" }).click();
  await expect(toast(page, "StackShift version raised to 6.")).toBeVisible();
  await expect(version).toContainText("This project runs StackShift version 6, the latest.");
  await expect(version.getByRole("button", { name: "Raise version" })).toHaveCount(0);

  await page.goto(dashboard);
  await expect(addons(page).getByRole("switch", { name: "End To End Tests" })).toBeVisible();
  await expect(addons(page).getByRole("button", { name: /Open Theme Preview/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Activity Log" })).toContainText(
    "raised the StackShift version from 3 to 6",
  );
});
