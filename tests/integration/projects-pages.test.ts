import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, projects } from "~/db/schema";
import { loader as homeLoader } from "~/routes/_app._index";
import { loader as projectLoader } from "~/routes/_app._project.sites.$studioId/route";
import { action as sitesAction, loader as sitesLoader } from "~/routes/_app.sites._index";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { loader as pagebuildersLoader } from "~/routes/pagebuilders";
import { call, callProjectPage, createUser, makeRequest, sessionCookie } from "../helpers";
import { locationOf } from "../setup/matchers";

let adminUser: ReturnType<typeof createUser> | undefined;
const getAdmin = () => (adminUser ??= createUser({ email: "admin@example.com" }));

let seq = 0;
async function insertProject(ownerId: string, name = `Page project ${++seq}`) {
  const [row] = await db()
    .insert(projects)
    .values({
      name,
      ownerId,
      idempotencyKey: `page-seed-${seq}-${Math.random()}`,
      studioId: `pg${seq}x${Math.random().toString(36).slice(2, 8)}`,
    })
    .returning();
  return row;
}

const post = (
  cookie: string,
  form: Record<string, string | string[]>,
  headers?: Record<string, string>,
) => call(sitesAction, makeRequest("/sites?index", { cookie, form, headers }));

describe("/ and /sites (the project list)", () => {
  it("render the first page of the user's projects server-side, with the next cursor", async () => {
    const me = await createUser();
    const other = await createUser();
    for (let i = 0; i < 23; i += 1) await insertProject(me.id);
    await insertProject(other.id, "Someone else's");
    const cookie = await sessionCookie(me.id);
    for (const [loader, path] of [
      [homeLoader, "/"],
      [sitesLoader, "/sites"],
    ] as const) {
      const res = await call(loader, makeRequest(path, { cookie }));
      expect(res.status).toBe(200);
      const page = await res.json();
      expect(page.data).toHaveLength(20);
      expect(page.nextCursor).toEqual(expect.any(String));
      expect(page).toMatchObject({ query: "", cursor: null, isAdmin: false });
      expect(page.data.some((p: { name: string }) => p.name === "Someone else's")).toBe(false);
    }
  });

  it("renders the next page from ?cursor= (the no-JavaScript Load more link)", async () => {
    const me = await createUser();
    for (let i = 0; i < 25; i += 1) await insertProject(me.id);
    const cookie = await sessionCookie(me.id);
    const first = await (await call(sitesLoader, makeRequest("/sites", { cookie }))).json();
    const second = await (
      await call(sitesLoader, makeRequest(`/sites?index&cursor=${first.nextCursor}`, { cookie }))
    ).json();
    expect(second.data).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    expect(second.cursor).toBe(first.nextCursor);
    const ids = [...first.data, ...second.data].map((p: { id: string }) => p.id);
    expect(new Set(ids).size).toBe(25);
  });

  it("searches with ?q=, lowercased", async () => {
    const me = await createUser();
    await insertProject(me.id, "Bakery Site");
    await insertProject(me.id, "Garage");
    const cookie = await sessionCookie(me.id);
    const page = await (await call(sitesLoader, makeRequest("/sites?q=BAKERY", { cookie }))).json();
    expect(page.query).toBe("bakery");
    expect(page.data.map((p: { name: string }) => p.name)).toEqual(["Bakery Site"]);
  });

  it("sends a mangled cursor back to the first page instead of failing", async () => {
    const me = await createUser();
    const res = await call(
      sitesLoader,
      makeRequest("/sites?q=abc&cursor=%%%garbage", { cookie: await sessionCookie(me.id) }),
    );
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/sites?q=abc");
  });

  it("sends visitors without a session to login", async () => {
    const res = await call(sitesLoader, makeRequest("/sites"));
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect(/^\/auth\/login\?redirectTo=/);
  });
});

describe("/sites/{studioId}", () => {
  it("shows the project to its owner and platform admins (support), a 404 for anyone else", async () => {
    const owner = await createUser({ name: "Olive Owner" });
    const outsider = await createUser();
    const admin = await getAdmin();
    const project = await insertProject(owner.id, "Visible");
    const load = async (userId: string, id = project.studioId) =>
      callProjectPage(
        projectLoader,
        makeRequest(`/sites/${id}`, { cookie: await sessionCookie(userId) }),
        {
          studioId: id,
        },
      );
    const ok = await load(owner.id);
    expect(ok.status).toBe(200);
    expect((await ok.json()).project).toMatchObject({
      name: "Visible",
      owner: { name: "Olive Owner" },
      siteCreationStatus: "pending",
    });
    expect((await load(outsider.id)).status).toBe(404);
    const support = await load(admin.id);
    expect(support.status).toBe(200);
    expect((await support.json()).project).toMatchObject({ name: "Visible", role: "support" });
    expect((await load(owner.id, "no-such-studio")).status).toBe(404);
  });
});

describe("/dashboard and /pagebuilders", () => {
  it("redirect to /sites", async () => {
    for (const loader of [dashboardLoader, pagebuildersLoader]) {
      const res = await call(loader, makeRequest("/dashboard"));
      expect(res.status).toBe(302);
      expect(res).toHaveRedirect("/sites");
    }
  });
});

describe("the Create New dialog's action (POST /sites?index)", () => {
  it("reviews first: validates, sanitizes and answers the confirmation with a server-made key", async () => {
    const me = await createUser();
    const res = await post(await sessionCookie(me.id), {
      intent: "review",
      name: "  Corner \u200b  Shop ",
      redirectTo: "/sites?dialog=create",
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.confirm).toEqual({
      name: "Corner Shop",
      siteType: "business",
      idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/),
    });
    expect(body.redirectTo).toBe("/sites");
    expect(await db().select().from(projects).where(eq(projects.ownerId, me.id))).toHaveLength(0);
  });

  it("shows the field error next to the name when it is empty, and creates nothing", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    for (const intent of ["review", "create"]) {
      const res = await post(cookie, { intent, name: " \u200b ", idempotencyKey: "key-empty-1" });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.result.error.name).toEqual(["Name is required"]);
      expect(body.confirm).toBeUndefined();
    }
  });

  it("creates on the second submit and redirects to the new project with a toast", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const review = await (await post(cookie, { intent: "review", name: "Corner Shop" })).json();
    const confirm = { intent: "create", ...review.confirm };
    const res = await post(cookie, confirm);
    expect(res.status).toBe(302);
    const [row] = await db().select().from(projects).where(eq(projects.ownerId, me.id));
    expect(row).toMatchObject({ name: "Corner Shop", siteType: "business" });
    expect(res).toHaveRedirect(`/sites/${row.studioId}`);
    expect(res.headers.get("Set-Cookie")).toMatch(/stackshift_toast=/);
    const logs = await db().select().from(eventLogs).where(eq(eventLogs.projectId, row.id));
    expect(logs.map((l) => l.type)).toEqual(["sites.create"]);
  });

  it("creates one project when the confirmation is submitted twice (double-click)", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const review = await (await post(cookie, { intent: "review", name: "Twice" })).json();
    const confirm = { intent: "create", ...review.confirm };
    const [a, b] = await Promise.all([post(cookie, confirm), post(cookie, confirm)]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(a).toHaveRedirect(locationOf(b)!);
    expect(await db().select().from(projects).where(eq(projects.ownerId, me.id))).toHaveLength(1);
  });

  it("goes back to the page it came from when the dialog sends redirectTo, never off-site", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const create = (key: string, redirectTo: string) =>
      post(cookie, { intent: "create", name: "Back", idempotencyKey: key, redirectTo });
    const back = await create("key-back-1", "/sites/abc?dialog=create&tab=x");
    expect(back).toHaveRedirect("/sites/abc?tab=x");
    for (const [i, evil] of ["//evil.example/x", "https://evil.example", "/\\evil"].entries()) {
      const res = await create(`key-evil-${i}`, evil);
      expect(res).toHaveRedirect(/^\/sites\/[a-z0-9]{12}$/);
    }
  });

  it("lets only platform admins choose Enterprise", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    for (const intent of ["review", "create"]) {
      const res = await post(cookie, {
        intent,
        name: "Big",
        siteType: "enterprise",
        idempotencyKey: "key-ent-page-1",
      });
      expect(res.status).toBe(403);
      expect((await res.json()).result.error[""]).toEqual([
        "Only platform admins can choose the site type",
      ]);
    }
    const admin = await getAdmin();
    const adminCookie = await sessionCookie(admin.id);
    const review = await (
      await post(adminCookie, { intent: "review", name: "Big", siteType: "enterprise" })
    ).json();
    expect(review.confirm.siteType).toBe("enterprise");
    const res = await post(adminCookie, { intent: "create", ...review.confirm });
    expect(res.status).toBe(302);
    const [row] = await db().select().from(projects).where(eq(projects.ownerId, admin.id));
    expect(row.siteType).toBe("enterprise");
  });

  it("'edit' goes back to the form keeping the typed values", async () => {
    const me = await createUser();
    const res = await post(await sessionCookie(me.id), { intent: "edit", name: "Keep me" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.confirm).toBeNull();
    expect(body.result.initialValue.name).toBe("Keep me");
  });

  it("answers malformed, oversized and wrong-typed bodies with 4xx JSON, never 500", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const cases: { label: string; request: Request }[] = [
      {
        label: "JSON instead of a form",
        request: makeRequest("/sites?index", { cookie, json: { intent: "create", name: "x" } }),
      },
      {
        label: "oversized",
        request: makeRequest("/sites?index", {
          cookie,
          form: { intent: "create", name: "x".repeat(40_000), idempotencyKey: "key-big-1" },
        }),
      },
      {
        label: "repeated fields",
        request: makeRequest("/sites?index", {
          cookie,
          form: { intent: "create", name: ["a", "b"], idempotencyKey: ["key-rep-1", "key-rep-2"] },
        }),
      },
      {
        label: "unknown intent",
        request: makeRequest("/sites?index", { cookie, form: { intent: "explode", name: "x" } }),
      },
      {
        label: "no intent",
        request: makeRequest("/sites?index", { cookie, form: { name: "x" } }),
      },
      {
        label: "bad key",
        request: makeRequest("/sites?index", {
          cookie,
          form: { intent: "create", name: "x", idempotencyKey: "<script>" },
        }),
      },
      {
        label: "bad site type",
        request: makeRequest("/sites?index", {
          cookie,
          form: { intent: "create", name: "x", siteType: "agency", idempotencyKey: "key-st-1" },
        }),
      },
    ];
    for (const c of cases) {
      const res = await call(sitesAction, c.request);
      expect(res.status, c.label).toBeGreaterThanOrEqual(400);
      expect(res.status, c.label).toBeLessThan(500);
      expect(res.headers.get("Content-Type"), c.label).toMatch(/application\/json/);
      await res.json();
    }
    expect(await db().select().from(projects).where(eq(projects.ownerId, me.id))).toHaveLength(0);
  });
});
