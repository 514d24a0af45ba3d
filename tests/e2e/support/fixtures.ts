import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type Cookie,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { confirmSignup } from "./mail";

/**
 * The fixtures every browser test uses:
 *
 * - every page of the test, the `page` fixture's and those of the other browsers it opens
 *   (`openPage`, `otherPerson` in members.ts) and the tabs they open, fails the test when its
 *   console shows an error or it throws (CSP violations, hydration errors);
 * - `signIn` signs a page in as a person. The first time in a worker it goes through the real
 *   login form (signing up first when the account does not exist yet); later tests of the same
 *   person on the same server reuse that session's cookie (Playwright storage state). Tests
 *   about logging in and signing up use the forms themselves.
 *
 * Why not create sessions directly: they are database rows behind a signed cookie, and the test
 * servers own their embedded databases; only a test-only sign-in route could make one, and the
 * product has no such back door (nor should it).
 */

/** Every test account's password (long enough for the sign-up form). */
export const PASSWORD = "a long enough password";

/** A person to sign in as; `name` is used when the account has to be signed up. */
export type Account = { email: string; name: string };

/** The pages watched in the running test, each with what went wrong in it. */
const watched: { label: string; problems: string[] }[] = [];
const watchedContexts = new WeakSet<BrowserContext>();

/**
 * Collects the console errors and uncaught exceptions of `page` (and returns them); the test
 * fails at its end if there are any.
 */
export function watchPage(page: Page, label = "page"): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    // 4xx answers to bad input are expected and logged by the browser as failed loads.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      problems.push(`console: ${message.text()} (on ${page.url()})`);
    }
  });
  page.on("pageerror", (error) => {
    if (closing.has(page) && /React error #345\b/.test(error.message)) return;
    // Where it happened: a context the test closed leaves no trace to read it from.
    problems.push(`page error: ${error.message} (on ${page.url()})`);
  });
  watched.push({ label, problems });
  loadsWaitForHydration(page);
  return problems;
}

/**
 * With JavaScript, loading a page (`goto`, `reload`) returns once the page has hydrated. The
 * page's scripts load after its first paint (decision 036), so after the load event Playwright
 * waits for; a test acting at once would race hydration replacing the no-JavaScript versions,
 * which the no-js project tests on their own. A person, too, acts on a page once it has settled.
 * Pages that are not the app's (the local public sites) have no Remix context and do not wait,
 * nor does a load asked to return at `commit`: the test means to act before hydration (a test
 * holding the scripts back would otherwise wait for a hydration it is itself holding up).
 */
function loadsWaitForHydration(page: Page) {
  if (jsDisabled(base.info())) return;
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== "commit") await hydrated(page);
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    if (options?.waitUntil !== "commit") await hydrated(page);
    return response;
  };
}

/** Resolves once the app's page in `page` has hydrated (at once for a page that is not the app's). */
function hydrated(page: Page) {
  return page.waitForFunction(
    () => !("__remixContext" in window) || document.documentElement.hasAttribute("data-hydrated"),
    undefined,
    { timeout: 15_000 },
  );
}

/**
 * A tab the page's script opened (`window.open`), once loaded and hydrated, as a person would act
 * on it. Its first page is not loaded by `goto`, so it would not wait otherwise: a form sent from
 * the half-hydrated page navigates while React is still rendering, and Chromium tearing that
 * document down was reported as React's error 345 (once, in CI's Stripe Connect test).
 */
export async function openedTab(popup: Promise<Page>) {
  const tab = await popup;
  await tab.waitForLoadState();
  await hydrated(tab);
  return tab;
}

/** The tabs the test is closing itself (closeTab). */
const closing = new WeakSet<Page>();

/**
 * Closes a tab the way a person does, when the test is done with it. Chromium tears the page
 * down wherever its scripts are, and React reports a render cut off that way as error 345 ('Root
 * did not complete'); from a tab this test closed, that one error is the test's doing, not the
 * page's, and is not counted. Any other error still is.
 */
export async function closeTab(page: Page) {
  closing.add(page);
  await page.close();
}

/** Watches the tabs a page of `context` opens (links with target=_blank), like their opener. */
function watchNewTabs(context: BrowserContext, label: string) {
  if (watchedContexts.has(context)) return;
  watchedContexts.add(context);
  context.on("page", (tab) => watchPage(tab, `${label}'s new tab`));
}

/** The contexts the running test opened through newWatchedPage, closed at its end. */
const opened: BrowserContext[] = [];

/** Which server each context talks to, for the sign-in cache (contexts made by openPage). */
const contextOrigins = new WeakMap<BrowserContext, string>();

/**
 * A page in a new browser context (another person, or another test server), with JavaScript as
 * the running Playwright project has it. Its console is watched like the `page` fixture's; the
 * context is closed after the test if the test did not close it.
 */
export async function newWatchedPage(
  browser: Browser,
  testInfo: TestInfo,
  { baseURL, label = "other browser" }: { baseURL: string; label?: string },
) {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: !jsDisabled(testInfo),
  });
  contextOrigins.set(context, new URL(baseURL).origin);
  opened.push(context);
  const page = await context.newPage();
  const problems = watchPage(page, label);
  watchNewTabs(context, label);
  return { page, problems };
}

const projectsHeading = (page: Page) => page.getByRole("heading", { name: "Projects", level: 1 });

/**
 * Logs in through the login form, or signs up first (with the mailed confirmation link) when
 * the account does not exist yet. Ends on the project list.
 */
export async function logInOrSignUpWithForms(page: Page, { email, name }: Account) {
  // Two workers may need the same person on the same server at once: when the other one signs
  // up first, this one's login finds the sign-up unconfirmed, or its own sign-up finds the
  // account (or its confirmation link spent); logging in again a moment later finds it.
  for (let attempt = 1; ; attempt += 1) {
    await page.goto("/auth/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    const refused = page.getByRole("alert").filter({ hasText: "Invalid email or password" });
    // The other worker's sign-up, not confirmed yet: it will be in a moment.
    const pending = page.getByRole("alert").filter({ hasText: "Confirm your email address first" });
    await expect(projectsHeading(page).or(refused).or(pending)).toBeVisible();
    if (await projectsHeading(page).isVisible()) return;
    if (await pending.isVisible()) {
      expect(attempt, `${email} stays unconfirmed`).toBeLessThan(10);
      await page.waitForTimeout(1_000);
      continue;
    }
    await page.goto("/signup");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();
    const confirm = page.getByRole("heading", { name: "Confirm your email" });
    const exists = page.getByText("An account with this email already exists");
    await expect(confirm.or(exists)).toBeVisible();
    if (await confirm.isVisible()) {
      await confirmSignup(page, email);
      // Confirming one pending sign-up spends the address's others: if the other worker
      // confirmed first, this link is spent, and logging in again finds the account.
      const spent = page.getByRole("heading", { name: "This confirmation link cannot be used" });
      await expect(projectsHeading(page).or(spent)).toBeVisible();
      if (await projectsHeading(page).isVisible()) {
        await expect(page).toHaveURL(/\/$/);
        return;
      }
    }
    expect(attempt, `${email} exists but cannot log in`).toBeLessThan(10);
    await page.waitForTimeout(1_000);
  }
}

/** The session cookie (the only one worth keeping: the toast and theme cookies are not). */
const isSessionCookie = (cookie: Cookie) => /stackshift_session$/.test(cookie.name);

type TestFixtures = {
  page: Page;
  /** Checks every watched page of the test at its end (automatic). */
  consoleRule: void;
  /** A page in a new, watched browser context on `baseURL` (default: the main test server). */
  openPage: (options?: { baseURL?: string; label?: string }) => Promise<Page>;
  /** Signs `page` in as `account`: the login form once per worker, then its session cookie. */
  signIn: (page: Page, account: Account) => Promise<void>;
};
type WorkerFixtures = {
  /** Session cookies by server origin and e-mail, for this worker's later tests. */
  signedInCookies: Map<string, Cookie[]>;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  consoleRule: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures from it
    async ({}, provide) => {
      watched.length = 0;
      opened.length = 0;
      await provide();
      for (const context of opened) await context.close().catch(() => {});
      const problems = watched.flatMap(({ label, problems }) =>
        problems.map((p) => `${label}: ${p}`),
      );
      expect(problems, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
  // After consoleRule (which it names), so the rule starts the test's list before the page joins.
  page: async ({ page, baseURL, consoleRule: _rule }, provide) => {
    if (baseURL) contextOrigins.set(page.context(), new URL(baseURL).origin);
    watchNewTabs(page.context(), "page");
    watchPage(page);
    await provide(page);
  },
  openPage: async ({ browser, baseURL, consoleRule: _rule }, provide, testInfo) => {
    await provide(async (options = {}) => {
      const { page } = await newWatchedPage(browser, testInfo, {
        baseURL: options.baseURL ?? baseURL!,
        label: options.label,
      });
      return page;
    });
  },
  signedInCookies: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures from it
    async ({}, provide) => provide(new Map()),
    { scope: "worker" },
  ],
  signIn: async ({ baseURL, signedInCookies }, provide) => {
    await provide(async (page, account) => {
      const origin = contextOrigins.get(page.context()) ?? new URL(baseURL!).origin;
      const key = `${origin} ${account.email.toLowerCase()}`;
      const cookies = signedInCookies.get(key);
      if (cookies) {
        await page.context().addCookies(cookies);
        await page.goto("/");
        // Where the login form leads; a session that ended meanwhile goes to the login page.
        if (await projectsHeading(page).isVisible()) return;
      }
      await logInOrSignUpWithForms(page, account);
      const state = await page.context().storageState();
      signedInCookies.set(key, state.cookies.filter(isSessionCookie));
    });
  },
});

export { expect };

/**
 * Presses what `press` presses, and when the app asks for a recent proof first (/auth/confirm,
 * decision 039: the worker's shared session may be older than 10 minutes), confirms with the
 * password, comes back to the form and presses again. Ends when `done` shows.
 */
export async function pressWithProof(page: Page, press: () => Promise<void>, done: Locator) {
  await press();
  const confirm = page.getByRole("heading", { name: "Confirm it's you" });
  await expect(confirm.or(done).first()).toBeVisible();
  if (!(await confirm.isVisible())) return;
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Confirm with password" }).click();
  await expect(confirm).toBeHidden();
  await press();
  await expect(done).toBeVisible();
}

/** True when the running Playwright project has JavaScript disabled. */
export function jsDisabled(testInfo: { project: { name: string } }) {
  return testInfo.project.name === "no-js";
}

/**
 * Waits until the page has no navigation or revalidation under way (with JavaScript): one cut
 * off by the test's next load (a sign-in's redirect, a form's revalidation) is an aborted request
 * Remix reports as a console error.
 */
export async function settle(page: Page) {
  await page.waitForFunction(() => {
    const router = (
      window as unknown as {
        __remixRouter?: { state: { navigation: { state: string }; revalidation: string } };
      }
    ).__remixRouter;
    return (
      !router || (router.state.navigation.state === "idle" && router.state.revalidation === "idle")
    );
  });
}
