/**
 * The permission table: every route module of app/routes, each
 * loader and action, against every actor - anonymous, signed-in outsider, invited (not accepted)
 * member, editor, developer, admin member, owner and platform admin - with real rows and real
 * sessions. Allowed requests must succeed (2xx, or a redirect within the app); denied ones get
 * 401/403/404 or a redirect to /auth/login, and change nothing (row counts and key columns of
 * the app's tables, and queued jobs, before and after).
 *
 * The route list is read from app/routes: a route file without a row fails the test, naming it.
 *
 * This file checks the table against the route files and runs the cross-project and
 * membership cases; the rows live in permissions/rows-*.ts and run from permissions/*.test.ts,
 * one file per area, so several workers share them.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, members } from "~/db/schema";
import { call, makeRequest } from "../helpers";
import { baseline } from "./permissions/fixture";
import { ROWS_API } from "./permissions/rows-api";
import { ROWS_AUTH } from "./permissions/rows-auth";
import { CROSS } from "./permissions/rows-cross";
import { ROWS_PAGES } from "./permissions/rows-pages";
import { ROWS_PUBLIC } from "./permissions/rows-public";
import {
  describeCross,
  importRoute,
  routeFiles,
  tableProblems,
  sharedFixture,
} from "./permissions/runner";
import { next } from "./permissions/table";

/** Every row of the table, whichever area's file runs it. */
const ROWS = [...ROWS_PAGES, ...ROWS_API, ...ROWS_AUTH, ...ROWS_PUBLIC];

const fixture = sharedFixture();

describe("the permission table", () => {
  it("has a row for every route file, and only for route files", () => {
    // Each area's file checks its rows' cases against the route modules (describeRows).
    expect(tableProblems(routeFiles, ROWS)).toEqual([]);
  });

  it("fails, naming the file, when a route has no row (fixture with a made-up route)", () => {
    const files = [...routeFiles, "api.app.made-up-route.ts"];
    expect(tableProblems(files, ROWS)).toEqual([
      "app/routes/api.app.made-up-route.ts has no row in the permission table (tests/integration/permissions/rows-*.ts): add one for its loader/action and every actor",
    ]);
    // ...and a row whose route was deleted is reported too.
    expect(tableProblems(routeFiles.slice(1), ROWS)).toEqual([
      `the row for ${routeFiles[0]} names no route file`,
    ]);
  });

  it("marks why each public route is public", () => {
    for (const row of ROWS.filter((r) => r.public !== undefined)) {
      expect(row.public!.length, row.file).toBeGreaterThan(5);
    }
  });
});

describeCross(CROSS, fixture);

describe("membership is read on every request", () => {
  it("a role change or a removal applies to the very next request", async () => {
    const f = fixture();
    await baseline(f);
    const { action } = await importRoute("api.app.members.ts");
    const { loader } = await importRoute("api.app.$id.ts");
    const invite = () =>
      call(
        action!,
        makeRequest("/api/app/members", {
          cookie: f.cookies.editor,
          json: { studioId: f.a.studioId, email: `fresh-${next()}@example.com`, role: "editor" },
        }),
      );
    const view = () =>
      call(loader!, makeRequest(`/api/app/${f.a.id}`, { cookie: f.cookies.editor }), {
        id: f.a.id,
      });

    expect((await invite()).status).toBe(403);
    await db().update(members).set({ role: "admin" }).where(eq(members.id, f.memberIds.editor));
    expect((await invite()).status).toBe(201);
    expect(((await (await view()).json()) as { role: string }).role).toBe("admin");

    await db().delete(members).where(eq(members.id, f.memberIds.editor));
    expect((await view()).status).toBe(404);
    expect((await invite()).status).toBe(404);
    await baseline(f);
  });
});

describe("platform admins on other people's projects (support access)", () => {
  const supportEntries = async (projectId: string, userId: string) =>
    db()
      .select({ type: eventLogs.type, content: eventLogs.content })
      .from(eventLogs)
      .where(and(eq(eventLogs.projectId, projectId), eq(eventLogs.actorId, userId)))
      .then((rows) => rows.filter((r) => r.type.startsWith("support.")));

  it("add members outside the project, each change logged; as a member, no support entry", async () => {
    const f = fixture();
    await baseline(f);
    await db().delete(eventLogs).where(eq(eventLogs.actorId, f.users.platformAdmin.id));
    const { action } = await importRoute("api.app.members.ts");
    const invited: string[] = [];
    const invite = () => {
      const email = `pa-${next()}@example.com`;
      invited.push(email);
      return call(
        action!,
        makeRequest("/api/app/members", {
          cookie: f.cookies.platformAdmin,
          json: { studioId: f.a.studioId, email, role: "editor" },
        }),
      );
    };
    // Outside the project (as "platform admin, owner or member admin" may): allowed, logged.
    expect((await invite()).status).toBe(201);
    expect((await invite()).status).toBe(201);
    const logged = await supportEntries(f.a.id, f.users.platformAdmin.id);
    expect(logged.filter((e) => e.type === "support.changed")).toEqual([
      ...invited.map((email) => ({
        type: "support.changed",
        content: `Support access by Pat Platform: added a member (invited ${email})`,
      })),
    ]);
    // An editor member who is a platform admin acts as a member: no support entry.
    await db().delete(eventLogs).where(eq(eventLogs.actorId, f.users.platformAdmin.id));
    await db().insert(members).values({
      projectId: f.a.id,
      userId: f.users.platformAdmin.id,
      invitedEmail: f.users.platformAdmin.email,
      role: "editor",
      status: "accepted",
    });
    expect((await invite()).status).toBe(201);
    expect(await supportEntries(f.a.id, f.users.platformAdmin.id)).toEqual([]);
    await baseline(f);
  });
});
