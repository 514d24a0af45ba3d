import type { Page } from "@playwright/test";
import { expect, pressWithProof, test } from "./support/fixtures";
import { linkIn, waitForMail } from "./support/mail";
import { otherPerson, PASSWORD } from "./support/members";

/**
 * Once with JavaScript and once without: a platform admin is the support team.
 * A customer (not an admin) is let in through a request for access the platform admin approves,
 * and creates a project; the platform admin finds it under 'All projects', opens it (a support
 * banner, no studio note), adds a member; the customer sees 'Support access by ...' in the
 * project's Activity Log. Then support deletes the project: the customer is mailed and finds
 * support's entries under 'Support on deleted projects' in User Settings.
 */

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first();

/** Create New as a customer (no site type choice); returns the dashboard's path. */
async function createBusinessProject(page: Page, name: string): Promise<string> {
  await page.goto("/");
  await page.getByRole("main").getByRole("link", { name: "Create New" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create New" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  const confirm = dialog.getByRole("alertdialog");
  await expect(confirm).toContainText(name);
  await confirm.getByRole("button", { name: "Yes, create" }).click();
  await expect(toast(page, `Project ${name} created!`)).toBeVisible();
  await page.goto("/sites");
  const href = await page.getByRole("link", { name }).getAttribute("href");
  expect(href).toMatch(/^\/sites\/[^/?]+$/);
  return href!;
}

test("a platform admin opens a stranger's project, adds a member, and the owner sees it", async ({
  page,
  browser,
  signIn,
}, testInfo) => {
  test.setTimeout(150_000);
  const tag = testInfo.project.name;
  const run = Date.now();
  const projectName = `Customer ${tag} ${run}`;
  const newMember = `helped-${tag}-${run}@example.com`;
  const customerEmail = `customer-${tag}-${run}@example.com`;

  // 1. A customer, who is no platform admin, requests access; the platform admin approves it;
  //    the customer signs up from the mail and creates a project.
  await signIn(page, { name: "Sol Support", email: `support-${tag}@example.com` });
  const { page: customer, problems } = await otherPerson(browser, testInfo);
  await customer.goto("/request-access");
  await customer.getByLabel("Name").fill("Cleo Customer");
  await customer.getByLabel("Business Email").fill(customerEmail);
  await customer.getByRole("button", { name: "Request Access" }).click();
  await customer
    .getByRole("dialog", { name: "Confirm Request Access?" })
    .getByRole("button", { name: "Yes, confirm" })
    .click();
  await expect(customer.getByRole("heading", { name: "Request sent!" })).toBeVisible();
  // The request is stored by a job; its mail says it is there.
  await waitForMail(customerEmail, /request/i);
  await page.goto(`/admin?q=${encodeURIComponent(customerEmail)}`);
  const request = page.getByRole("article", { name: "Cleo Customer" });
  await request
    .getByRole("button", { name: "Approve request of Cleo Customer" })
    .or(request.getByRole("link", { name: "Approve request of Cleo Customer" }))
    .click();
  await page
    .getByRole("dialog", { name: "Confirm Request Approval" })
    .getByRole("button", { name: "Yes, confirm" })
    .click();
  await expect(request.getByText("APPROVED")).toBeVisible();
  await customer.goto(
    linkIn(await waitForMail(customerEmail, /\/signup\?email=/), "/signup?email="),
  );
  await customer.getByLabel("Name").fill("Cleo Customer");
  await customer.getByLabel("Password").fill(PASSWORD);
  await customer.getByRole("button", { name: "Sign up" }).click();
  await expect(customer.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  const dashboard = await createBusinessProject(customer, projectName);

  // 2. The platform admin: 'My projects' does not list it, 'All projects' finds it by name.
  await page.goto("/sites");
  const filter = page.getByRole("navigation", { name: "Projects to show" });
  await expect(filter.getByRole("link", { name: "My projects" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByRole("link", { name: projectName })).toHaveCount(0);
  await filter.getByRole("link", { name: "All projects" }).click();
  await expect(filter.getByRole("link", { name: "All projects" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByRole("searchbox", { name: "Search projects" }).fill(projectName.toLowerCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/scope=all/);
  const row = page.getByRole("row", { name: new RegExp(projectName) });
  await expect(row).toContainText("None (support access)");
  await row.getByRole("link", { name: projectName }).click();

  // 3. The dashboard as support: the banner, no studio launch, the whole Members table.
  await expect(page).toHaveURL(new RegExp(`${dashboard}$`));
  await expect(page.getByRole("heading", { name: projectName, level: 1 })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Support access" })).toContainText(
    "recorded in the project's Activity Log",
  );
  // The customer's own studio note ('Activate your studio') is not shown to support.
  await expect(page.getByRole("note", { name: "Activate your studio" })).toHaveCount(0);
  const members = page.getByRole("region", { name: "Members" });
  await expect(members.getByText(customerEmail)).toBeVisible();

  // 4. Support adds a member (as "platform admin, owner or member admin" may).
  await members.getByLabel("Email").fill(newMember);
  await members.getByLabel("Role", { exact: true }).selectOption({ label: "Editor" });
  await members.getByRole("button", { name: "Send Invitation" }).click();
  await expect(toast(page, `Invitation sent to ${newMember}!`)).toBeVisible();

  // 5. The owner sees who looked and what they changed, on the dashboard's Activity Log and
  //    on the full log page.
  await customer.goto(dashboard);
  const log = customer.getByRole("region", { name: "Activity Log" });
  await expect(log).toContainText("Support access by Sol Support: added a member");
  await customer.goto(`${dashboard}/activity`);
  await expect(
    customer.getByText("Support access by Sol Support: viewed the project"),
  ).toBeVisible();
  await expect(customer.getByText("Support access by Sol Support: added a member")).toBeVisible();

  // 6. The customer asked support to close the project: support deletes it; the customer is
  //    mailed, and their User Settings keep what support did, the Activity Log being gone
  //    (decision 026).
  await customer.goto("/sites/user-settings");
  const history = customer.getByRole("region", { name: "Support on deleted projects" });
  await expect(history.getByText("No support access to deleted projects.")).toBeVisible();
  await page.goto(`/sites/settings/${dashboard.split("/").pop()}`);
  await page.getByRole("link", { name: "Delete project" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete ${projectName}?` });
  await confirm.getByLabel(`Type ${projectName} to confirm`).fill(projectName);
  await pressWithProof(
    page,
    () => confirm.getByRole("button", { name: "Delete project" }).click(),
    toast(page, `Project ${projectName} deleted`),
  );
  expect(await waitForMail(customerEmail, /support team deleted the project/)).toContain(
    projectName,
  );
  await customer.reload();
  const deleted = history.getByRole("row", { name: /Deleted the project/ });
  await expect(deleted).toContainText(projectName);
  await expect(deleted).toContainText(`support-${tag}@example.com`);
  await expect(history.getByRole("row", { name: /Added a member/ })).toContainText(projectName);
  expect(problems).toEqual([]);
});
