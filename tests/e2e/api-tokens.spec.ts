import { expect, pressWithProof, test } from "./support/fixtures";

/**
 * Personal access tokens, once with JavaScript and once without (decision 029): made in User
 * Settings > API tokens and shown once, used by a script (a request context with no cookie and no
 * Origin) to list and create projects, gone from the page after a reload, revoked behind a
 * confirmation, and refused from the next call.
 */
test("a token is made, shown once, used by a script, revoked and then refused", async ({
  page,
  signIn,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const name = `CI ${tag} ${Date.now()}`;
  await signIn(page, { name: "Tom Tokens", email: `tokens-${tag}@example.com` });

  await page.goto("/sites/user-settings");
  await page.getByRole("link", { name: "Manage API tokens" }).click();
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
  const form = page.getByRole("region", { name: "New token" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel(/^Read and write/).check();
  await form.getByLabel("Expires").selectOption({ label: "In 7 days" });
  const made = page.getByRole("status", { name: `Your new token ${name}` });
  // Back from /auth/confirm, the form holds what was typed: pressing again is enough.
  await pressWithProof(page, () => form.getByRole("button", { name: "Make token" }).click(), made);
  const token = await made.getByLabel(`The token ${name}`).inputValue();
  expect(token).toMatch(/^stackshift_pat_[A-Za-z0-9_-]{43}$/);

  // The script: no session cookie, no Origin header.
  const auth = { Authorization: `Bearer ${token}` };
  expect((await request.get("/api/app", { headers: auth })).status()).toBe(200);
  const created = await request.post("/api/app/create", {
    headers: auth,
    data: {
      name: `Scripted ${tag} ${Date.now()}`,
      idempotencyKey: `scripted-${tag}-${Date.now()}`,
    },
  });
  expect(created.status()).toBe(201);

  // Shown once: a later visit lists the token by its last four characters only. (Not a reload:
  // without JavaScript that would send the form again, after the browser's warning.)
  await page.goto("/sites/user-settings/tokens");
  await expect(page.getByRole("status", { name: `Your new token ${name}` })).toHaveCount(0);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(`…${token.slice(-4)}`);
  await expect(row).toContainText("Read and write");
  await expect(row).toContainText("Active");

  await row.getByRole("link", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Revoke ${name}?` });
  await dialog.getByRole("button", { name: "Yes, revoke it" }).click();
  await expect(page.getByText("Token revoked").first()).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");

  const refused = await request.get("/api/app", { headers: auth });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: "Invalid, expired or revoked token" });
});
