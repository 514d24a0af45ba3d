import { expect, jsDisabled, test } from "./support/fixtures";
import { adminAccount, createProject, uniqueName } from "./support/lifecycle";

/**
 * Errors a person can recover from, and dates in their own time zone, once with JavaScript and
 * once without (the browser reports its zone through JavaScript: without it dates stay in UTC).
 */

test("an unknown project is a 'Not found' page inside the shell, with a way back", async ({
  page,
  signIn,
}, testInfo) => {
  await signIn(page, adminAccount(testInfo));
  const response = await page.goto("/sites/no-such-project");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found", level: 1 })).toBeVisible();
  // The top bar stays, and the project navigation of a project that does not exist does not.
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.getByRole("banner").getByText("Select project")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Project" })).toHaveCount(0);
  await page.getByRole("link", { name: "Back to projects" }).click();
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
});

test.describe("in Tokyo", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("dates show in the browser's time zone once it has told the server, else in UTC", async ({
    page,
    signIn,
  }, testInfo) => {
    const zone = jsDisabled(testInfo) ? "UTC" : "Asia/Tokyo";
    await signIn(page, adminAccount(testInfo));
    const name = uniqueName(testInfo, "Tokyo");
    await createProject(page, name);
    const tzCookie = async () =>
      (await page.context().cookies()).find((c) => c.name === "tz")?.value;
    if (zone === "UTC") expect(await tzCookie()).toBeUndefined();
    else await expect.poll(tzCookie).toBe("Asia%2FTokyo");
    await page.reload();
    const created = page
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name, exact: true }) })
      .locator("time");
    const iso = await created.getAttribute("datetime");
    const expected = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "short",
      day: "numeric",
    }).format(new Date(iso!));
    await expect(created).toHaveText(expected);
  });

  test("a saved zone whose offset is not the browser's is replaced by the browser's with JavaScript, kept without", async ({
    page,
    signIn,
  }, testInfo) => {
    await signIn(page, adminAccount(testInfo));
    // Saved by an earlier visit from Paris (UTC+1 or +2); the browser is now in Tokyo (UTC+9).
    const url = new URL(page.url());
    await page
      .context()
      .addCookies([{ name: "tz", value: "Europe%2FParis", domain: url.hostname, path: "/" }]);
    await page.goto("/sites");
    const tzCookie = async () =>
      (await page.context().cookies()).find((c) => c.name === "tz")?.value;
    // Without JavaScript nothing reports the zone: the saved one stays.
    if (jsDisabled(testInfo)) expect(await tzCookie()).toBe("Europe%2FParis");
    else await expect.poll(tzCookie).toBe("Asia%2FTokyo");
  });
});

/**
 * A project page that fails keeps the top bar and the project navigation around the error, so
 * the project's other pages stay one click away. No loader of these pages fails on any input
 * (their provider failures show inside the page), so the failure is one the running product
 * really answers: a POST to a page that takes none (Analytics, Social Media), which the server
 * refuses with 405 and which the page's own error boundary shows. The browser's request for the
 * page's document is turned into that POST on its way out; the answer and the page are the
 * server's, and with JavaScript the navigation away from it is the client's.
 */
test("a project page that fails keeps the project navigation", async ({
  page,
  signIn,
}, testInfo) => {
  await signIn(page, adminAccount(testInfo));
  const name = uniqueName(testInfo, "Failing page");
  const studioId = await createProject(page, name);
  await page.goto(`/sites/${studioId}`);
  const nav = page.getByRole("navigation", { name: "Project" });
  for (const [label, section] of [
    ["Analytics", "analytics"],
    ["Social Media", "social-media"],
  ]) {
    const address = `/sites/${section}/${studioId}`;
    const refused = (url: URL) => {
      // The page's own request, not the shell's data (routes/_app) read from the same address.
      const data = url.searchParams.get("_data");
      return url.pathname === address && (!data || data.startsWith("routes/_app.sites."));
    };
    await page.route(refused, (route) =>
      route.continue({
        method: "POST",
        postData: "",
        headers: {
          ...route.request().headers(),
          "content-type": "application/x-www-form-urlencoded",
        },
      }),
    );
    if (jsDisabled(testInfo)) await nav.getByRole("link", { name: label, exact: true }).click();
    // With JavaScript, a full load from the page (same-origin, as the server requires of a
    // POST): the server renders the boundary and the browser hydrates it.
    else await page.evaluate((to) => window.location.assign(to), address);
    await expect(
      page.getByRole("heading", { name: "Oops! Something went wrong...", level: 1 }),
    ).toBeVisible();
    await expect(page).toHaveURL(address);
    await page.unroute(refused);
    await expect(page.getByText(/Please refresh the page\./)).toBeVisible();
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(nav.getByRole("link", { name: "Dashboard" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Settings" })).toBeVisible();
  }
  // From the failed page, the navigation still leads to the project's pages.
  await nav.getByRole("link", { name: "Website", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Website", level: 1 })).toBeVisible();
  await expect(page.getByText(name).first()).toBeVisible();
});
