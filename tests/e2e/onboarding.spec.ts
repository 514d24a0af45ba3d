import type { Browser, Page, TestInfo } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { expect, newWatchedPage, test } from "./support/fixtures";
import { confirmSignup, linkIn, waitForMail } from "./support/mail";

/**
 * The foundation's "done when", once with JavaScript and once without: a platform admin signs up,
 * creates a project, approves a request for access, and the requester signs up from the e-mail.
 */
const PASSWORD = "a long enough password";

/** Another person's browser; its console is held to the same rule as the test's page. */
async function newPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const { page } = await newWatchedPage(browser, testInfo, {
    baseURL: `http://localhost:${E2E_PORT}`,
    label: "requester",
  });
  return page;
}

/**
 * Signs up. From an approval mail's link (prefilled) the account exists at once; otherwise the
 * address is confirmed through the mailed link first.
 */
async function signUp(page: Page, name: string, email: string, prefilled = false) {
  if (prefilled) await expect(page.getByLabel("Email")).toHaveValue(email);
  else await page.getByLabel("Email").fill(email);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  if (!prefilled) await confirmSignup(page, email);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
}

test("an admin signs up, creates a project and approves a request; the requester signs up from the mail", async ({
  page,
  browser,
}, testInfo) => {
  // Two signups, a project and an approval; the confirmation page is one more step (decision 024).
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  // Its own platform admin, so the sign-up below is always a first one, whatever ran before.
  const adminEmail = `founder-${tag}@example.com`;
  const requesterEmail = `rita-${tag}-${Date.now()}@example.com`;
  const projectName = `Acme ${tag} site`;

  // 1. The platform admin signs up and lands on the empty project list.
  await page.goto("/signup");
  await signUp(page, "Ada Admin", adminEmail);
  await expect(page.getByText("Nothing to show here yet...")).toBeVisible();

  // 2. Create New: confirm, then create.
  await page.getByRole("main").getByRole("link", { name: "Create New" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create New" });
  await dialog.getByLabel("Name").fill(projectName);
  await dialog.getByLabel("Enterprise").check();
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  const confirm = dialog.getByRole("alertdialog");
  await expect(confirm).toContainText(`Create a Enterprise project named "${projectName}"?`);
  await confirm.getByRole("button", { name: "Yes, create" }).click();
  await expect(page.getByText(`Project ${projectName} created!`).first()).toBeVisible();
  await page.goto("/sites");
  await expect(page.getByRole("link", { name: projectName })).toBeVisible();

  // 3. Someone requests access.
  const requester = await newPage(browser, testInfo);
  await requester.goto("/request-access");
  await requester.getByLabel("Name").fill("Rita Requester");
  await requester.getByLabel("Business Email").fill(requesterEmail);
  await requester.getByLabel("Company").fill("Rita & Co");
  await requester.getByRole("button", { name: "Request Access" }).click();
  const review = requester.getByRole("dialog", { name: "Confirm Request Access?" });
  await expect(review).toContainText(requesterEmail);
  await expect(review).toContainText("Rita & Co");
  await expect(review).toContainText("Not specified");
  await review.getByRole("button", { name: "Yes, confirm" }).click();
  await expect(requester.getByRole("heading", { name: "Request sent!" })).toBeVisible();
  await waitForMail(requesterEmail, /request/i);

  // 4. The admin approves it.
  await page.goto(`/admin?q=${encodeURIComponent(requesterEmail)}`);
  await expect(page.getByRole("heading", { name: "Manage Request for Access" })).toBeVisible();
  const card = page.getByRole("article", { name: "Rita Requester" });
  await expect(card.getByText("Pending")).toBeVisible();
  await card
    .getByRole("button", { name: "Approve request of Rita Requester" })
    .or(card.getByRole("link", { name: "Approve request of Rita Requester" }))
    .click();
  const approval = page.getByRole("dialog", { name: "Confirm Request Approval" });
  await expect(approval).toContainText(
    "Are you sure you want to approve request access of Rita Requester?",
  );
  await approval.getByRole("button", { name: "Yes, confirm" }).click();
  await expect(card.getByText("APPROVED")).toBeVisible();

  // 5. The requester signs up from the e-mailed link.
  const body = await waitForMail(requesterEmail, /\/signup\?email=/);
  const link = linkIn(body, "/signup?email=");
  expect(link.startsWith(`http://localhost:${E2E_PORT}/`)).toBe(true);
  await requester.goto(link);
  await signUp(requester, "Rita Requester", requesterEmail, true);
  await expect(requester.getByText("Nothing to show here yet...")).toBeVisible();
  await requester.context().close();
});
