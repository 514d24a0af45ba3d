/**
 * Platform admins are the support team (decision 011): they open any project, act with the
 * rights a platform admin has, and every visit is in the project's Activity Log ('Support
 * access by {name}'), views at most once per admin, project and hour, every change each time.
 * /sites and GET /api/app give them 'All projects'.
 */
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs } from "~/db/schema";
import { loader as sitesLoader } from "~/routes/_app.sites._index";
import { loader as dashboardLoader } from "~/routes/_app._project.sites.$studioId/route";
import { loader as apiList } from "~/routes/api.app._index";
import { loader as apiProject } from "~/routes/api.app.$id";
import { action as deployAction } from "~/routes/api.app.deployments";
import {
  call,
  callProjectPage,
  createUser,
  insertProject,
  makeRequest,
  sessionCookie,
} from "../helpers";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let pa: TestUser;
let ownerCookie: string;
let paCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Cora Customer" });
  pa = await createUser({ name: "Sam Support", email: "admin@example.com" });
  ownerCookie = await sessionCookie(owner.id);
  paCookie = await sessionCookie(pa.id);
});

const supportRows = (projectId: string) =>
  db()
    .select({ type: eventLogs.type, content: eventLogs.content, actorId: eventLogs.actorId })
    .from(eventLogs)
    .where(and(eq(eventLogs.projectId, projectId), sql`${eventLogs.type} like 'support.%'`));

const openDashboard = (studioId: string, cookie: string) =>
  callProjectPage(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie }), { studioId });

describe("support access", () => {
  it("opens a stranger's project, logged once per hour however often it is viewed", async () => {
    const project = await insertProject(owner.id, { name: "Customer shop" });
    for (let i = 0; i < 3; i += 1) {
      const res = await openDashboard(project.studioId, paCookie);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { project: { role: string; name: string } };
      expect(body.project).toMatchObject({ role: "support", name: "Customer shop" });
    }
    expect(await supportRows(project.id)).toEqual([
      {
        type: "support.viewed",
        content: "Support access by Sam Support: viewed the project",
        actorId: pa.id,
      },
    ]);

    // An hour later the next view is written again.
    await db()
      .update(eventLogs)
      .set({ timestamp: sql`now() - interval '61 minutes'` })
      .where(eq(eventLogs.projectId, project.id));
    expect((await openDashboard(project.studioId, paCookie)).status).toBe(200);
    expect((await supportRows(project.id)).length).toBe(2);
  });

  it("concurrent views write one entry (the unique hourly index)", async () => {
    const project = await insertProject(owner.id);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => openDashboard(project.studioId, paCookie)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((await supportRows(project.id)).length).toBe(1);
  });

  it("the owner sees 'Support access' in the Activity Log; the owner's own views add nothing", async () => {
    const project = await insertProject(owner.id);
    await openDashboard(project.studioId, paCookie);
    const res = await openDashboard(project.studioId, ownerCookie);
    const body = (await res.json()) as {
      project: { role: string };
      activity: { entries: { label: string; content: string }[] };
    };
    expect(body.project.role).toBe("owner");
    expect(body.activity.entries).toContainEqual(
      expect.objectContaining({
        label: "Support access",
        content: "Support access by Sam Support: viewed the project",
      }),
    );
    expect((await supportRows(project.id)).length).toBe(1);
  });

  it("support may not deploy the customer's site (403), and nothing is logged for it", async () => {
    const project = await insertProject(owner.id);
    const res = await call(
      deployAction,
      makeRequest("/api/app/deployments", { cookie: paCookie, json: { id: project.id } }),
    );
    expect(res.status).toBe(403);
    expect(await supportRows(project.id)).toEqual([]);
  });

  it("GET /api/app/{id} gives support the entity with every member and role 'support'", async () => {
    const project = await insertProject(owner.id);
    const res = await call(
      apiProject,
      makeRequest(`/api/app/${project.id}`, { cookie: paCookie }),
      {
        id: project.id,
      },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { role: string; isOwner: boolean; _id: string };
    expect(body).toMatchObject({ _id: project.id, role: "support", isOwner: false });
  });

  it("'All projects' on /sites and scope=all on the API; 'My projects' stays the default", async () => {
    const mine = await insertProject(pa.id, { name: "Support's own" });
    const theirs = await insertProject(owner.id, { name: "Zebra customer" });
    const sites = async (search: string) => {
      const res = await call(sitesLoader, makeRequest(`/sites${search}`, { cookie: paCookie }));
      return (await res.json()) as {
        scope: string;
        canSeeAll: boolean;
        data: { studioId: string; role: string }[];
      };
    };
    const my = await sites("");
    expect(my).toMatchObject({ scope: "mine", canSeeAll: true });
    expect(my.data.map((p) => p.studioId)).toContain(mine.studioId);
    expect(my.data.map((p) => p.studioId)).not.toContain(theirs.studioId);

    const all = await sites("?scope=all&q=zebra");
    expect(all.scope).toBe("all");
    expect(all.data).toEqual([
      expect.objectContaining({ studioId: theirs.studioId, role: "support" }),
    ]);

    const api = await call(
      apiList,
      makeRequest("/api/app?scope=all&query=zebra", { cookie: paCookie }),
    );
    const listed = (await api.json()) as { data: { studioId: string }[] };
    expect(listed.data.map((p) => p.studioId)).toEqual([theirs.studioId]);
    // Listing is not visiting: nothing written.
    expect(await supportRows(theirs.id)).toEqual([]);
  });

  it("anyone else asking for scope=all gets only their own projects", async () => {
    const stranger = await insertProject(pa.id, { name: "Not the customer's" });
    const res = await call(sitesLoader, makeRequest("/sites?scope=all", { cookie: ownerCookie }));
    const body = (await res.json()) as {
      scope: string;
      canSeeAll: boolean;
      data: { id: string }[];
    };
    expect(body).toMatchObject({ scope: "mine", canSeeAll: false });
    expect(body.data.map((p) => p.id)).not.toContain(stranger.id);
    const api = await call(apiList, makeRequest("/api/app?scope=all", { cookie: ownerCookie }));
    const listed = (await api.json()) as { data: { _id: string }[] };
    expect(listed.data.map((p) => p._id)).not.toContain(stranger.id);
  });

  it("a scope the API does not know is a 400 with the field named", async () => {
    const res = await call(apiList, makeRequest("/api/app?scope=everything", { cookie: paCookie }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("scope must be mine or all");
  });
});
