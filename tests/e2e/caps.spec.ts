import type { Page } from "@playwright/test";
import { expect, jsDisabled, test } from "./support/fixtures";

/**
 * Once with JavaScript and once without: a project whose Stripe keys were checked too
 * often that day is told so beside 'Stripe secret key', the dialog kept open; a project that
 * reached its sender domains while its page was open is told so beside 'Add {domain}', which is
 * then disabled. The counts are reached through the JSON API with the page's session.
 */

const origin = (page: Page) => new URL(page.url()).origin;

async function newProject(page: Page, name: string): Promise<string> {
  const res = await page.request.post("/api/app/create", {
    headers: { Origin: origin(page) },
    data: { name, siteType: "business", idempotencyKey: name.replace(/\W+/g, "-") },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { studioId: string }).studioId;
}

test("too many Stripe keys checked for a project: said beside the secret key field", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  await page.goto("/sites");
  const studioId = await newProject(page, `Key checks ${tag} ${Date.now()}`);
  // The project's day of key checks, spent on keys Stripe refuses (30, docs/configuration.md).
  for (let i = 0; i < 30; i += 1) {
    const res = await page.request.post("/api/app/integrations/payments", {
      headers: { Origin: origin(page) },
      data: {
        action: "add-account",
        studio: { pagebuilderId: studioId },
        stripeAccounts: {
          accountName: "Probe",
          stripePKey: `pk_test_probe${i}`,
          stripeSKey: "sk_test_invalid0key99",
        },
      },
    });
    expect(res.status(), `check ${i + 1}`).toBe(400);
  }

  await page.goto(`/sites/integrations/payments/${studioId}`);
  await page.getByRole("link", { name: "Add Stripe Account" }).click();
  let dialog = page.getByRole("dialog", { name: "Add Stripe Account" });
  await dialog.getByLabel("Account name").fill("Main shop");
  await dialog.getByLabel("Stripe publishable key").fill("pk_test_51Main0shop");
  await dialog.getByLabel("Stripe secret key").fill("sk_test_Valid0key1234");
  await dialog.getByRole("button", { name: "Add account" }).click();
  if (jsDisabled(testInfo)) dialog = page.getByRole("dialog", { name: "Add Stripe Account" });
  await expect(dialog.getByLabel("Stripe secret key")).toHaveAccessibleDescription(
    /Too many Stripe keys checked\. Please wait \d+ hours and try again\./,
  );
  await page.goto(`/sites/integrations/payments/${studioId}`);
  await expect(page.getByText("No Stripe account added yet.")).toBeVisible();
});

test("a project at its sender domain cap: said beside 'Add', which is then disabled", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  await page.goto("/sites");
  const studioId = await newProject(page, `Sender domains ${tag} ${Date.now()}`);
  const stamp = `${tag.replace(/\W/g, "")}${Date.now().toString(36)}`;
  const addThroughApi = async (domain: string) => {
    const res = await page.request.post("/api/newsletter?path=domains", {
      headers: { Origin: origin(page) },
      data: { studioId, domain },
    });
    expect(res.status(), domain).toBe(201);
  };
  for (let i = 1; i <= 4; i += 1) await addThroughApi(`brand${i}.${stamp}.example`);

  const sixth = `news.${stamp}.example`;
  await page.goto(`/sites/newsletter/${studioId}`);
  await page.getByLabel("From e-mail").fill(`hello@${sixth}`);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved", { exact: true }).first()).toBeVisible();
  const add = page.getByRole("button", { name: `Add ${sixth}` });
  await expect(add).toBeEnabled();

  // The fifth arrives while the page is open: the click is refused, the reason beside the button.
  await addThroughApi(`brand5.${stamp}.example`);
  await add.click();
  const message = "A project can have at most 5 sender domains. Delete one to add another.";
  await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible();
  await expect(add).toBeDisabled();
  await expect(add).toHaveAccessibleDescription(message);
  await expect(page.getByRole("article", { name: sixth })).toHaveCount(0);
});
