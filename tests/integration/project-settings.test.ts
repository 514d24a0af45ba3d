/**
 * The Settings page's StackShift version: everyone who sees the project reads it, platform
 * admins raise it (never lower it), the change is in the Activity Log, and the gates follow.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, members, projects } from "~/db/schema";
import { loader as dashboardLoader } from "~/routes/_app._project.sites.$studioId/route";
import {
  action as settingsAction,
  loader as settingsLoader,
} from "~/routes/_app._project.sites.settings.$studioId";
import type { AddonsView } from "~/services/addons/addons.server";
import type {
  ProjectSettingsView,
  SchemaVersionView,
} from "~/services/projects/project-settings.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;
let paCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Olga Owner" });
  ownerCookie = await sessionCookie(owner.id);
  paCookie = await sessionCookie(
    (await createUser({ name: "Pia Platform", email: "admin@example.com" })).id,
  );
});

const view = async (studioId: string, cookie: string) => {
  const res = await call(settingsLoader, makeRequest(`/sites/settings/${studioId}`, { cookie }), {
    studioId,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { schema: SchemaVersionView }).schema;
};

const raise = (studioId: string, cookie: string, schemaVersion: string) =>
  call(
    settingsAction,
    makeRequest(`/sites/settings/${studioId}`, {
      cookie,
      form: { intent: "schema-version", schemaVersion },
    }),
    { studioId },
  );

describe("raising the StackShift version", () => {
  it("lets a platform admin raise it, logged, and the add-on gates follow at once", async () => {
    const project = await insertProject(owner.id, { schemaVersion: 3 });
    expect(await view(project.studioId, ownerCookie)).toEqual({
      current: 3,
      latest: 6,
      canRaise: false,
    });
    expect(await view(project.studioId, paCookie)).toMatchObject({ current: 3, canRaise: true });

    const res = await raise(project.studioId, paCookie, "6");
    expect(res).toHaveRedirect(`/sites/settings/${project.studioId}`);
    expect(await toastOf(res)).toMatchObject({
      type: "success",
      title: "StackShift version raised to 6.",
    });
    expect(await view(project.studioId, ownerCookie)).toMatchObject({ current: 6 });
    const logged = await db()
      .select({ type: eventLogs.type, content: eventLogs.content })
      .from(eventLogs)
      .where(eq(eventLogs.projectId, project.id));
    expect(logged).toEqual(
      expect.arrayContaining([
        {
          type: "project.schemaVersion.raised",
          content: "Pia Platform raised the StackShift version from 3 to 6",
        },
        {
          type: "support.changed",
          content: "Support access by Pia Platform: raised the StackShift version",
        },
      ]),
    );
    const dashboard = await call(
      dashboardLoader,
      makeRequest(`/sites/${project.studioId}`, { cookie: ownerCookie }),
      { studioId: project.studioId },
    );
    const { addons } = (await dashboard.json()) as { addons: AddonsView };
    expect(addons.cards.find((c) => c.key === "endToEndTests")?.requires).toBeNull();
    expect(addons.tools.themePreviewRequires).toBeNull();
  });

  it("refuses lowering, the same version, a bad value and the owner, changing nothing", async () => {
    const project = await insertProject(owner.id, { schemaVersion: 4 });
    const same = await raise(project.studioId, paCookie, "4");
    expect(same.status).toBe(409);
    expect((await same.json()).result.error[""]).toEqual([
      "The project is already at StackShift version 4.",
    ]);
    expect((await raise(project.studioId, paCookie, "3")).status).toBe(409);
    const bad = await raise(project.studioId, paCookie, "99");
    expect(bad.status).toBe(400);
    expect((await bad.json()).result.error.schemaVersion).toEqual(["The latest version is 6"]);
    expect((await raise(project.studioId, paCookie, "six")).status).toBe(400);
    expect((await raise(project.studioId, ownerCookie, "5")).status).toBe(403);
    const stranger = await sessionCookie((await createUser()).id);
    expect((await raise(project.studioId, stranger, "5")).status).toBe(404);
    const [row] = await db().select().from(projects).where(eq(projects.id, project.id));
    expect(row.schemaVersion).toBe(4);
  });
});

describe("renaming and transferring the project", () => {
  const settingsOf = async (studioId: string, cookie: string) => {
    const res = await call(settingsLoader, makeRequest(`/sites/settings/${studioId}`, { cookie }), {
      studioId,
    });
    return ((await res.json()) as { settings: ProjectSettingsView }).settings;
  };
  const post = (studioId: string, cookie: string, form: Record<string, string>) =>
    call(settingsAction, makeRequest(`/sites/settings/${studioId}`, { cookie, form }), {
      studioId,
    });

  it("renames with the project-name rules and logs the old and new name", async () => {
    const project = await insertProject(owner.id, { name: "Old Bakery" });
    const res = await post(project.studioId, ownerCookie, {
      intent: "project-rename",
      name: "  New   Bakery ",
    });
    expect(await toastOf(res)).toMatchObject({ title: "Project renamed" });
    const [row] = await db().select().from(projects).where(eq(projects.id, project.id));
    expect(row.name).toBe("New Bakery");
    const [event] = await db().select().from(eventLogs).where(eq(eventLogs.projectId, project.id));
    expect(event).toMatchObject({
      type: "project.renamed",
      content: "Olga Owner renamed the project from Old Bakery to New Bakery",
    });
    const bad = await post(project.studioId, ownerCookie, {
      intent: "project-rename",
      name: "!!!",
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.name).toEqual(["Name must contain a letter or a digit"]);
  });

  it("refuses editors a rename, beside the form", async () => {
    const project = await insertProject(owner.id);
    const editor = await createUser();
    await addMember(project.id, editor, "editor");
    const cookie = await sessionCookie(editor.id);
    expect((await settingsOf(project.studioId, cookie)).canRename).toBe(false);
    const res = await post(project.studioId, cookie, {
      intent: "project-rename",
      name: "Mine now",
    });
    expect(res.status).toBe(403);
  });

  it("moves ownership to an accepted admin; the former owner stays as an admin", async () => {
    const project = await insertProject(owner.id);
    const admin = await createUser({ name: "Ada Heir" });
    const developer = await createUser();
    await addMember(project.id, admin, "admin");
    await addMember(project.id, developer, "developer");
    const view = await settingsOf(project.studioId, ownerCookie);
    expect(view.transferTo?.map((a) => a.userId)).toEqual([admin.id]);
    // A developer is no candidate, and the box must be ticked.
    expect(
      (
        await post(project.studioId, ownerCookie, {
          intent: "project-transfer",
          toUserId: developer.id,
          confirm: "on",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await post(project.studioId, ownerCookie, {
          intent: "project-transfer",
          toUserId: admin.id,
        })
      ).status,
    ).toBe(400);
    const res = await post(project.studioId, ownerCookie, {
      intent: "project-transfer",
      toUserId: admin.id,
      confirm: "on",
    });
    expect(await toastOf(res)).toMatchObject({ title: "Ownership transferred" });
    const [row] = await db().select().from(projects).where(eq(projects.id, project.id));
    expect(row.ownerId).toBe(admin.id);
    const rows = await db().select().from(members).where(eq(members.projectId, project.id));
    expect(rows.find((m) => m.userId === admin.id)).toBeUndefined();
    expect(rows.find((m) => m.userId === owner.id)).toMatchObject({
      role: "admin",
      status: "accepted",
    });
    // The former owner no longer may transfer; the new one sees the form.
    expect((await settingsOf(project.studioId, ownerCookie)).transferTo).toBeNull();
    expect((await settingsOf(project.studioId, await sessionCookie(admin.id))).transferTo).toEqual([
      expect.objectContaining({ userId: owner.id }),
    ]);
  });

  it("lets only the owner transfer, not admins or platform admins", async () => {
    const project = await insertProject(owner.id);
    const admin = await createUser();
    await addMember(project.id, admin, "admin");
    for (const cookie of [await sessionCookie(admin.id), paCookie]) {
      const res = await post(project.studioId, cookie, {
        intent: "project-transfer",
        toUserId: admin.id,
        confirm: "on",
      });
      expect(res.status).toBe(403);
    }
    const [row] = await db().select().from(projects).where(eq(projects.id, project.id));
    expect(row.ownerId).toBe(owner.id);
  });
});
