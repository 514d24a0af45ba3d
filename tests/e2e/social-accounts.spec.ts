import type { Page } from "@playwright/test";
import { closeTab, expect, jsDisabled, openedTab, test } from "./support/fixtures";
import { createProject } from "./support/members";

/**
 * Once with JavaScript (the authorization page opens in a popup, which reports back and closes
 * itself) and once without (the same round trip in the tab): an owner links an Instagram account
 * through the local authorization page, is told that a taken one is linked already, unlinks it;
 * a return address with a forged state is refused; 'Connect with Stripe' connects an account
 * and refuses it the second time.
 */

const CONFLICT =
  "Instagram Account is already linked! You can only link 1 account per unique username.";

/**
 * Connect from the open 'Link account' dialog, Authorize as `userName` on the local page; the
 * page where the outcome shows (the popup with JavaScript, the dashboard without).
 */
async function linkThroughAuthorizePage(page: Page, userName: string, js: boolean): Promise<Page> {
  const dialog = page.getByRole("dialog", { name: "Link account" });
  const connect = dialog.getByRole("button", { name: "Connect" });
  if (js) await expect(connect).toBeDisabled();
  await dialog.getByLabel("Platform").selectOption("instagram");
  if (js) await expect(connect).toBeDisabled();
  await dialog.getByLabel("I already have an Instagram professional account").check();
  let authorizing = page;
  if (js) {
    await expect(connect).toBeEnabled();
    const popup = page.waitForEvent("popup");
    await connect.click();
    authorizing = await openedTab(popup);
  } else {
    await connect.click();
  }
  await expect(authorizing.getByRole("heading", { name: "Authorize StackShift" })).toBeVisible();
  await expect(authorizing.getByText("instagram_business_content_publish")).toBeVisible();
  await authorizing.getByLabel("Instagram user name").fill(userName);
  await authorizing.getByRole("button", { name: "Authorize" }).click();
  return authorizing;
}

test("an owner links an Instagram account, is told a taken one is linked, and unlinks it", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const js = !jsDisabled(testInfo);
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, `Social ${tag} ${Date.now()}`);
  await page.goto(dashboard);
  const card = page.getByRole("region", { name: "Social Accounts" });
  await expect(card).toContainText(
    "No account added yet. Click the Link account button to start displaying social media feed to your StackShift site.",
  );

  const userName = `studio.${tag.replace(/\W/g, "")}${Date.now().toString(36)}`;
  await card.getByRole("link", { name: "Link account" }).click();
  const outcome = await linkThroughAuthorizePage(page, userName, js);
  if (js) {
    // The popup says so, reports to the dashboard (which shows the account) and closes itself.
    await expect(
      outcome.getByRole("heading", { name: "Completed Instagram authorization!" }),
    ).toBeVisible();
    await expect(outcome.getByText(/This window closes in \d+ seconds?\./)).toBeVisible();
    await expect(card).toContainText(`@${userName}`);
    await outcome.waitForEvent("close", { timeout: 15_000 });
  } else {
    await expect(page.getByText("Completed Instagram authorization!").first()).toBeVisible();
    await expect(card).toContainText(`@${userName}`);
  }
  await expect(card).toContainText("Last updated");
  await expect(card).toContainText("Instagram");
  const active = page.getByRole("region", { name: "Active Integrations" });
  await expect(active).toContainText(`@${userName} (Instagram)`);

  // A user name the local provider answers as linked elsewhere.
  await card.getByRole("link", { name: "Link account" }).click();
  const refused = await linkThroughAuthorizePage(page, `taken.${Date.now().toString(36)}`, js);
  if (js) {
    await expect(refused.getByRole("heading", { name: CONFLICT })).toBeVisible();
    await closeTab(refused);
    // Nothing was linked: the dialog stays, and the owner closes it.
    await page
      .getByRole("dialog", { name: "Link account" })
      .getByRole("link", { name: "Cancel" })
      .click();
  } else {
    await expect(page.getByText(CONFLICT).first()).toBeVisible();
  }

  // Go to profile points at the account; Unlink goes through its confirmation.
  await card.getByText(`Actions for @${userName}`).click();
  await expect(
    card.getByRole("link", { name: `Go to profile of @${userName} (new tab)` }),
  ).toHaveAttribute("href", `https://www.instagram.com/${userName}`);
  await card.getByRole("link", { name: `Unlink @${userName}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Unlink @${userName}` });
  await confirm.getByRole("button", { name: "Yes, unlink" }).click();
  await expect(page.getByText("Instagram account unlinked").first()).toBeVisible();
  await expect(card).toContainText("No account added yet.");
});

test("when Instagram cannot be reached, the return page tries ten times, then says so", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(90_000);
  const tag = testInfo.project.name;
  const js = !jsDisabled(testInfo);
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, `Outage ${tag} ${Date.now()}`);
  await page.goto(dashboard);
  const card = page.getByRole("region", { name: "Social Accounts" });
  await card.getByRole("link", { name: "Link account" }).click();
  // The local provider fails every exchange of a user name containing 'unreachable'.
  const outcome = await linkThroughAuthorizePage(
    page,
    `unreachable.${Date.now().toString(36)}`,
    js,
  );
  if (js) {
    await expect(outcome.getByText(/trying again \(attempt \d+ of 10\)/)).toBeVisible();
    await expect(
      outcome.getByRole("heading", { name: "Oops. Unable to complete linking process!" }),
    ).toBeVisible({ timeout: 30_000 });
    await expect(outcome.getByRole("link", { name: "support@stackshift.app" })).toHaveAttribute(
      "href",
      "mailto:support@stackshift.app",
    );
    await expect(
      outcome.getByText("Refresh this page to try again.", { exact: false }),
    ).toBeVisible();
    await closeTab(outcome);
  } else {
    // Without JavaScript the one attempt is made in the tab, and the dashboard says so.
    await expect(page.getByText("Oops. Unable to complete linking process!").first()).toBeVisible();
  }
  await page.goto(dashboard);
  await expect(card).toContainText("No account added yet.");
});

test("a return address with a forged state is refused and links nothing", async ({
  page,
  signIn,
}, testInfo) => {
  const tag = testInfo.project.name;
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, `Forged ${tag} ${Date.now()}`);
  const studioId = dashboard.split("/").at(-1)!;
  await page.goto(`/oauth/instagram/callback?code=stolen-code&state=${studioId}.${"A".repeat(32)}`);
  await expect(
    page.getByRole("heading", {
      name: "This authorization was not started here, or it has expired. Start linking again from the project.",
    }),
  ).toBeVisible();
  await page.goto(dashboard);
  await expect(page.getByRole("region", { name: "Social Accounts" })).toContainText(
    "No account added yet.",
  );
});

test("an owner connects a Stripe account with Stripe Connect, once", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = testInfo.project.name;
  const js = !jsDisabled(testInfo);
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const dashboard = await createProject(page, `Connect ${tag} ${Date.now()}`);
  const studioId = dashboard.split("/").at(-1)!;
  const accountId = `acct_e2e${tag.replace(/\W/g, "")}${Date.now().toString(36)}`;

  for (const expected of ["Completed Stripe authorization!", "Stripe Account is already linked!"]) {
    await page.goto(`/sites/integrations/payments/${studioId}`);
    let authorizing = page;
    if (js) {
      const popup = page.waitForEvent("popup");
      await page.getByRole("button", { name: "Connect with Stripe" }).click();
      authorizing = await openedTab(popup);
    } else {
      await page.getByRole("button", { name: "Connect with Stripe" }).click();
    }
    await expect(authorizing.getByRole("heading", { name: "Authorize StackShift" })).toBeVisible();
    await authorizing.getByLabel("Stripe account id").fill(accountId);
    await authorizing.getByLabel("Business name").fill("Corner Shop");
    await authorizing.getByRole("button", { name: "Authorize" }).click();
    if (js) {
      await expect(authorizing.getByRole("heading", { name: expected })).toBeVisible();
      await closeTab(authorizing);
    } else {
      await expect(page.getByText(expected).first()).toBeVisible();
    }
    const table = page.getByRole("table", { name: /^Stripe accounts of / });
    await expect(table.getByRole("row").filter({ hasText: "Corner Shop" })).toHaveCount(1);
  }
});
