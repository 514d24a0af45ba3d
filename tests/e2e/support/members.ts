import type { Browser, Page, TestInfo } from "@playwright/test";
import { E2E_PORT } from "../../../playwright.config";
import { expect, logInOrSignUpWithForms, newWatchedPage } from "./fixtures";
import { linkIn, waitForMail } from "./mail";

/** Helpers of members.spec.ts: accounts, a second browser, projects and invitation mail. */
export { PASSWORD } from "./fixtures";

/**
 * A second browser context (another person), with JavaScript as the running project has it.
 * Its console errors are collected in `problems`, and fail the test at its end like the
 * fixture's page (tests/e2e/support/fixtures.ts), whether or not the test checks them itself.
 */
export async function otherPerson(browser: Browser, testInfo: TestInfo) {
  return newWatchedPage(browser, testInfo, {
    baseURL: `http://localhost:${E2E_PORT}`,
    label: "other person",
  });
}

/**
 * Logs in as `email` through the login form, or signs up first when the account does not exist
 * yet (the forms themselves, for a person whose sign-up is part of the test; others use the
 * `signIn` fixture).
 */
export async function logInOrSignUp(page: Page, name: string, email: string) {
  await logInOrSignUpWithForms(page, { email, name });
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
