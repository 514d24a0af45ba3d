import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "../e2e/support/fixtures";
import { createProject, reloadUntil, uniqueName } from "../e2e/support/lifecycle";
import { ROUTES_DIR, routeFiles } from "../route-files";

/**
 * axe-core on every page of the product and its dialogs, at 1280 px and 375 px, in light and
 * dark mode: no violation of any impact, of the WCAG 2.1 A and AA rules or axe's best practices
 * (landmarks, headings, one main region...), and no page with two
 * notifications landmarks. The pages come from app/routes: a page route that is neither visited
 * here nor listed as having no page of its own fails the test, so a new page is covered or named.
 *
 * `npm run a11y` (playwright.a11y.config.ts: the browser suite's servers, JavaScript on, since
 * axe runs in the page; the server markup is the same without it) runs every page at both widths
 * in both modes (~70 axe runs of 2-6 s per mode). `npm test` runs the short plan as the "a11y"
 * project of playwright.config.ts: every page once, the width and mode pairs in turn.
 */

// The two colour modes check in parallel, one worker each. No trace: it would record axe's
// half-megabyte script and a snapshot on every one of the ~70 runs per test.
test.describe.configure({ mode: "parallel" });
test.use({ trace: "off" });

type Context = { studioId: string; ticketPath: string; siteUrl: string };
type Visit = {
  /** The route module the page comes from. */
  route: string;
  url: (c: Context) => string;
  /** A dialog the address opens: it must be open when axe runs. */
  dialog?: boolean;
  /** Visited signed out. */
  anonymous?: boolean;
  /** A hosted site's page, not the dashboard's: it has no colour modes of its own. */
  site?: boolean;
};

/** The project dashboard's route module. */
const DASHBOARD = "_app._project.sites.$studioId/route.tsx";

const VISITS: Visit[] = [
  { route: "auth.login.tsx", url: () => "/auth/login", anonymous: true },
  { route: "signup.tsx", url: () => "/signup", anonymous: true },
  { route: "request-access.tsx", url: () => "/request-access", anonymous: true },
  { route: "auth.forgot.tsx", url: () => "/auth/forgot", anonymous: true },
  {
    route: "auth.verify._index.tsx",
    url: () => "/auth/verify?email=a%40example.com",
    anonymous: true,
  },
  { route: "auth.verify.$token.tsx", url: () => "/auth/verify/not-a-token", anonymous: true },
  {
    route: "auth.email-change.$token.tsx",
    url: () => "/auth/email-change/not-a-token",
    anonymous: true,
  },
  {
    route: "auth.email-revert.$token.tsx",
    url: () => "/auth/email-revert/not-a-token",
    anonymous: true,
  },
  { route: "auth.reset.$token.tsx", url: () => "/auth/reset/not-a-token", anonymous: true },
  { route: "auth.sign-in.$token.tsx", url: () => "/auth/sign-in/not-a-token", anonymous: true },
  { route: "auth.confirm.tsx", url: () => "/auth/confirm?returnTo=%2Fsites" },
  {
    route: "form-notifications.$token.tsx",
    url: () => "/form-notifications/not-a-token",
    anonymous: true,
  },
  {
    route: "notifications.unsubscribe.$token.tsx",
    url: () => "/notifications/unsubscribe/not-a-token",
    anonymous: true,
  },
  { route: "_app._index.tsx", url: () => "/" },
  { route: "_app.sites._index.tsx", url: () => "/sites" },
  { route: "_app.sites._index.tsx", url: () => "/sites?dialog=create", dialog: true },
  { route: DASHBOARD, url: (c) => `/sites/${c.studioId}` },
  {
    route: DASHBOARD,
    url: (c) => `/sites/${c.studioId}?dialog=link-social`,
    dialog: true,
  },
  {
    route: "_app._project.sites.$studioId_.activity.tsx",
    url: (c) => `/sites/${c.studioId}/activity`,
  },
  {
    route: "_app._project.sites.$studioId_.webhooks.tsx",
    url: (c) => `/sites/${c.studioId}/webhooks`,
  },
  {
    route: "_app._project.sites.website.$studioId.tsx",
    url: (c) => `/sites/website/${c.studioId}`,
  },
  {
    route: "_app._project.sites.website.$studioId.tsx",
    url: (c) => `/sites/website/${c.studioId}?dialog=redeploy`,
    dialog: true,
  },
  {
    route: "_app._project.sites.analytics.$studioId.tsx",
    url: (c) => `/sites/analytics/${c.studioId}`,
  },
  { route: "_app._project.sites.forms.$studioId.tsx", url: (c) => `/sites/forms/${c.studioId}` },
  {
    route: "_app._project.sites.newsletter.$studioId.tsx",
    url: (c) => `/sites/newsletter/${c.studioId}`,
  },
  {
    route: "_app._project.sites.social-media.$studioId.tsx",
    url: (c) => `/sites/social-media/${c.studioId}`,
  },
  {
    route: "_app._project.sites.settings.$studioId.tsx",
    url: (c) => `/sites/settings/${c.studioId}`,
  },
  {
    route: "_app._project.sites.settings.$studioId.tsx",
    url: (c) => `/sites/settings/${c.studioId}?dialog=delete-project`,
    dialog: true,
  },
  { route: "_app.sites.domains.tsx", url: () => "/sites/domains" },
  { route: "_app.sites.integrations._index.tsx", url: () => "/sites/integrations" },
  {
    route: "_app.sites.integrations.$integrationId.tsx",
    url: () => "/sites/integrations/payments",
  },
  {
    route: "_app._project.sites.integrations.$integrationId_.$studioId.tsx",
    url: (c) => `/sites/integrations/payments/${c.studioId}`,
  },
  {
    route: "_app._project.sites.integrations.$integrationId_.$studioId.tsx",
    url: (c) => `/sites/integrations/payments/${c.studioId}?dialog=add-stripe`,
    dialog: true,
  },
  { route: "_app.sites.support._index.tsx", url: () => "/sites/support" },
  {
    route: "_app.sites.support._index.tsx",
    url: () => "/sites/support?dialog=new-ticket",
    dialog: true,
  },
  { route: "_app.sites.support.$ticketId.tsx", url: (c) => c.ticketPath },
  { route: "_app.sites.user-settings.tsx", url: () => "/sites/user-settings" },
  {
    route: "_app.sites.user-settings.tsx",
    url: () => "/sites/user-settings?dialog=delete-account",
    dialog: true,
  },
  {
    route: "_app.sites.user-settings_.notifications.tsx",
    url: () => "/sites/user-settings/notifications",
  },
  { route: "_app.sites.user-settings_.tokens.tsx", url: () => "/sites/user-settings/tokens" },
  {
    route: "_app.sites.user-settings_.two-factor.tsx",
    url: () => "/sites/user-settings/two-factor",
  },
  { route: "_app.admin.tsx", url: () => "/admin" },
  { route: "_app.admin_.tokens.tsx", url: () => "/admin/tokens" },
  { route: "_app.dev.outbox.tsx", url: () => "/dev/outbox" },
  { route: "local.sites.$siteId.tsx", url: (c) => c.siteUrl, site: true },
];

/** Route modules with no page of their own to check, and why. */
const NOT_PAGES: Record<string, string> = {
  "_app.tsx": "the layout of the signed-in pages (checked on each of them)",
  "_app._project.tsx": "the frame of a project's pages (checked on each of them)",
  "auth.logout.tsx": "signs out and redirects",
  "auth.oidc.tsx": "redirects to the identity provider",
  "auth.oidc.callback.tsx": "redirects back from the identity provider",
  "auth.two-factor.tsx":
    "the second step of a password sign-in; axe checks it in tests/e2e/two-factor.spec.ts",
  "dashboard.tsx": "redirects to /sites",
  "pagebuilders.tsx": "redirects to /sites",
  "resources.theme.tsx": "sets the colour mode and redirects",
  "studios.autologin.$studioId.tsx": "redirects into the content studio",
  "studios.integrations.$integrationId.$studioId.($adminUserId).tsx": "redirects to a project page",
  "_app._project.sites.$studioId_.deployment-error.tsx":
    "a project page in a failure state (lifecycle tests)",
  "_app._project.sites.$studioId_.failed-deployment.tsx":
    "a project page in a failure state (lifecycle tests)",
  "_app._project.sites.integrations.$integrationId_.$studioId.tsx#social": "same page as payments",
  "forms.$formId.thanks.tsx": "the plain thank-you page of a hosted site's form",
  "invitations.$invitationKey.tsx": "an invitation's answer page (members tests)",
  "local.oauth.$provider.authorize.tsx": "the local provider's stand-in of a vendor's page",
  "local.studio.$projectId.tsx": "the local content studio stand-in",
  "oauth.$provider.callback/route.tsx": "the linking return page (integrations tests)",
};

const WIDTHS = [1280, 375] as const;
const MODES = ["light", "dark"] as const;

/** Page route modules: .tsx files of app/routes with a default export. */
function pageRoutes() {
  return routeFiles()
    .filter((f) => f.endsWith(".tsx"))
    .filter((f) =>
      /export default function/.test(fs.readFileSync(path.join(ROUTES_DIR, f), "utf8")),
    );
}

test("every page route is visited by the accessibility check or named as not a page", () => {
  const visited = new Set(VISITS.map((v) => v.route));
  const missing = pageRoutes().filter((f) => !visited.has(f) && !(f in NOT_PAGES));
  expect(missing, "page routes neither checked nor listed in NOT_PAGES").toEqual([]);
});

async function prepare(
  page: Page,
  testInfo: TestInfo,
  signIn: (p: Page, a: { name: string; email: string }) => Promise<void>,
) {
  await signIn(page, { name: "Ada Admin", email: `admin-${testInfo.project.name}@example.com` });
  const name = uniqueName(testInfo, "A11y");
  const studioId = await createProject(page, name);
  await page.goto("/sites/support?dialog=new-ticket");
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Subject").fill("Contrast check");
  await dialog.getByLabel("Description").fill("A ticket for the accessibility check.");
  await dialog.getByRole("button", { name: "Create ticket" }).click();
  await page.waitForURL(/\/sites\/support\/[^/?]+/);
  const ticketPath = new URL(page.url()).pathname;
  let siteUrl = "";
  await reloadUntil(
    page,
    `/sites/website/${studioId}`,
    async () => {
      await expect(page.getByRole("region", { name: "Published deployment" })).toContainText(
        "(ready",
        { timeout: 500 },
      );
      siteUrl =
        (await page
          .getByRole("table", { name: "Where the site is served" })
          .getByRole("link")
          .first()
          .getAttribute("href")) ?? "";
    },
    60_000,
  );
  return { studioId, ticketPath, siteUrl };
}

type Mode = (typeof MODES)[number];
type Step = { visit: Visit; width: number; mode: Mode };

/**
 * The full check (`npm run a11y`): every page at both widths, one test per colour mode. The short
 * one (the "a11y" project of `npm test`): every page once, the four width and mode pairs taken in
 * turn, so each pair is checked on a quarter of the pages and every page on one of them.
 */
const FULL = process.env.A11Y_FULL === "1"; // set by playwright.a11y.config.ts
const plans: { title: string; steps: Step[] }[] = FULL
  ? MODES.map((mode) => ({
      title: `${mode} mode, 1280 and 375 px`,
      steps: WIDTHS.flatMap((width) => VISITS.map((visit) => ({ visit, width, mode }))),
    }))
  : [
      {
        title: "each page once, light and dark, 1280 and 375 px in turn",
        steps: VISITS.map((visit, i) => ({
          visit,
          width: WIDTHS[(i >> 1) % 2],
          mode: MODES[i % 2],
        })),
      },
    ];

for (const plan of plans) {
  test(`no axe violation (WCAG 2.1 A and AA, best practices) on any page: ${plan.title}`, async ({
    page,
    signIn,
    browser,
    baseURL,
  }, testInfo) => {
    // axe takes 2-6 s a page on a busy 2-core machine: ~70 views for the full plan, 34 short.
    test.setTimeout(FULL ? 900_000 : 480_000);
    const context = await prepare(page, testInfo, signIn);
    const anonymous = await browser.newContext({ baseURL });
    const anonymousPage = await anonymous.newPage();
    const problems: string[] = [];
    const visited: string[] = [];
    for (const { visit, width, mode } of plan.steps) {
      const target = visit.anonymous ? anonymousPage : page;
      // The colour mode cookie as the app writes it (a base64 JSON string).
      await target.context().addCookies([
        {
          name: "stackshift_theme",
          value: Buffer.from(JSON.stringify(mode)).toString("base64"),
          url: baseURL!,
        },
      ]);
      await target.setViewportSize({ width, height: 900 });
      const url = visit.url(context);
      await target.goto(url);
      if (!visit.site) {
        await expect(target.locator("html")).toHaveClass(mode === "dark" ? /dark/ : /^(?!.*dark)/);
      }
      const started = Date.now();
      if (visit.dialog) {
        await expect(
          target.getByRole("dialog").or(target.getByRole("alertdialog")).first(),
        ).toBeVisible();
      }
      const result = await new AxeBuilder({ page: target })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
        .analyze();
      if (!visit.site) {
        // One notifications landmark a page: Radix's toast viewport, which the root's Toaster
        // renders once the popups chunk is loaded after hydration (well before axe is done; on
        // the dashboard, with its studio launch buttons, the test waits for it).
        const regions = target.getByRole("region", { name: "Notifications (F8)", exact: true });
        if (visit.route === DASHBOARD && !visit.dialog) {
          await expect.poll(() => regions.count()).toBeGreaterThan(0);
        }
        const count = await regions.count();
        if (count > 1) {
          problems.push(`${url} @${width} ${mode}: ${count} regions named 'Notifications (F8)'`);
        }
      }
      visited.push(`${url} @${width} ${mode} (axe ${Date.now() - started} ms)`);
      if (process.env.A11Y_VERBOSE) console.log(visited.at(-1));
      for (const v of result.violations) {
        const where = v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`)
          .join(" | ");
        problems.push(`${url} @${width} ${mode}: ${v.id} (${v.nodes.length}) ${where}`);
        if (process.env.A11Y_VERBOSE) console.log(problems.at(-1));
      }
    }
    await anonymous.close();
    await testInfo.attach("pages visited", { body: visited.join("\n"), contentType: "text/plain" });
    console.log(
      `axe, ${plan.title}: ${visited.length} page views checked, ${problems.length} violations (WCAG 2.1 A and AA, best practices)`,
    );
    expect(problems).toEqual([]);
  });
}

/**
 * Reflow (WCAG 2.1 SC 1.4.10): at 320 CSS px, what 400 % zoom gives a 1280 px window, every page
 * fits its width; nothing makes the page scroll sideways. A desktop context with a narrow
 * viewport, as zoom makes it, not a phone's emulation. Wide tables may scroll inside their own
 * region; the page itself must not.
 */
test("every page reflows at 320 CSS px: no sideways scroll", async ({
  page,
  signIn,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(300_000);
  const context = await prepare(page, testInfo, signIn);
  const anonymous = await browser.newContext({ baseURL });
  const anonymousPage = await anonymous.newPage();
  const wide: string[] = [];
  for (const visit of VISITS) {
    const target = visit.anonymous ? anonymousPage : page;
    await target.setViewportSize({ width: 320, height: 800 });
    const url = visit.url(context);
    await target.goto(url);
    if (visit.dialog) {
      await expect(
        target.getByRole("dialog").or(target.getByRole("alertdialog")).first(),
      ).toBeVisible();
    }
    const overflow = await target.evaluate(() => {
      const root = document.documentElement;
      const extra = root.scrollWidth - root.clientWidth;
      if (extra <= 0) return null;
      // The outermost elements wider than the page, or reaching past its edge: what to mend.
      const past = (el: Element) => el.getBoundingClientRect().right > root.clientWidth + 1;
      const culprits = [...document.body.querySelectorAll("*")]
        .filter((el) => past(el) && !(el.parentElement && past(el.parentElement)))
        .slice(0, 3)
        .map((el) => {
          const name = el.getAttribute("aria-label") ?? el.id;
          const width = Math.round(el.getBoundingClientRect().width);
          return `${el.tagName.toLowerCase()}${name ? ` "${name}"` : ""} ${width} px (${el.className.toString().slice(0, 80)}) in ${el.parentElement?.tagName.toLowerCase()}.${el.parentElement?.className.toString().slice(0, 80)}`;
        });
      return `${extra} px too wide (${culprits.join(", ")})`;
    });
    if (overflow) wide.push(`${url}: ${overflow}`);
  }
  await anonymous.close();
  expect(wide).toEqual([]);
});
