/**
 * Page-view analytics on PostgreSQL: the public collect endpoint (beacon and pixel) counts views
 * per day and path in place, keeps referring hosts only, refuses other sites, unknown keys and
 * floods, caps made-up paths; the Analytics page shows the period with the same numbers as the
 * rows, for the project's viewers only.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { analyticsPageDays, analyticsReferrerDays, projects } from "~/db/schema";
import { action as collect, loader as pixel } from "~/routes/analytics.collect";
import { loader as page } from "~/routes/_app._project.sites.analytics.$studioId";
import { MAX_PATHS_PER_DAY, OTHER_PAGES, utcDay } from "~/services/analytics/analytics.schema";
import type { AnalyticsView } from "~/services/analytics/analytics.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;
const APP_ORIGIN = "http://localhost:3000";

beforeAll(async () => {
  owner = await createUser({ name: "Ana Analytics" });
  ownerCookie = await sessionCookie(owner.id);
});

/** A project with a local site (served under the dashboard's origin) and a custom domain. */
async function trackedProject() {
  const siteId = `site-${Math.random().toString(36).slice(2, 10)}`;
  const project = await insertProject(owner.id, {
    siteId,
    siteUrl: `${APP_ORIGIN}/local/sites/${siteId}`,
    siteCustomDomain: "www.shop-example.com",
  });
  return { project, siteId, key: project.analyticsKey };
}

/** A beacon as browsers send it: text/plain JSON, with the page's Origin. */
function beacon(body: unknown, headers: Record<string, string> = {}) {
  return call(
    collect,
    makeRequest("/analytics/collect", {
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "Content-Type": "text/plain;charset=UTF-8", Origin: APP_ORIGIN, ...headers },
    }),
  );
}

async function rows(projectId: string) {
  const pages = await db()
    .select({
      day: analyticsPageDays.day,
      path: analyticsPageDays.path,
      views: analyticsPageDays.views,
    })
    .from(analyticsPageDays)
    .where(eq(analyticsPageDays.projectId, projectId))
    .orderBy(analyticsPageDays.path);
  const referrers = await db()
    .select({ referrer: analyticsReferrerDays.referrer, views: analyticsReferrerDays.views })
    .from(analyticsReferrerDays)
    .where(eq(analyticsReferrerDays.projectId, projectId))
    .orderBy(analyticsReferrerDays.referrer);
  return { pages, referrers };
}

async function view(studioId: string, query = "", cookie = ownerCookie) {
  const res = await call(page, makeRequest(`/sites/analytics/${studioId}${query}`, { cookie }), {
    studioId,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    analytics: AnalyticsView;
    choice: { errors: Record<string, string[]> | null };
  };
}

describe("counting page views", () => {
  it("counts views in one row per day and path, the local site's root cut off", async () => {
    const { project, siteId, key } = await trackedProject();
    for (const p of [`/local/sites/${siteId}`, `/local/sites/${siteId}/`, "/local/sites/x/about"]) {
      const res = await beacon({ k: key, p, r: "" });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    }
    const today = utcDay(new Date());
    expect((await rows(project.id)).pages).toEqual([
      { day: today, path: "/", views: 2 },
      { day: today, path: "/local/sites/x/about", views: 1 },
    ]);
  });

  it("keeps the referring site's host only, and not the site's own", async () => {
    const { project, key } = await trackedProject();
    await beacon({ k: key, p: "/", r: "https://www.google.com/search?q=jane+doe" });
    await beacon({ k: key, p: "/", r: "https://google.com/" });
    await beacon({ k: key, p: "/b", r: "https://www.shop-example.com/a" });
    await beacon({ k: key, p: "/c", r: `${APP_ORIGIN}/local/sites/x` });
    const { referrers } = await rows(project.id);
    expect(referrers).toEqual([{ referrer: "google.com", views: 2 }]);
  });

  it("takes the view from a <noscript> pixel and answers with a GIF", async () => {
    const { project, key } = await trackedProject();
    const res = await call(
      pixel,
      makeRequest(`/analytics/collect?k=${key}&p=${encodeURIComponent("/pricing?x=1")}`),
      {},
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/gif");
    expect((await rows(project.id)).pages).toEqual([
      expect.objectContaining({ path: "/pricing", views: 1 }),
    ]);
  });

  it("refuses other sites, unknown keys and bad bodies, and changes nothing", async () => {
    const { project, key } = await trackedProject();
    const foreign = await beacon({ k: key, p: "/" }, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    expect((await beacon({ k: "f".repeat(32), p: "/" })).status).toBe(404);
    expect((await beacon({ k: "../../etc", p: "/" })).status).toBe(404);
    expect((await beacon({ k: { $ne: null }, p: "/" })).status).toBe(404);
    expect((await beacon("{not json")).status).toBe(400);
    expect((await beacon("[1,2]")).status).toBe(400);
    expect((await beacon({ k: key, p: "x".repeat(4000) })).status).toBe(413);
    const robot = await beacon({ k: key, p: "/" }, { "User-Agent": "Googlebot/2.1" });
    expect(robot.status).toBe(204);
    expect(await rows(project.id)).toEqual({ pages: [], referrers: [] });
    const get = await call(pixel, makeRequest("/analytics/collect?k=nope"), {});
    expect(get.status).toBe(404);
  });

  it("counts concurrent first views of a page in one row", async () => {
    const { project, key } = await trackedProject();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => beacon({ k: key, p: "/launch" })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(204));
    expect((await rows(project.id)).pages).toEqual([
      expect.objectContaining({ path: "/launch", views: 40 }),
    ]);
  });

  it("counts made-up paths past the day's cap under one row", async () => {
    const { project, key } = await trackedProject();
    const day = utcDay(new Date());
    await db()
      .insert(analyticsPageDays)
      .values(
        Array.from({ length: MAX_PATHS_PER_DAY }, (_, i) => ({
          projectId: project.id,
          day,
          path: `/p${i}`,
          views: 1,
        })),
      );
    await beacon({ k: key, p: "/random-1" });
    await beacon({ k: key, p: "/random-2" });
    await beacon({ k: key, p: "/p7" });
    const [other] = await db()
      .select()
      .from(analyticsPageDays)
      .where(
        and(eq(analyticsPageDays.projectId, project.id), eq(analyticsPageDays.path, OTHER_PAGES)),
      );
    expect(other.views).toBe(2);
    const [p7] = await db()
      .select()
      .from(analyticsPageDays)
      .where(and(eq(analyticsPageDays.projectId, project.id), eq(analyticsPageDays.path, "/p7")));
    expect(p7.views).toBe(2);
  });

  it("limits the reports of one address for one site (429), robots included", async () => {
    const { key } = await trackedProject();
    const from = { "User-Agent": "MonitorBot" };
    let limited: Response | null = null;
    for (let i = 0; i < 700 && !limited; i += 1) {
      const res = await call(
        collect,
        makeRequest("/analytics/collect", {
          body: JSON.stringify({ k: key, p: "/" }),
          headers: { "Content-Type": "text/plain", Origin: APP_ORIGIN, ...from },
        }),
        {},
      );
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(204);
    }
    expect(limited?.headers.get("retry-after")).toBe("60");
  });

  it("forgets the views of a deleted project with it", async () => {
    const { project, key } = await trackedProject();
    await beacon({ k: key, p: "/", r: "https://news.example.org/" });
    await db().delete(projects).where(eq(projects.id, project.id));
    expect(await rows(project.id)).toEqual({ pages: [], referrers: [] });
    // Its key no longer counts (the cached site is dropped on the first refused write).
    expect((await beacon({ k: key, p: "/" })).status).toBe(404);
    expect((await beacon({ k: key, p: "/" })).status).toBe(404);
  });
});

describe("the Analytics page", () => {
  it("shows every day of the period with the counted views, top pages and referrers", async () => {
    const { project, key } = await trackedProject();
    const day = utcDay(new Date());
    const threeDaysAgo = utcDay(new Date(Date.now() - 3 * 86_400_000));
    await db()
      .insert(analyticsPageDays)
      .values([
        { projectId: project.id, day: threeDaysAgo, path: "/", views: 5 },
        { projectId: project.id, day: threeDaysAgo, path: "/about", views: 2 },
        { projectId: project.id, day: "2020-01-01", path: "/old", views: 99 },
      ]);
    await beacon({ k: key, p: "/about", r: "https://www.bing.com/" });
    const { analytics } = await view(project.studioId);
    expect(analytics.range).toMatchObject({ to: day, days: 30 });
    expect(analytics.days).toHaveLength(30);
    expect(analytics.days.at(-1)).toEqual({ day, views: 1 });
    expect(analytics.days.find((d) => d.day === threeDaysAgo)).toEqual({
      day: threeDaysAgo,
      views: 7,
    });
    expect(analytics.days.filter((d) => d.views > 0)).toHaveLength(2);
    expect(analytics.total).toBe(8);
    expect(analytics.topPages).toEqual([
      { path: "/", views: 5 },
      { path: "/about", views: 3 },
    ]);
    expect(analytics.topReferrers).toEqual([{ referrer: "bing.com", views: 1 }]);
    expect(analytics.snippet).toBe(
      `<script defer src="${APP_ORIGIN}/analytics.js" data-site="${key}"></script>`,
    );

    const week = (await view(project.studioId, "?days=7")).analytics;
    expect(week.days).toHaveLength(7);
    const old = (await view(project.studioId, "?from=2020-01-01&to=2020-01-02")).analytics;
    expect(old.total).toBe(99);
    expect(old.topPages).toEqual([{ path: "/old", views: 99 }]);
  });

  it("answers a bad period with errors beside its fields and the default period", async () => {
    const { project } = await trackedProject();
    const { analytics, choice } = await view(project.studioId, "?from=2026-13-01&to=x");
    expect(choice.errors?.from).toEqual(["Enter a date as YYYY-MM-DD"]);
    expect(analytics.days).toHaveLength(30);
  });

  it("is the project's viewers' only: an outsider gets 404", async () => {
    const { project } = await trackedProject();
    const outsider = await createUser();
    const res = await call(
      page,
      makeRequest(`/sites/analytics/${project.studioId}`, {
        cookie: await sessionCookie(outsider.id),
      }),
      { studioId: project.studioId },
    );
    expect(res.status).toBe(404);
  });
});
