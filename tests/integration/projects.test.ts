import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, members, projects } from "~/db/schema";
import { loader as getOneApi } from "~/routes/api.app.$id";
import { loader as listApi } from "~/routes/api.app._index";
import { action as createApi, loader as createApiGet } from "~/routes/api.app.create";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";

/** A row of GET /api/app: the Project entity under its own names. */
type Summary = { _id: string; name: string; _createdAt: string; role: string; isOwner: boolean };
type Page = { data: Summary[]; nextCursor: string | null };

// One platform admin per test database (the e-mail is unique).
let adminUser: ReturnType<typeof createUser> | undefined;
const getAdmin = () => (adminUser ??= createUser({ email: "admin@example.com" }));

let seq = 0;
/** Inserts a project straight into the table (the list tests need hundreds, with set times). */
async function insertProject(
  ownerId: string,
  values: Partial<Omit<typeof projects.$inferInsert, "createdAt">> & {
    createdAt?: Date | ReturnType<typeof sql>;
  } = {},
) {
  seq += 1;
  const [row] = await db()
    .insert(projects)
    .values({
      name: `Project ${seq}`,
      ownerId,
      idempotencyKey: `seed-${seq}-${Math.random()}`,
      studioId: `seed${seq}x${Math.random().toString(36).slice(2, 8)}`,
      ...values,
    } as typeof projects.$inferInsert)
    .returning();
  return row;
}

async function addMember(
  projectId: string,
  user: { id: string; email: string },
  status: "invited" | "accepted",
  role: "editor" | "developer" | "admin" = "editor",
) {
  await db()
    .insert(members)
    .values({ projectId, userId: user.id, invitedEmail: user.email, status, role });
}

async function listAll(cookie: string, params: Record<string, string> = {}) {
  const seen: Summary[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const search = new URLSearchParams({ ...params, ...(cursor ? { cursor } : {}) });
    const res = await call(listApi, makeRequest(`/api/app?${search}`, { cookie }));
    expect(res.status).toBe(200);
    const page = (await res.json()) as Page;
    seen.push(...page.data);
    cursor = page.nextCursor;
    pages += 1;
    expect(pages).toBeLessThan(100);
  } while (cursor);
  return { seen, pages };
}

function postCreate(
  cookie: string | undefined,
  body: unknown,
  init: { raw?: string; headers?: Record<string, string> } = {},
) {
  return call(
    createApi,
    makeRequest("/api/app/create", {
      method: "POST",
      cookie,
      ...(init.raw !== undefined ? { body: init.raw } : { json: body }),
      headers: init.headers,
    }),
  );
}

describe("GET /api/app (listProjects)", () => {
  it("lists projects the user owns or is an accepted member of, and nobody else's", async () => {
    const me = await createUser();
    const other = await createUser();
    const mine = await insertProject(me.id, { name: "Mine" });
    const asAdmin = await insertProject(other.id, { name: "Shared as admin" });
    const invitedOnly = await insertProject(other.id, { name: "Only invited" });
    const notMine = await insertProject(other.id, { name: "Not mine" });
    await addMember(asAdmin.id, me, "accepted", "admin");
    await addMember(invitedOnly.id, me, "invited");

    const { seen } = await listAll(await sessionCookie(me.id));
    expect(seen.map((p) => p._id).sort()).toEqual([mine.id, asAdmin.id].sort());
    expect(seen.find((p) => p._id === mine.id)).toMatchObject({ role: "owner", isOwner: true });
    expect(seen.find((p) => p._id === asAdmin.id)).toMatchObject({ role: "admin", isOwner: false });
    expect(seen.some((p) => p._id === notMine.id || p._id === invitedOnly.id)).toBe(false);
  });

  it("shows a platform admin only their own projects too", async () => {
    const admin = await getAdmin();
    const other = await createUser();
    const own = await insertProject(admin.id);
    await insertProject(other.id);
    const { seen } = await listAll(await sessionCookie(admin.id));
    expect(seen.map((p) => p._id)).toEqual([own.id]);
  });

  it("pages through many projects newest first, ties on createdAt broken by id, with no duplicates or gaps", async () => {
    const me = await createUser();
    const base = Date.UTC(2025, 0, 1);
    // 60 projects in groups of 4 sharing one timestamp, plus 6 that differ only in microseconds.
    for (let i = 0; i < 60; i += 1) {
      await insertProject(me.id, { createdAt: new Date(base + Math.floor(i / 4) * 1000) });
    }
    for (let i = 0; i < 6; i += 1) {
      await insertProject(me.id, {
        createdAt: sql`${`2025-06-01T00:00:00.00000${i}Z`}::timestamptz`,
      });
    }
    const expected = await db()
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.ownerId, me.id))
      .orderBy(sql`${projects.createdAt} desc, ${projects.id} desc`);

    const cookie = await sessionCookie(me.id);
    const { seen, pages } = await listAll(cookie, { limit: "7" });
    expect(pages).toBe(Math.ceil(66 / 7));
    expect(seen.map((p) => p._id)).toEqual(expected.map((r) => r.id));
    expect(new Set(seen.map((p) => p._id)).size).toBe(66);
    const times = seen.map((p) => Date.parse(p._createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("merges owned and member projects in one order across pages, each once", async () => {
    const me = await createUser();
    const other = await createUser();
    const base = Date.UTC(2025, 2, 1);
    const ids: string[] = [];
    // 30 projects alternating owner and membership, some sharing a timestamp across the two.
    for (let i = 0; i < 30; i += 1) {
      const owner = i % 2 === 0 ? me : other;
      const row = await insertProject(owner.id, {
        createdAt: new Date(base + Math.floor(i / 3) * 1000),
      });
      if (owner === other) await addMember(row.id, me, "accepted", "editor");
      ids.push(row.id);
    }
    // A member row on one's own project (possible in old data) lists the project once.
    await addMember(ids[0], me, "accepted", "admin");
    const expected = await db()
      .select({ id: projects.id })
      .from(projects)
      .where(inArray(projects.id, ids))
      .orderBy(sql`${projects.createdAt} desc, ${projects.id} desc`);
    const { seen } = await listAll(await sessionCookie(me.id), { limit: "4" });
    expect(seen.map((p) => p._id)).toEqual(expected.map((r) => r.id));
    expect(seen.find((p) => p._id === ids[0])).toMatchObject({ role: "owner" });
  });

  it("defaults to 20 per page and clamps the limit to 50", async () => {
    const me = await createUser();
    for (let i = 0; i < 55; i += 1) await insertProject(me.id);
    const cookie = await sessionCookie(me.id);
    const first = (await (await call(listApi, makeRequest("/api/app", { cookie }))).json()) as Page;
    expect(first.data).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    const big = (await (
      await call(listApi, makeRequest("/api/app?limit=500", { cookie }))
    ).json()) as Page;
    expect(big.data).toHaveLength(50);
  });

  it("searches lowercased names, taking % and _ literally, across pages", async () => {
    const me = await createUser();
    for (const name of [
      "Acme Shop",
      "ACME blog",
      "100% real",
      "100 real",
      "under_score",
      "underXscore",
      "Other",
    ]) {
      await insertProject(me.id, { name });
    }
    for (let i = 0; i < 12; i += 1) await insertProject(me.id, { name: `Acme extra ${i}` });
    const cookie = await sessionCookie(me.id);
    const names = async (query: string) =>
      (await listAll(cookie, { query, limit: "5" })).seen.map((p) => p.name);

    const acme = await names("ACME");
    expect(acme).toHaveLength(14);
    expect(acme).toEqual(expect.arrayContaining(["Acme Shop", "ACME blog"]));
    expect(await names("%")).toEqual(["100% real"]);
    expect(await names("_")).toEqual(["under_score"]);
    expect(await names("nothing like this")).toEqual([]);
  });

  it("answers a garbage cursor or limit with 400 JSON, not 500", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const bogus = Buffer.from(JSON.stringify(["2026-02-30T00:00:00.000000Z", "x"])).toString(
      "base64url",
    );
    for (const query of [
      "cursor=%%%garbage",
      "cursor=bm90IGpzb24",
      `cursor=${bogus}`,
      "limit=abc",
      "limit=-1",
      `query=${"a".repeat(300)}`,
    ]) {
      const res = await call(listApi, makeRequest(`/api/app?${query}`, { cookie }));
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body.error).toEqual(expect.any(String));
      expect(body.fieldErrors).toBeDefined();
    }
  });

  it("answers 401 JSON without a session", async () => {
    const res = await call(listApi, makeRequest("/api/app"));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "You must be logged in" });
  });
});

describe("GET /api/app/{id} (getProject)", () => {
  it("returns the project by _id or studioId to its owner, with the spec's field names and no secrets", async () => {
    const me = await createUser({ name: "Owner Person" });
    const project = await insertProject(me.id, {
      name: "Detail",
      chromaticProjectToken: "chpt_secret",
    });
    const cookie = await sessionCookie(me.id);
    for (const id of [project.id, project.studioId]) {
      const res = await call(getOneApi, makeRequest(`/api/app/${id}`, { cookie }), { id });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({
        _id: project.id,
        name: "Detail",
        owner: { name: "Owner Person", email: me.email },
        studioId: project.studioId,
        siteType: "business",
        siteCreationStatus: "pending",
        studioCreationStatus: "pending",
        schemaVersion: 1,
        sites: [],
        isVisualTestsEnabled: false,
        hasChromaticProjectToken: true,
        role: "owner",
      });
      expect(body._createdAt).toBe(project.createdAt.toISOString());
      expect(body._updatedAt).toEqual(expect.any(String));
      expect(JSON.stringify(body)).not.toContain("chpt_secret");
      expect(body).not.toHaveProperty("chromaticProjectToken");
    }
  });

  it("returns it to an accepted member and to platform admins (support), 404 to invited members and outsiders", async () => {
    const owner = await createUser();
    const member = await createUser();
    const invited = await createUser();
    const outsider = await createUser();
    const admin = await getAdmin();
    const project = await insertProject(owner.id);
    await addMember(project.id, member, "accepted", "developer");
    await addMember(project.id, invited, "invited");
    const get = async (userId: string, id = project.studioId) =>
      call(getOneApi, makeRequest(`/api/app/${id}`, { cookie: await sessionCookie(userId) }), {
        id,
      });

    const ok = await get(member.id);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ role: "developer", isOwner: false });
    const support = await get(admin.id);
    expect(support.status).toBe(200);
    expect(await support.json()).toMatchObject({ role: "support", isOwner: false });
    for (const userId of [invited.id, outsider.id]) {
      const res = await get(userId);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Project not found" });
    }
    // A missing project looks exactly like a hidden one, whatever the id's shape.
    for (const id of [
      "0b7c2f0e-8f3a-4f5e-9b1d-2a6c3e4f5a6b",
      "nope",
      "' or 1=1 --",
      "x".repeat(300),
    ]) {
      expect((await get(owner.id, id)).status).toBe(404);
    }
  });

  it("answers 401 JSON without a session", async () => {
    const res = await call(getOneApi, makeRequest("/api/app/abc"), { id: "abc" });
    expect(res.status).toBe(401);
  });
});

describe("POST /api/app/create (createProject)", () => {
  it("creates a pending business project owned by the caller, with a sites.create log entry", async () => {
    const me = await createUser();
    const res = await postCreate(await sessionCookie(me.id), {
      name: "  My \u200b  new site ",
      siteType: "business",
      idempotencyKey: "key-create-1",
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      name: "My new site",
      siteType: "business",
      siteCreationStatus: "pending",
      studioCreationStatus: "pending",
      // The site template's current version (SITE_SCHEMA_VERSION, default the latest known).
      schemaVersion: 6,
      owner: { email: me.email },
      idempotencyKey: "key-create-1",
    });
    expect(body.studioId).toMatch(/^[a-z0-9]{12}$/);
    const logs = await db().select().from(eventLogs).where(eq(eventLogs.projectId, body._id));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: "sites.create", actorId: me.id });
  });

  it("returns the same single project for the same idempotency key (200 the second time)", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const input = { name: "Once", idempotencyKey: "key-repeat-1" };
    const first = await postCreate(cookie, input);
    const second = await postCreate(cookie, { ...input, name: "Once again" });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    const [a, b] = [await first.json(), await second.json()];
    expect(b._id).toBe(a._id);
    expect(b.name).toBe("Once");
    const rows = await db().select().from(projects).where(eq(projects.ownerId, me.id));
    expect(rows).toHaveLength(1);
    const logs = await db().select().from(eventLogs).where(eq(eventLogs.projectId, a._id));
    expect(logs).toHaveLength(1);
  });

  it("creates one project from 5 concurrent requests with one key", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        postCreate(cookie, { name: "Race", idempotencyKey: "key-race-1" }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(await Promise.all(responses.map(async (r) => (await r.json())._id)));
    expect(ids.size).toBe(1);
    const rows = await db()
      .select()
      .from(projects)
      .where(and(eq(projects.ownerId, me.id), eq(projects.idempotencyKey, "key-race-1")));
    expect(rows).toHaveLength(1);
  });

  it("scopes the key to its owner: another user's same key makes another project", async () => {
    const a = await createUser();
    const b = await createUser();
    const input = { name: "Same key", idempotencyKey: "key-shared-1" };
    const ra = await postCreate(await sessionCookie(a.id), input);
    const rb = await postCreate(await sessionCookie(b.id), input);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect((await ra.json())._id).not.toBe((await rb.json())._id);
  });

  it("refuses enterprise from a non-admin with 403, and lets a platform admin choose it", async () => {
    const me = await createUser();
    const refused = await postCreate(await sessionCookie(me.id), {
      name: "Big",
      siteType: "enterprise",
      idempotencyKey: "key-ent-1",
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: "Only platform admins can choose the site type",
    });
    expect(await db().select().from(projects).where(eq(projects.ownerId, me.id))).toHaveLength(0);

    const admin = await getAdmin();
    const ok = await postCreate(await sessionCookie(admin.id), {
      name: "Big",
      siteType: "enterprise",
      idempotencyKey: "key-ent-2",
    });
    expect(ok.status).toBe(201);
    expect((await ok.json()).siteType).toBe("enterprise");
  });

  it("answers malformed, wrong-typed and oversized bodies with 400 JSON, never 500", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const cases: {
      label: string;
      body?: unknown;
      raw?: string;
      field?: string;
      status?: number;
      /** Content-Type of a raw body; application/json unless given. */
      type?: string;
    }[] = [
      { label: "invalid JSON", raw: "{name: oops" },
      { label: "empty body", raw: "", field: "name" },
      { label: "array body", body: [1, 2], field: "form" },
      { label: "string body", body: "hello", field: "form" },
      { label: "null body", raw: "null", field: "form" },
      { label: "name a number", body: { name: 42, idempotencyKey: "key-bad-1" }, field: "name" },
      {
        label: "name an object",
        body: { name: { $ne: 1 }, idempotencyKey: "key-bad-2" },
        field: "name",
      },
      {
        label: "name blank",
        body: { name: " \u200b ", idempotencyKey: "key-bad-3" },
        field: "name",
      },
      {
        label: "name too long",
        body: { name: "x".repeat(65), idempotencyKey: "key-bad-4" },
        field: "name",
      },
      { label: "missing idempotencyKey", body: { name: "Fine" }, field: "idempotencyKey" },
      {
        label: "idempotencyKey a number",
        body: { name: "Fine", idempotencyKey: 12345678 },
        field: "idempotencyKey",
      },
      {
        label: "unknown siteType",
        body: { name: "Fine", siteType: "agency", idempotencyKey: "key-bad-5" },
        field: "siteType",
      },
      {
        label: "siteType an array",
        body: { name: "Fine", siteType: ["business"], idempotencyKey: "key-bad-6" },
        field: "siteType",
      },
      {
        label: "oversized",
        raw: JSON.stringify({ name: "x", idempotencyKey: "key-bad-7", pad: "x".repeat(100_000) }),
        status: 413,
      },
      {
        label: "JSON sent as text/plain (as a cross-site form can)",
        raw: JSON.stringify({ name: "Fine", idempotencyKey: "key-bad-8" }),
        type: "text/plain",
        status: 415,
      },
    ];
    for (const c of cases) {
      const type = c.type ?? "application/json";
      const res = await postCreate(cookie, c.body, {
        raw: c.raw,
        headers: c.raw !== undefined ? { "Content-Type": type } : undefined,
      });
      expect(res.status, c.label).toBe(c.status ?? 400);
      const body = await res.json();
      expect(body.error, c.label).toEqual(expect.any(String));
      if (c.field) expect(Object.keys(body.fieldErrors ?? {}), c.label).toContain(c.field);
    }
    expect(await db().select().from(projects).where(eq(projects.ownerId, me.id))).toHaveLength(0);
  });

  it("answers 401 JSON without a session and 405 for GET", async () => {
    const res = await postCreate(undefined, { name: "x", idempotencyKey: "key-anon-1" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "You must be logged in" });
    const get = await call(createApiGet, makeRequest("/api/app/create"));
    expect(get.status).toBe(405);
  });
});
