/**
 * One badge derivation (app/services/projects/project-status.ts) on the project
 * list, the picker and the dashboard; new projects at the site template's schema version; the
 * picker's match count and keyset 'Load more' to the 120th of 120 projects.
 */
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { projects, type HostingDetails } from "~/db/schema";
import { loader as appLoader } from "~/routes/_app";
import { loader as projectLoader } from "~/routes/_app._project.sites.$studioId/route";
import { loader as sitesLoader } from "~/routes/_app.sites._index";
import { action as createApi } from "~/routes/api.app.create";
import { loader as pickerLoader } from "~/routes/resources.picker";
import { getUser } from "~/services/accounts/accounts.server";
import { PICKER_COUNT_CAP } from "~/services/projects/project-status";
import {
  countProjects,
  createProject,
  newIdempotencyKey,
} from "~/services/projects/projects.server";
import { resetEnv } from "~/utils/env.server";
import {
  BASE,
  call,
  callProjectPage,
  createUser,
  insertProject,
  makeRequest,
  sessionCookie,
} from "../helpers";

type Badge = { state: string; label: string; isNew: boolean };
type Listed = {
  studioId: string;
  name: string;
  badge: Badge;
  live: boolean;
  upgradeTo: number | null;
};
type PickerPage = {
  projects: { studioId: string; name: string; badge: Badge; live: boolean }[];
  query: string;
  total: number;
  cursor: string | null;
  nextCursor: string | null;
};

const DAY = 24 * 60 * 60 * 1000;
const published = { state: "current", published_deploy: { id: "d1" } } satisfies HostingDetails;

async function json<T>(response: Response | Promise<Response>): Promise<T> {
  const res = await response;
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

const listed = async (cookie: string, query = "") =>
  (
    await json<{ data: Listed[] }>(
      call(sitesLoader, makeRequest(`/sites${query ? `?q=${query}` : ""}`, { cookie })),
    )
  ).data;

describe("one badge derivation for the list, the picker and the dashboard", () => {
  it("derives New, In Progress, Getting Ready, Ready, Build Error, Live and UPGRADE REQUIRED the same everywhere", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const old = new Date(Date.now() - 3 * DAY);
    const cases = [
      // A new project the hosting provider has not reported yet, recorded without a version.
      { name: "fresh", values: {}, badge: ["building", "In Progress", true], live: false, up: 3 },
      {
        name: "getting ready",
        values: { createdAt: old, schemaVersion: 3, siteDetails: { ...published, ssl: false } },
        badge: ["getting-ready", "Getting Ready", false],
        live: false,
        up: null,
      },
      {
        name: "live",
        values: {
          createdAt: old,
          schemaVersion: 6,
          siteCreationStatus: "success" as const,
          siteCustomDomain: "live.example",
          siteDetails: { ...published, ssl: true },
        },
        badge: ["ready", "Ready", false],
        live: true,
        up: null,
      },
      {
        name: "broken",
        values: { schemaVersion: 2, siteDetails: { state: "error" } },
        badge: ["error", "Build Error", true],
        live: false,
        up: 3,
      },
      {
        // Exactly one day old: no longer 'New'.
        name: "a day old",
        values: { createdAt: new Date(Date.now() - DAY - 1000), schemaVersion: 4 },
        badge: ["building", "In Progress", false],
        live: false,
        up: null,
      },
    ];
    const rows = [];
    for (const c of cases) {
      rows.push(await insertProject(me.id, { name: `Badge ${c.name}`, ...c.values }));
    }

    const list = await listed(cookie, "badge");
    const picker = await json<PickerPage>(
      call(pickerLoader, makeRequest("/resources/picker?q=badge", { cookie })),
    );
    const layout = await json<{ picker: PickerPage }>(
      call(appLoader, makeRequest("/sites?pq=badge", { cookie })),
    );
    for (const [i, c] of cases.entries()) {
      const row = rows[i];
      const [state, label, isNew] = c.badge;
      const expected = { state, label, isNew };
      const inList = list.find((p) => p.studioId === row.studioId);
      expect(inList, c.name).toMatchObject({ badge: expected, live: c.live, upgradeTo: c.up });
      // The picker (with and without JavaScript) shows the list's badge.
      for (const page of [picker, layout.picker]) {
        const inPicker = page.projects.find((p) => p.studioId === row.studioId);
        expect(inPicker, `${c.name} in the picker`).toEqual({
          studioId: row.studioId,
          name: row.name,
          badge: expected,
          live: c.live,
        });
      }
      // The dashboard derives the same.
      const { project } = await json<{ project: Listed }>(
        callProjectPage(projectLoader, makeRequest(`/sites/${row.studioId}`, { cookie }), {
          studioId: row.studioId,
        }),
      );
      expect(project, `${c.name} on the dashboard`).toMatchObject({
        badge: expected,
        live: c.live,
        upgradeTo: c.up,
      });
    }
    // The list never sends the raw hosting details to the browser.
    expect(JSON.stringify(list)).not.toContain("published_deploy");
  });

  it("moves a listed project from In Progress to Ready on the next load (what the 60 s refresh runs)", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const { project } = await createProject(
      { id: me.id, name: me.name, email: me.email, isAdmin: false },
      { name: "Refreshing site", idempotencyKey: newIdempotencyKey() },
    );
    const before = (await listed(cookie)).find((p) => p.studioId === project.studioId);
    expect(before).toMatchObject({
      badge: { state: "building", label: "In Progress", isNew: true },
      upgradeTo: null,
    });

    await db()
      .update(projects)
      .set({ siteCreationStatus: "success", siteDetails: { ...published, ssl: true } })
      .where(eq(projects.id, project._id));
    const after = (await listed(cookie)).find((p) => p.studioId === project.studioId);
    expect(after).toMatchObject({
      badge: { state: "ready", label: "Ready", isNew: true },
      upgradeTo: null,
    });
  });
});

describe("the schema version of new projects (SITE_SCHEMA_VERSION)", () => {
  afterEach(() => {
    delete process.env.SITE_SCHEMA_VERSION;
    resetEnv();
  });

  const postCreate = (cookie: string, name: string) =>
    call(
      createApi,
      makeRequest("/api/app/create", {
        cookie,
        json: { name, siteType: "business", idempotencyKey: newIdempotencyKey() },
        headers: { Origin: BASE },
      }),
    );

  it("creates a project at the template's version, 6 by default, so it shows no UPGRADE REQUIRED", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const res = await postCreate(cookie, "Current template");
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.schemaVersion).toBe(6);
    const [row] = await db().select().from(projects).where(eq(projects.id, body._id));
    expect(row.schemaVersion).toBe(6);
    expect((await listed(cookie)).find((p) => p.studioId === body.studioId)?.upgradeTo).toBeNull();
  });

  it("follows a configured version, and only a project recorded without one counts as 1", async () => {
    process.env.SITE_SCHEMA_VERSION = "2";
    resetEnv();
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const res = await postCreate(cookie, "Older template");
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.schemaVersion).toBe(2);

    // A row written without a version (an import, a project from before versions) is version 1.
    const legacy = await insertProject(me.id, { name: "Legacy" });
    expect(legacy.schemaVersion).toBe(1);
    const list = await listed(cookie);
    expect(list.find((p) => p.studioId === body.studioId)?.upgradeTo).toBe(3);
    expect(list.find((p) => p.studioId === legacy.studioId)?.upgradeTo).toBe(3);
  });
});

describe("the picker's match count and 'Load more'", () => {
  /** 120 projects one second apart, "Many 001" the oldest: the picker's 120th. */
  async function seed120(ownerId: string) {
    await db()
      .insert(projects)
      .values(
        Array.from({ length: 120 }, (_, i) => {
          const n = String(i + 1).padStart(3, "0");
          return {
            name: `Many ${n}`,
            ownerId,
            idempotencyKey: `many-${n}-${Math.random()}`,
            studioId: `many${n}x${Math.random().toString(36).slice(2, 8)}`,
            createdAt: sql`now() - make_interval(secs => ${120 - i})`,
          };
        }),
      );
  }

  it("reaches the 120th of 120 projects, 50 at a time, with JavaScript (/resources/picker)", async () => {
    const me = await createUser();
    const other = await createUser();
    const cookie = await sessionCookie(me.id);
    await seed120(me.id);
    await insertProject(other.id, { name: "Many 999 (not mine)" });

    const pages: PickerPage[] = [];
    let url = "/resources/picker";
    for (;;) {
      const page = await json<PickerPage>(call(pickerLoader, makeRequest(url, { cookie })));
      pages.push(page);
      if (!page.nextCursor) break;
      url = `/resources/picker?cursor=${page.nextCursor}`;
    }
    expect(pages.map((p) => p.projects.length)).toEqual([50, 50, 20]);
    expect(pages.map((p) => p.total)).toEqual([120, 120, 120]);
    const names = pages.flatMap((p) => p.projects.map((project) => project.name));
    expect(new Set(names).size).toBe(120);
    expect(names[0]).toBe("Many 120");
    expect(names[119]).toBe("Many 001");
    expect(names).not.toContain("Many 999 (not mine)");
  });

  it("counts and pages the search's matches, and without JavaScript pages through ?pq=&pcursor=", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    await seed120(me.id);
    await insertProject(me.id, { name: "Elsewhere" });

    // "many 0" matches Many 001..099.
    const first = await json<PickerPage>(
      call(pickerLoader, makeRequest("/resources/picker?q=MANY%200", { cookie })),
    );
    expect(first).toMatchObject({ query: "many 0", total: 99, cursor: null });
    expect(first.projects).toHaveLength(50);

    // The no-JavaScript picker: the layout loader reads the same search and cursor.
    const layoutPage = async (search: string) =>
      (
        await json<{ picker: PickerPage }>(
          call(appLoader, makeRequest(`/sites?${search}`, { cookie })),
        )
      ).picker;
    const nojs1 = await layoutPage("pq=many%200");
    expect(nojs1.projects.map((p) => p.name)).toEqual(first.projects.map((p) => p.name));
    const nojs2 = await layoutPage(`pq=many%200&pcursor=${nojs1.nextCursor}`);
    expect(nojs2).toMatchObject({ query: "many 0", total: 99, cursor: nojs1.nextCursor });
    expect(nojs2.projects).toHaveLength(49);
    expect(nojs2.projects.at(-1)?.name).toBe("Many 001");
    expect(nojs2.nextCursor).toBeNull();

    // All 121 with an empty search (the no-JavaScript 'Show my projects'); the 121st is on the
    // third page. A page without ?pq= carries no list.
    const all = await layoutPage("pq=");
    expect(all.total).toBe(121);
    expect(await layoutPage("")).toMatchObject({ loaded: false, projects: [] });
    expect(all.nextCursor).toEqual(expect.any(String));
  });

  it("starts over on a cursor it did not issue instead of failing the page", async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    await insertProject(me.id, { name: "Only one" });
    for (const bad of ["garbage", "eyJhIjoxfQ", "%00"]) {
      const js = await json<PickerPage>(
        call(pickerLoader, makeRequest(`/resources/picker?cursor=${bad}`, { cookie })),
      );
      expect(js).toMatchObject({ cursor: null, total: 1 });
      expect(js.projects.map((p) => p.name)).toEqual(["Only one"]);
      const nojs = await json<{ picker: PickerPage }>(
        call(appLoader, makeRequest(`/sites?pcursor=${bad}`, { cookie })),
      );
      expect(nojs.picker).toMatchObject({ cursor: null, total: 1 });
    }
  });

  it("answers anonymous callers with 401", async () => {
    const res = await call(pickerLoader, makeRequest("/resources/picker?cursor=x"));
    expect(res.status).toBe(401);
  });
});

describe("the picker's count for a large account", () => {
  it("counts up to PICKER_COUNT_CAP and then only says there are more", async () => {
    const owner = await createUser();
    await db()
      .insert(projects)
      .values(
        Array.from({ length: PICKER_COUNT_CAP + 5 }, (_, i) => ({
          name: `Bulk ${i}`,
          ownerId: owner.id,
          idempotencyKey: `bulk-${owner.id}-${i}`,
          studioId: `bulk${i}x${owner.id.slice(0, 8)}`,
        })),
      );
    expect(await countProjects((await getUser(owner.id))!, {})).toBe(PICKER_COUNT_CAP + 1);
  });
});
