import { FACTOR_PORT } from "../../playwright.config";
import { expect, test } from "./support/fixtures";
import { createProject } from "./support/lifecycle";

/**
 * On the server whose platform admins need a second factor and whose proofs count 10 seconds
 * (playwright.config.ts, FACTOR_PORT), with JavaScript and without (decisions 039 and 042). One
 * person throughout: a platform admin (only those sign up without an access request here).
 */
const FACTOR_URL = `http://localhost:${FACTOR_PORT}`;

test("a platform admin without a second factor is refused /admin and asked to set one up", async ({
  openPage,
  signIn,
}, testInfo) => {
  const page = await openPage({ baseURL: FACTOR_URL, label: "admin" });
  await signIn(page, {
    name: "Fay Factor",
    email: `factor-admin-${testInfo.project.name}@example.com`,
  });
  const banner = page
    .getByRole("status")
    .filter({ hasText: "Platform admins need a second factor" });
  await expect(banner).toBeVisible();
  await expect(
    banner.getByRole("link", { name: "Set up two-factor authentication" }),
  ).toHaveAttribute("href", "/sites/user-settings/two-factor");

  await page.goto("/admin");
  await expect(
    page.getByRole("heading", { name: "Set up a second factor first", level: 1 }),
  ).toBeVisible();
  await expect(
    page.getByText(/before using the admin pages or opening customers' projects/),
  ).toBeVisible();
  await expect(
    page.getByRole("main").getByRole("link", { name: "Set up two-factor authentication" }),
  ).toBeVisible();
  await page.goto("/admin/tokens");
  await expect(
    page.getByRole("heading", { name: "Set up a second factor first", level: 1 }),
  ).toBeVisible();
});

test("an owner without a second factor cannot require one of the members yet", async ({
  openPage,
  signIn,
}, testInfo) => {
  test.setTimeout(90_000);
  const tag = testInfo.project.name;
  const page = await openPage({ baseURL: FACTOR_URL, label: "owner" });
  await signIn(page, { name: "Fay Factor", email: `factor-admin-${tag}@example.com` });
  const studioId = await createProject(page, `Factor ${tag} ${Date.now()}`);
  await page.goto(`/sites/settings/${studioId}`);
  const section = page.getByRole("region", { name: "Two-factor authentication" });
  await section.getByLabel("Require a second factor of every member").check();
  await section.getByRole("button", { name: "Save" }).click();
  await expect(section.getByText(/Set up a second factor for yourself first/)).toBeVisible();
  // Nothing was stored: the page loaded again shows the box unticked.
  await page.goto(`/sites/settings/${studioId}`);
  await expect(section.getByLabel("Require a second factor of every member")).not.toBeChecked();
});

test("a stale proof: making a token goes by 'Confirm it's you' and back to the typed form", async ({
  openPage,
  signIn,
}, testInfo) => {
  test.setTimeout(90_000);
  const tag = testInfo.project.name;
  const page = await openPage({ baseURL: FACTOR_URL, label: "token maker" });
  await signIn(page, { name: "Fay Factor", email: `factor-admin-${tag}@example.com` });
  const name = `Stale ${tag} ${Date.now()}`;
  await page.goto("/sites/user-settings/tokens");
  const form = page.getByRole("region", { name: "New token" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel(/^Read and write/).check();
  await form.getByLabel("Expires").selectOption({ label: "In 90 days" });
  // This server's proofs count 10 seconds: the sign-in's is stale by now.
  await page.waitForTimeout(11_000);
  await form.getByRole("button", { name: "Make token" }).click();

  await expect(page.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/confirm\?returnTo=%2Fsites%2Fuser-settings%2Ftokens$/);
  await page.getByLabel("Password", { exact: true }).fill("not my password");
  await page.getByRole("button", { name: "Confirm with password" }).click();
  await expect(page.getByText("The current password is not right")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("a long enough password");
  await page.getByRole("button", { name: "Confirm with password" }).click();

  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveValue(name);
  await expect(form.getByLabel(/^Read and write/)).toBeChecked();
  await expect(form.getByLabel("Expires")).toHaveValue("90");
  await form.getByRole("button", { name: "Make token" }).click();
  await expect(page.getByRole("status", { name: `Your new token ${name}` })).toBeVisible();
});
