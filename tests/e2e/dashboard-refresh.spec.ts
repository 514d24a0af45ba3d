import { expect, jsDisabled, test } from "./support/fixtures";
import { buildStateLabel, createProjectsThroughApi, reloadUntil } from "./support/lifecycle";

/**
 * The dashboard's 30-second refresh, as an open tab sees it. With JavaScript: while nothing
 * changed, a refresh is one version check answered 304 and the page's data is not reloaded;
 * once someone changes the project (here an invitation sent through the JSON API, as from a
 * colleague's script), the next refresh reloads the page's data and shows it without a reload.
 * Without JavaScript nothing refreshes: the page shows the change once it is loaded again.
 */
test("the dashboard's refresh reloads only when the project changed", async ({
  page,
  signIn,
}, testInfo) => {
  const tag = testInfo.project.name;
  const run = Date.now();
  const invitee = `rory-${tag}-${run}@example.com`;
  const js = !jsDisabled(testInfo);
  // With JavaScript the page's timers run on a clock the test moves (30 s at a time).
  if (js) await page.clock.install();
  await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
  const origin = new URL(page.url()).origin;
  const [studioId] = await createProjectsThroughApi(page, origin, `Refresh ${tag} ${run}`, 1);

  const checks: number[] = [];
  const reloads: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname === `/sites/${studioId}/version`) checks.push(response.status());
    if (url.pathname === `/sites/${studioId}.data`) reloads.push(url.search);
  });
  // Once its first build is done the project stands still (until someone changes it).
  const dashboard = `/sites/${studioId}`;
  await reloadUntil(page, dashboard, async () => expect(await buildStateLabel(page)).toBe("Ready"));
  const members = page.getByRole("region", { name: "Members" });
  await expect(members).toBeVisible();
  checks.length = 0;
  reloads.length = 0;

  const refresh = async () => {
    // Someone is there (the refresh pauses for an idle user), and 30 s pass.
    await page.mouse.move(10 + checks.length, 10);
    await page.clock.fastForward(31_000);
  };
  if (js) {
    await refresh();
    await expect.poll(() => checks).toEqual([304]);
    await refresh();
    await expect.poll(() => checks).toEqual([304, 304]);
    expect(reloads, "an unchanged refresh reloads nothing").toEqual([]);
  }

  const sent = await page.request.post("/api/app/members", {
    headers: { Origin: origin },
    data: { studioId, email: invitee, role: "editor" },
  });
  expect(sent.status()).toBe(201);

  if (js) {
    await refresh();
    await expect(members.getByRole("row").filter({ hasText: invitee })).toBeVisible();
    expect(checks).toEqual([304, 304, 200]);
    expect(reloads).toHaveLength(1);
  } else {
    await expect(members.getByRole("row").filter({ hasText: invitee })).toHaveCount(0);
    await page.reload();
    await expect(members.getByRole("row").filter({ hasText: invitee })).toBeVisible();
  }
});
