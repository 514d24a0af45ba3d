import type { Browser, Page, TestInfo } from "@playwright/test";
import { E2E_PORT } from "../../../playwright.config";
import { expect, jsDisabled } from "./fixtures";
import { confirmSignup, linkIn, waitForMail } from "./mail";

/** Helpers of members.spec.ts: accounts, a second browser, projects and invitation mail. */
export const PASSWORD = "a long enough password";

/**
 * A second browser context (another person), with JavaScript as the running project has it.
 * Its console errors are collected in `problems`, checked by the test like the fixture's page.
 */
export async function otherPerson(browser: Browser, testInfo: TestInfo) {
  const context = await browser.newContext({
    baseURL: `http://localhost:${E2E_PORT}`,
    javaScriptEnabled: !jsDisabled(testInfo),
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { page, problems };
}

const projectsHeading = (page: Page) => page.getByRole("heading", { name: "Projects", level: 1 });

/** Logs in as `email`, or signs up first when the account does not exist yet. */
export async function logInOrSignUp(page: Page, name: string, email: string) {
  await page.goto("/auth/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "Invalid email or password" });
  await expect(projectsHeading(page).or(refused)).toBeVisible();
  if (await projectsHeading(page).isVisible()) return;
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await confirmSignup(page, email);
  await expect(page).toHaveURL(/\/$/);
  await expect(projectsHeading(page)).toBeVisible();
}

/** Creates a project through the Create New dialog; returns its dashboard's path. */
export async function createProject(page: Page, projectName: string): Promise<string> {
  await page.goto("/");
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
  const link = page.getByRole("link", { name: projectName });
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/sites\/[^/?]+$/);
  return href!;
}

/** The invitation link of the newest invitation mail to `email`, different from `previous`. */
export async function invitationLink(email: string, previous?: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      async () => {
        link = linkIn(await waitForMail(email, /\/invitations\//), "/invitations/");
        return link;
      },
      { timeout: 15_000, message: `a new invitation mail to ${email}` },
    )
    .not.toBe(previous ?? "");
  expect(link.startsWith(`http://localhost:${E2E_PORT}/invitations/`)).toBe(true);
  return link;
}
