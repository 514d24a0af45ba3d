import { expect, jsDisabled, test } from "./support/fixtures";
import {
  adminAccount,
  createProject,
  createProjectsThroughApi,
  uniqueName,
} from "./support/lifecycle";

/**
 * How a page loads (docs/decisions/036-paint-before-scripts.md): the server's HTML paints first
 * and names no script to fetch; the page's modules are fetched once the browser has painted it,
 * and then it hydrates (without a hydration error: the fixtures fail a test on any console
 * error). Without JavaScript no script is fetched at all.
 */
test("the page paints before its scripts are fetched, then hydrates", async ({
  page,
  signIn,
}, testInfo) => {
  await signIn(page, adminAccount(testInfo));
  const response = await page.goto("/sites");
  expect(response?.status()).toBe(200);
  expect(await response?.text()).not.toMatch(/<link[^>]*modulepreload/);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();

  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
        .map((entry) => entry.startTime),
    );
  if (jsDisabled(testInfo)) {
    expect(await scripts()).toEqual([]);
    return;
  }
  // Hydrated: Remix's router is there once the entry has run.
  await page.waitForFunction(() => "__remixRouter" in window);
  const firstPaint = await page.evaluate(
    () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
  );
  expect(firstPaint).not.toBeNull();
  const starts = await scripts();
  expect(starts.length).toBeGreaterThan(0);
  expect(Math.min(...starts)).toBeGreaterThanOrEqual(firstPaint!);
  // Hydration's end is marked once, for traces (`npm run bench` counts the long tasks after it).
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const marks = await page.evaluate(() =>
    performance.getEntriesByName("stackshift:hydrated", "mark").map((mark) => mark.startTime),
  );
  expect(marks).toHaveLength(1);
  expect(marks[0]).toBeGreaterThan(firstPaint!);
});

test("the dashboard's scripts cause no Content-Security-Policy violation (zod parses without eval)", async ({
  page,
  signIn,
}, testInfo) => {
  // Recorded from the page's first script on. A refused eval is reported to the page even when
  // the script that tried it catches the error (as zod's probe for `new Function` did), and the
  // browser does not always log it to the console, which the fixtures watch.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { cspViolations: seen });
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective}: ${event.blockedURI} (${event.sourceFile})`);
    });
  });
  await signIn(page, adminAccount(testInfo));
  const origin = new URL(page.url()).origin;
  const [studioId] = await createProjectsThroughApi(page, origin, uniqueName(testInfo, "CSP"), 1);
  const response = await page.goto(`/sites/${studioId}`);
  expect(response?.status()).toBe(200);
  // Without JavaScript no script runs (and the init script neither): nothing to refuse.
  if (jsDisabled(testInfo)) return;
  // Hydrated: every route module of the page, and the schemas they make, have run.
  await page.waitForFunction(() => "__remixRouter" in window);
  const violations = await page.evaluate(
    () => (window as unknown as { cspViolations?: string[] }).cspViolations,
  );
  expect(violations).toEqual([]);
});

test("a menu opened before its script arrived is still open when the script takes over", async ({
  page,
  signIn,
}, testInfo) => {
  await signIn(page, adminAccount(testInfo));
  // Radix's menus come in a chunk of their own after hydration: held here until released.
  let held = Promise.resolve();
  let release = () => {};
  const hold = () => (held = new Promise<void>((resolve) => (release = resolve)));
  await page.route(/\/assets\/popups-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const load = async () => {
    hold();
    await page.goto("/sites");
    if (!jsDisabled(testInfo)) await page.waitForFunction(() => "__remixRouter" in window);
  };

  // Before the chunk the user menu is a disclosure, opened by a click; Radix's menu takes over
  // open.
  await load();
  // Other tests of this worker may have renamed the account: any name will do.
  await page.getByLabel(/^User menu for /).click();
  await expect(page.getByRole("link", { name: "User Settings" })).toBeVisible();
  if (!jsDisabled(testInfo)) {
    release();
    await expect(page.getByRole("menu")).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "User Settings" })).toBeVisible();
  }

  // The same for the project picker, whose popover then fetches its list.
  await load();
  await page.getByText("Select project").click();
  await expect(page.getByRole("link", { name: "Show my projects" })).toBeVisible();
  if (jsDisabled(testInfo)) return;
  const list = page.waitForResponse(
    (r) => new URL(r.url()).pathname.startsWith("/resources/picker") && r.status() === 200,
  );
  release();
  const picker = page.getByRole("dialog", { name: "Projects" });
  await expect(picker).toBeVisible();
  await expect(picker.getByLabel("Find project")).toBeFocused();
  await list;
});

test("the dashboard's parts drawn only when scrolled near move nothing on the screen when drawn", async ({
  page,
  signIn,
}, testInfo) => {
  await signIn(page, adminAccount(testInfo));
  const studioId = await createProject(page, uniqueName(testInfo, "Near"));
  const dashboard = `/sites/${encodeURIComponent(studioId)}`;
  // Three invitations: rows in the members table and events in the activity log.
  const members = page.getByRole("region", { name: "Members" });
  for (const n of [1, 2, 3]) {
    const email = `near-${testInfo.project.name}-${n}-${Date.now()}@example.com`;
    await page.goto(dashboard);
    await members.getByLabel("Email").fill(email);
    await members.getByRole("button", { name: "Send Invitation" }).click();
    await expect(page.getByText(`Invitation sent to ${email}!`, { exact: true })).toBeVisible();
  }

  // Site Builds, the members table and the activity log are laid out at their estimated heights
  // until they scroll near, and drawn a frame later (content-visibility). Scrolled to the end in
  // one step, nothing on the screen may move when they are drawn: near the end of the page a
  // part drawn shorter than its estimate shortens the page and the scroll position jumps (a
  // click aimed in that frame lands on something else).
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 720 });
    await page.goto(dashboard);
    await expect(page.getByRole("heading", { name: "Activity Log" })).toBeAttached();
    // What a person sees and aims at: headings, table rows and list entries, in document order.
    const marks = () =>
      page.evaluate(() =>
        [...document.querySelectorAll("main h2, main tbody tr, main li")].map((element) => {
          const { top } = element.getBoundingClientRect();
          const name = (element.textContent ?? "").trim().slice(0, 40);
          return { name, top: Math.round(top), onScreen: top >= 0 && top < innerHeight };
        }),
      );
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const before = await marks();
    // Drawn: the parts on the screen no longer skip their contents (works without JavaScript too).
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll("main [class*='content-visibility']")]
            .filter((part) => {
              const { top, bottom } = part.getBoundingClientRect();
              return bottom > 0 && top < innerHeight;
            })
            .every((part) =>
              part.firstElementChild?.checkVisibility({ contentVisibilityAuto: true }),
            ),
        ),
      )
      .toBe(true);
    const after = await marks();
    const moved = before
      .map(({ name, top, onScreen }, i) => ({ name, onScreen, by: after[i].top - top }))
      .filter(({ onScreen }) => onScreen);
    expect(moved.length, `things on the screen at ${width} px`).toBeGreaterThan(0);
    for (const { name, by } of moved) {
      expect(Math.abs(by), `'${name}' moved ${by} px at ${width} px`).toBeLessThanOrEqual(8);
    }
  }
});

test("a load cancelled mid-answer is not reported as an uncaught error; a real failure still is", async ({
  browser,
  baseURL,
}, testInfo) => {
  // A context of its own, unwatched: this test reads the page's uncaught errors itself.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: !jsDisabled(testInfo) });
  const page = await context.newPage();
  const uncaught: string[] = [];
  page.on("pageerror", (error) => uncaught.push(error.message));
  await page.goto("/auth/login");
  if (jsDisabled(testInfo)) {
    // Without JavaScript the page loads nothing by script, so nothing can be cancelled.
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    expect(uncaught).toEqual([]);
    await context.close();
    return;
  }
  await page.waitForSelector("html[data-hydrated]");
  // As Remix's decoder (turbo-stream's `decode`) meets a page's data that a newer navigation
  // aborted: the first line of the answer is read, then the body fails with the abort (as an
  // aborted fetch's body does), and the promise of the stream's end it made is never awaited.
  await page.evaluate(async () => {
    let body!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (source) => void (body = source) });
    body.enqueue(new TextEncoder().encode('[{"_1":2},"root",{}]\n'));
    const reader = stream.getReader();
    await reader.read();
    const streamEnd = Promise.resolve().then(() => reader.closed);
    body.error(new DOMException("signal is aborted without reason", "AbortError"));
    void streamEnd;
    setTimeout(() => void Promise.reject(new Error("a real failure")), 0);
  });
  await expect.poll(() => uncaught).toContain("a real failure");
  expect(uncaught).toEqual(["a real failure"]);
  await context.close();
});
