import type { Page, TestInfo } from "@playwright/test";
import { expect, type Account } from "./fixtures";

/**
 * Helpers for the project lifecycle tests (tests/e2e/project-lifecycle.spec.ts): the project's
 * own platform admin, projects created through the Create New dialog, and reloading a page until
 * the background jobs (provisioning, local deployments) have moved on.
 */
export { PASSWORD } from "./fixtures";

/** The Playwright project's own platform admin (ADMIN_EMAILS in playwright.config.ts). */
export function adminEmail(testInfo: TestInfo) {
  return `admin-${testInfo.project.name}@example.com`;
}

/**
 * The project's admin, to sign in with the `signIn` fixture (which signs it up the first time;
 * the onboarding test may have signed it up earlier against the same server). `email` names
 * another platform admin of ADMIN_EMAILS in playwright.config.ts.
 */
export function adminAccount(testInfo: TestInfo, email = adminEmail(testInfo)): Account {
  return { email, name: `Admin ${testInfo.project.name}` };
}

/** A short name unique per Playwright project and run (site names keep its first 40 chars). */
export function uniqueName(testInfo: TestInfo, prefix: string) {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  return `${prefix} ${testInfo.project.name} ${run}`;
}

/**
 * Creates a project through the Create New dialog (with or without JavaScript) and returns its
 * studio id, read from its link in the project list.
 */
export async function createProject(
  page: Page,
  name: string,
  siteType: "Business" | "Enterprise" = "Enterprise",
): Promise<string> {
  await page.goto("/sites");
  await page.getByRole("main").getByRole("link", { name: "Create New" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create New" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel(siteType).check();
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  const confirm = dialog.getByRole("alertdialog");
  await expect(confirm).toContainText(`named "${name}"?`);
  await confirm.getByRole("button", { name: "Yes, create" }).click();
  await expect(page.getByText(`Project ${name} created!`).first()).toBeVisible();

  await page.goto("/sites");
  const link = page.getByRole("link", { name, exact: true });
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  const studioId = href?.match(/^\/sites\/([^/?#]+)$/)?.[1];
  if (!studioId) throw new Error(`No studio id in the project link ${href}`);
  return decodeURIComponent(studioId);
}

/**
 * Reloads `url` until `check` passes: the background jobs move the project on by themselves,
 * and without JavaScript nothing refreshes the page.
 */
export async function reloadUntil(
  page: Page,
  url: string,
  check: () => Promise<void>,
  timeout = 45_000,
) {
  await expect(async () => {
    await page.goto(url);
    await check();
  }).toPass({ timeout, intervals: [1_000, 1_000, 2_000] });
}

/** The dashboard's status badges ('New', the build state, 'Live', 'UPGRADE REQUIRED'). */
export function statusBadges(page: Page) {
  return page.getByRole("list", { name: "Status" });
}

/** The build state label shown by the badges, read once. */
export async function buildStateLabel(page: Page): Promise<string | null> {
  const labels = await statusBadges(page).getByRole("listitem").allInnerTexts();
  return (
    labels
      .map((l) => l.trim())
      .find((l) => ["Ready", "Getting Ready", "In Progress", "Build Error"].includes(l)) ?? null
  );
}

/**
 * Creates `count` business projects named `{prefix} {n}` (n zero-padded to `digits`, 1 the
 * oldest) through the JSON API with the page's session, on the page's server `origin`. Returns
 * their studio ids, oldest first.
 *
 * `groups` (sizes adding up to `count`) trades strict order for time: a group's projects are
 * created a few at a time, in any order among themselves, and each group only after the one
 * before it, so only the order between groups is certain. Without it, one after another.
 */
export async function createProjectsThroughApi(
  page: Page,
  origin: string,
  prefix: string,
  count: number,
  digits = 2,
  groups: number[] = Array.from({ length: count }, () => 1),
): Promise<string[]> {
  expect(
    groups.reduce((a, b) => a + b, 0),
    "group sizes add up to count",
  ).toBe(count);
  const create = async (i: number): Promise<string> => {
    const n = String(i).padStart(digits, "0");
    const request = {
      headers: { Origin: origin },
      data: {
        name: `${prefix} ${n}`,
        siteType: "business",
        idempotencyKey: `${prefix.replace(/\s+/g, "-")}-${n}`,
      },
    };
    // The idempotency key makes a second try safe when the connection drops (a busy CI machine
    // has reset one): it answers 200 with the project the first try created, if it did.
    let retried = false;
    const res = await page.request.post("/api/app/create", request).catch(() => {
      retried = true;
      return page.request.post("/api/app/create", request);
    });
    expect(retried ? [200, 201] : [201], `create ${n}`).toContain(res.status());
    return ((await res.json()) as { studioId: string }).studioId;
  };
  const studioIds: string[] = [];
  let next = 1;
  for (const size of groups) {
    const numbers = Array.from({ length: size }, (_, k) => next + k);
    next += size;
    for (let at = 0; at < numbers.length; at += IN_FLIGHT) {
      studioIds.push(...(await Promise.all(numbers.slice(at, at + IN_FLIGHT).map(create))));
    }
  }
  return studioIds;
}

/** Creations in flight at once within a group: enough to overlap the round trips. */
const IN_FLIGHT = 4;
