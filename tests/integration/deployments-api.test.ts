/**
 * The deployments API: GET /api/deployments/{studioId} for both hosting
 * providers (labels, page numbers, cursors) and POST /api/app/deployments, with bad input and
 * outsiders answered 4xx, never 500.
 */
import { randomBytes } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localDeploys, members, projects, users } from "~/db/schema";
import {
  action as deploymentsAction,
  loader as deploymentsGet,
} from "~/routes/api.app.deployments";
import { action as listPost, loader as listApi } from "~/routes/api.deployments.$studioId";
import { loader as dashboardLoader } from "~/routes/_app._project.sites.$studioId/route";
import type { DeploymentListEntity } from "~/services/deployments/deployments.server";
import { captureLogs } from "~/utils/logger.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { startVercelStandIn } from "../stand-ins/vercel";
import {
  configure,
  createThroughApi,
  startWorkers,
  waitFor,
  waitForStatus,
} from "./lifecycle-support";

type List = DeploymentListEntity;

/** A deployment as the API defines it: every field, null where the provider has no value. */
const SPEC_FIELDS = [
  "id",
  "state",
  "branch",
  "commit_ref",
  "build_id",
  "title",
  "error_message",
  "context",
  "target",
  "links",
  "deploy_ssl_url",
  "updated_at",
  "meta",
  "framework",
  "screenshot_url",
  "uid",
  "url",
  "createdAt",
];

beforeAll(async () => {
  configure({
    PROVIDERS: "local",
    LOCAL_DEPLOY_STEP_SECONDS: "0.2",
    LOCAL_DEPLOY_FAILURE_RATE: "0",
  });
  await startWorkers();
});

/** A provisioned project plus `extra` older-to-newer deployments seeded at the stand-in vendor. */
async function projectWithDeploys(
  owner: { id: string },
  siteType: "business" | "enterprise",
  states: string[],
) {
  const cookie = await sessionCookie(owner.id);
  const created = await createThroughApi(cookie, { name: `List ${siteType}`, siteType });
  const row = await waitForStatus(created._id, ["success"]);
  for (const state of states) {
    await db()
      .insert(localDeploys)
      .values({
        id: randomBytes(12).toString("hex"),
        siteId: row.siteId!,
        state,
        errorMessage: /error/i.test(state) ? "Build failed" : null,
        title: `Seeded ${state}`,
      });
  }
  return { row, cookie };
}

async function list(cookie: string | undefined, studioId: string, query = "") {
  const res = await call(listApi, makeRequest(`/api/deployments/${studioId}${query}`, { cookie }), {
    studioId,
  });
  return { res, body: res.status === 200 ? ((await res.json()) as List) : await res.json() };
}

describe("GET /api/deployments/{studioId}", () => {
  it("pages the first provider's deployments by number, with Published and Error labels", async () => {
    const admin = await createUser({ email: "admin@example.com" });
    const seeded = [
      "ready",
      "error",
      "ready",
      "error",
      "building",
      "ready",
      "error",
      "ready",
      "ready",
      "error",
      "ready",
      "enqueued",
    ];
    const { row, cookie } = await projectWithDeploys(admin, "enterprise", seeded);

    const first = await list(cookie, row.studioId);
    expect(first.res.status).toBe(200);
    const page1 = first.body as List;
    expect(page1.isSiteOnVercel).toBe(false);
    expect(page1.results).toHaveLength(10);
    expect(page1.pagination).toEqual({ prev: null, next: "2" });
    // Newest first: the seeded ones, last seeded on top.
    expect(page1.results.map((d) => d.state)).toEqual([...seeded].reverse().slice(0, 10));
    for (const d of page1.results) {
      expect(d.label).toBe(d.state === "error" ? "Error" : null);
      expect(d).toMatchObject({
        id: expect.any(String),
        createdAt: expect.any(String),
        updated_at: expect.any(String),
        links: { permalink: expect.toBeOneOf([expect.any(String), null]) },
        uid: null,
      });
      expect(Object.keys(d).sort()).toEqual([...SPEC_FIELDS, "label"].sort());
    }
    // The published deployment (the first one) is on page 2, yet it is the latest published.
    expect(page1.latestDeployment).toMatchObject({ label: "Published", state: "ready" });
    expect(page1.latestDeployment?.title).toBe("StackShift: first deployment");

    const page2 = (await list(cookie, row.studioId, "?page=2")).body as List;
    expect(page2.pagination).toEqual({ prev: "1", next: null });
    expect(page2.results).toHaveLength(3);
    const published = page2.results.at(-1)!;
    expect(published).toMatchObject({ id: page1.latestDeployment!.id, label: "Published" });

    const beyond = (await list(cookie, row.studioId, "?page=9")).body as List;
    expect(beyond.results).toEqual([]);
  });

  it("pages the second provider's deployments with next and prev cursors", async () => {
    const owner = await createUser();
    const seeded = Array.from({ length: 14 }, (_, i) => (i % 4 === 0 ? "ERROR" : "READY"));
    const { row, cookie } = await projectWithDeploys(owner, "business", seeded);

    const page1 = (await list(cookie, row.studioId)).body as List;
    expect(page1.isSiteOnVercel).toBe(true);
    expect(page1.results).toHaveLength(10);
    expect(page1.pagination.prev).toBeNull();
    expect(page1.pagination.next).toEqual(expect.any(String));
    expect(page1.results.filter((d) => d.label === "Error").length).toBe(
      page1.results.filter((d) => d.state === "ERROR").length,
    );
    // Vercel names a deployment by its uid.
    for (const d of page1.results) expect(d.uid).toBe(d.id);
    // page=1 is the first page for a cursor-paged site too.
    expect(((await list(cookie, row.studioId, "?page=1")).body as List).results).toEqual(
      page1.results,
    );

    const page2 = (
      await list(cookie, row.studioId, `?next=${encodeURIComponent(page1.pagination.next!)}`)
    ).body as List;
    expect(page2.results).toHaveLength(5);
    expect(page2.pagination.next).toBeNull();
    expect(page2.pagination.prev).toEqual(expect.any(String));
    expect(page2.results.at(-1)).toMatchObject({
      label: "Published",
      title: "StackShift: first deployment",
    });
    const ids = new Set([...page1.results, ...page2.results].map((d) => d.id));
    expect(ids.size).toBe(15);

    const back = (
      await list(cookie, row.studioId, `?prev=${encodeURIComponent(page2.pagination.prev!)}`)
    ).body as List;
    expect(back.results.map((d) => d.id)).toEqual(page1.results.map((d) => d.id));
    expect(page1.latestDeployment?.id).toBe(page2.results.at(-1)!.id);
  });

  it("is empty before the site exists", async () => {
    const owner = await createUser();
    const [p] = await db()
      .insert(projects)
      .values({
        name: "No site yet",
        ownerId: owner.id,
        idempotencyKey: `nosite-${Date.now()}`,
        studioId: `nosite${Date.now().toString(36)}`,
      })
      .returning();
    const { res, body } = await list(await sessionCookie(owner.id), p.studioId);
    expect(res.status).toBe(200);
    expect(body).toEqual({
      results: [],
      latestDeployment: null,
      pagination: { prev: null, next: null },
      // A business site will be created on the second provider.
      isSiteOnVercel: true,
    });
  });

  it("answers bad pages and cursors with 400, outsiders with 404, anonymous with 401", async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const invited = await createUser();
    const { row: business, cookie } = await projectWithDeploys(owner, "business", []);
    await db().insert(members).values({
      projectId: business.id,
      userId: invited.id,
      invitedEmail: invited.email,
      status: "invited",
    });

    for (const query of [
      "?page=0",
      "?page=-1",
      "?page=abc",
      "?page=1.5",
      "?page=99999999999",
      "?page=2", // cursor-paged site
      "?next=zzz", // not a cursor the provider issued
      "?prev=c",
      "?next=%25%25%25",
      `?next=${"c".repeat(200)}`,
      "?page=1&next=c5",
    ]) {
      const { res, body } = await list(cookie, business.studioId, query);
      expect(res.status, query).toBe(400);
      expect(body.error, query).toEqual(expect.any(String));
    }

    // A number-paged (first provider) site refuses cursors, before asking the provider.
    const [numbered] = await db()
      .insert(projects)
      .values({
        name: "Numbered",
        ownerId: owner.id,
        idempotencyKey: `numbered-${Date.now()}`,
        studioId: `numbered${Date.now().toString(36)}`,
        siteId: "not-asked",
        isSiteOnVercel: false,
      })
      .returning();
    for (const query of ["?next=c3", "?prev=c3", "?page=0"]) {
      expect((await list(cookie, numbered.studioId, query)).res.status, query).toBe(400);
    }

    expect((await list(await sessionCookie(outsider.id), business.studioId)).res.status).toBe(404);
    expect((await list(await sessionCookie(invited.id), business.studioId)).res.status).toBe(404);
    expect((await list(cookie, "no-such-studio")).res.status).toBe(404);
    expect((await list(cookie, "x".repeat(500))).res.status).toBe(404);
    expect((await list(undefined, business.studioId)).res.status).toBe(401);
    const post = await call(
      listPost,
      makeRequest(`/api/deployments/${business.studioId}`, { json: {}, cookie }),
    );
    expect(post.status).toBe(405);
  });
});

describe("when the hosting provider fails", () => {
  it("answers 503 with a message when the vendor cannot be reached", async () => {
    const owner = await createUser();
    const [p] = await db()
      .insert(projects)
      .values({
        name: "Vendor down",
        ownerId: owner.id,
        idempotencyKey: `down-${Date.now()}`,
        studioId: `down${Date.now().toString(36)}`,
        siteId: "prj_unreachable",
        isSiteOnVercel: true,
      })
      .returning();
    // The live adapter, pointed at a closed port.
    configure({
      PROVIDERS: "live",
      VERCEL_TOKEN: "test-token",
      VERCEL_API_URL: "http://127.0.0.1:9",
    });
    try {
      const { res, body } = await list(await sessionCookie(owner.id), p.studioId);
      expect(res.status).toBe(503);
      expect(body.error).toMatch(/not answering/);
    } finally {
      configure({ PROVIDERS: "local" });
    }
  });

  it("answers 502 with a generic message when the vendor refuses; the log and platform admins keep its words", async () => {
    const VENDOR_TEXT = "Token tok_live_5e4d3c2b has no access to project prj_internal_42";
    const owner = await createUser();
    const [existingAdmin] = await db()
      .select()
      .from(users)
      .where(eq(users.email, "admin@example.com"));
    const admin = existingAdmin ?? (await createUser({ email: "admin@example.com" }));
    const [p] = await db()
      .insert(projects)
      .values({
        name: "Vendor refuses",
        ownerId: owner.id,
        idempotencyKey: `refuses-${Date.now()}`,
        studioId: `refuses${Date.now().toString(36)}`,
        siteId: "prj_refused",
        isSiteOnVercel: true,
      })
      .returning();
    // A platform admin sees the project only as one of its members.
    await db().insert(members).values({
      projectId: p.id,
      userId: admin.id,
      invitedEmail: admin.email,
      role: "admin",
      status: "accepted",
    });
    const standIn = await startVercelStandIn();
    // Every request is refused (403) with the vendor's own words.
    standIn.fail({
      status: 403,
      body: { error: { code: "forbidden", message: VENDOR_TEXT } },
      times: 1000,
    });
    configure({ PROVIDERS: "live", VERCEL_TOKEN: standIn.token, VERCEL_API_URL: standIn.url });
    const logged = captureLogs("error");
    try {
      const generic = "The hosting provider reported an error. Our team has the details.";
      const ownerCookie = await sessionCookie(owner.id);

      // The JSON API.
      const { res, body } = await list(ownerCookie, p.studioId);
      expect(res.status).toBe(502);
      expect(body).toEqual({ error: generic });

      // The dashboard's Site Builds list.
      const page = await call(
        dashboardLoader,
        makeRequest(`/sites/${p.studioId}`, { cookie: ownerCookie }),
        { studioId: p.studioId },
      );
      expect(page.status).toBe(200);
      const pageText = await page.text();
      expect(JSON.parse(pageText).builds).toMatchObject({ ok: false, message: generic });
      expect(pageText).not.toContain("tok_live_5e4d3c2b");
      expect(pageText).not.toContain("prj_internal_42");

      // The server log has the detail.
      expect(logged.records.some((line) => String(line.reason).includes(VENDOR_TEXT))).toBe(true);

      // A platform admin sees the vendor's words.
      const forAdmin = await list(await sessionCookie(admin.id), p.studioId);
      expect(forAdmin.res.status).toBe(502);
      expect(forAdmin.body.error).toMatch(/^The hosting provider refused the request: /);
      expect(forAdmin.body.error).toContain(VENDOR_TEXT);
    } finally {
      logged.restore();
      configure({ PROVIDERS: "local" });
      await standIn.close();
    }
  });
});

describe("POST /api/app/deployments", () => {
  function post(cookie: string | undefined, body: unknown, raw?: string) {
    return call(
      deploymentsAction,
      makeRequest("/api/app/deployments", {
        method: "POST",
        cookie,
        ...(raw !== undefined
          ? { body: raw, headers: { "Content-Type": "application/json" } }
          : { json: body }),
      }),
    );
  }

  it("queues a deployment by studioId or _id, which the provider then builds", async () => {
    const owner = await createUser();
    const editor = await createUser();
    const cookie = await sessionCookie(owner.id);
    const created = await createThroughApi(cookie, { name: "Deploy me" });
    const row = await waitForStatus(created._id, ["success"]);
    await db().insert(members).values({
      projectId: row.id,
      userId: editor.id,
      invitedEmail: editor.email,
      status: "accepted",
    });

    const res = await post(cookie, { id: row.studioId });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({
      status: "queued",
      projectId: row.id,
      studioId: row.studioId,
    });
    const byEditor = await post(await sessionCookie(editor.id), { id: row.id });
    expect(byEditor.status).toBe(202);

    const manual = await waitFor(
      async () => {
        const rows = await db()
          .select()
          .from(localDeploys)
          .where(
            and(
              eq(localDeploys.siteId, row.siteId!),
              like(localDeploys.triggerKey, `${row.id}:manual:%`),
            ),
          );
        return rows.length === 2 && rows.every((d) => d.state === "READY") ? rows : null;
      },
      { what: "two manual deployments to be ready" },
    );
    expect(manual).toHaveLength(2);
    // The finished project stays 'success'.
    const after = await waitForStatus(row.id, ["success"]);
    expect(after.siteCreationStatus).toBe("success");
  });

  it("answers bad input with 400, outsiders with 404, anonymous with 401, GET with 405", async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const cookie = await sessionCookie(owner.id);
    const [p] = await db()
      .insert(projects)
      .values({
        name: "Still coming",
        ownerId: owner.id,
        idempotencyKey: `coming-${Date.now()}`,
        studioId: `coming${Date.now().toString(36)}`,
      })
      .returning();

    for (const body of [
      {},
      { id: "" },
      { id: "   " },
      { id: 42 },
      { id: null },
      [],
      "x",
      { id: "a".repeat(101) },
    ]) {
      const res = await post(cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error).toEqual(expect.any(String));
    }
    expect((await post(cookie, undefined, "{not json")).status).toBe(400);
    expect((await post(cookie, undefined, JSON.stringify({ id: "x".repeat(70_000) }))).status).toBe(
      413,
    );
    expect((await post(cookie, { id: "nothing-here" })).status).toBe(404);
    expect((await post(await sessionCookie(outsider.id), { id: p.studioId })).status).toBe(404);
    expect((await post(undefined, { id: p.studioId })).status).toBe(401);
    // No site yet: a clear 409.
    const early = await post(cookie, { id: p.studioId });
    expect(early.status).toBe(409);
    expect((await early.json()).error).toMatch(/still being created/);
    // A failed project is retried, not deployed.
    await db()
      .update(projects)
      .set({ siteId: "prj_x", siteCreationStatus: "failed" })
      .where(eq(projects.id, p.id));
    const failed = await post(cookie, { id: p.id });
    expect(failed.status).toBe(409);
    expect((await failed.json()).error).toMatch(/Retry deploy/);

    const get = await call(deploymentsGet, makeRequest("/api/app/deployments", { cookie }));
    expect(get.status).toBe(405);
  });
});
