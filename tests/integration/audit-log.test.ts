/**
 * An audit that survives, and support's limits (docs/decisions/026-audit-log.md,
 * 011, 019): support access and project deletions land in the append-only audit_log, which
 * keeps them after the project is gone; a platform admin's deletion mails the owner and the
 * project's admins, and the owner finds it in User Settings; support cannot make itself (or
 * another platform admin) a member; its studio invitation resends are changes; studio roles
 * come from accepted members only.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, eventLogs, members, outbox, users } from "~/db/schema";
import {
  action as dashboardAction,
  loader as dashboardLoader,
} from "~/routes/_app._project.sites.$studioId/route";
import { action as settingsAction } from "~/routes/_app._project.sites.settings.$studioId";
import { loader as userSettingsLoader } from "~/routes/_app.sites.user-settings";
import { action as membersApi } from "~/routes/api.app.members";
import { action as studioInviteApi } from "~/routes/api.app.project-invite";
import type { SupportHistoryEntry } from "~/services/activity/audit-log.server";
import { SUPPORT_INVITES_STAFF_MESSAGE } from "~/services/members/member-invitations.server";
import { resetEnv } from "~/utils/env.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { addMember, provisionedProject } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
type Person = TestUser & { cookie: string };

const SECOND_ADMIN = "second-admin@example.com";
const previousAdmins = process.env.PLATFORM_ADMIN_EMAILS;

async function person(name: string, email?: string): Promise<Person> {
  const [existing] = email ? await db().select().from(users).where(eq(users.email, email)) : [];
  const user = existing ? { ...existing, password: "" } : await createUser({ name, email });
  return { ...user, cookie: await sessionCookie(user.id) };
}

let support: Person;
beforeAll(async () => {
  // A second platform admin address, besides the test database's own (tests/setup/worker-db.ts).
  process.env.PLATFORM_ADMIN_EMAILS = `admin@example.com,${SECOND_ADMIN}`;
  resetEnv();
  support = await person("Sam Support", "admin@example.com");
});
afterAll(() => {
  process.env.PLATFORM_ADMIN_EMAILS = previousAdmins;
  resetEnv();
});

const auditRows = (projectId: string) =>
  db().select().from(auditLog).where(eq(auditLog.projectId, projectId)).orderBy(auditLog.createdAt);

const supportEvents = (projectId: string) =>
  db()
    .select({ type: eventLogs.type, content: eventLogs.content })
    .from(eventLogs)
    .where(and(eq(eventLogs.projectId, projectId), sql`${eventLogs.type} like 'support.%'`));

const mailsTo = (email: string) => db().select().from(outbox).where(eq(outbox.to, email));

const openDashboard = (studioId: string, cookie: string) =>
  call(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie }), { studioId });

const deleteProject = (studioId: string, cookie: string, confirmName: string) =>
  call(
    settingsAction,
    makeRequest(`/sites/settings/${studioId}`, {
      cookie,
      form: { intent: "project-delete", confirmName },
    }),
    { studioId },
  );

async function supportHistory(who: Person) {
  const res = await call(
    userSettingsLoader,
    makeRequest("/sites/user-settings", { cookie: who.cookie }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { supportHistory: SupportHistoryEntry[] }).supportHistory;
}

describe("the audit log", () => {
  it("gets a row with each support access the Activity Log records (views once an hour)", async () => {
    const owner = await person("Cora Customer");
    const project = await insertProject(owner.id, { name: "Audited shop" });
    for (let i = 0; i < 3; i += 1) {
      expect((await openDashboard(project.studioId, support.cookie)).status).toBe(200);
    }
    expect(await auditRows(project.id)).toEqual([
      expect.objectContaining({
        action: "support.viewed",
        actorId: support.id,
        actorEmail: "admin@example.com",
        projectName: "Audited shop",
        projectOwnerId: owner.id,
        details: expect.objectContaining({ what: "viewed the project" }),
      }),
    ]);
    // The owner's own views are not support access.
    await openDashboard(project.studioId, owner.cookie);
    expect(await auditRows(project.id)).toHaveLength(1);
  });

  it("refuses UPDATE and DELETE of its rows (append-only)", async () => {
    const owner = await person("Ada Append");
    const project = await insertProject(owner.id);
    await openDashboard(project.studioId, support.cookie);
    const [row] = await auditRows(project.id);
    await expect(
      db().update(auditLog).set({ actorEmail: "x@example.com" }).where(eq(auditLog.id, row.id)),
    ).rejects.toThrow();
    await expect(db().delete(auditLog).where(eq(auditLog.id, row.id))).rejects.toThrow();
    expect(await auditRows(project.id)).toHaveLength(1);
  });

  it("refuses TRUNCATE, which empties a table without touching a row (migration 0023)", async () => {
    const owner = await person("Tess Truncate");
    const project = await insertProject(owner.id);
    await openDashboard(project.studioId, support.cookie);
    // drizzle wraps the database's error; its cause is PostgreSQL's own message.
    const refusal = (statement: ReturnType<typeof sql>) =>
      db()
        .execute(statement)
        .then(
          () => "done",
          (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
        );
    expect(await refusal(sql`truncate audit_log`)).toBe(
      "audit_log is append-only: TRUNCATE refused",
    );
    expect(await refusal(sql`truncate audit_log cascade`)).toMatch(/append-only/);
    expect(await auditRows(project.id)).toHaveLength(1);
  });
});

describe("a platform admin deleting a customer's project", () => {
  it("leaves the audit rows, mails the owner and admins, and the owner sees it in User Settings", async () => {
    const owner = await person("Olga Owner");
    const projectAdmin = await person("Ann Admin");
    const editor = await person("Ed Editor");
    const name = `Closed by support ${Date.now()}`;
    const project = await insertProject(owner.id, { name });
    await addMember(project.id, projectAdmin, "admin");
    await addMember(project.id, editor, "editor");
    expect(await supportHistory(owner)).toEqual([]);

    expect((await openDashboard(project.studioId, support.cookie)).status).toBe(200);
    const res = await deleteProject(project.studioId, support.cookie, name);
    expect(res.status).toBe(302);

    // The Activity Log went with the project; the audit log did not.
    expect(await supportEvents(project.id)).toEqual([]);
    const rows = await auditRows(project.id);
    expect(rows.map((r) => r.action)).toEqual(["support.viewed", "project.deleted"]);
    expect(rows[1]).toMatchObject({
      actorId: support.id,
      actorEmail: "admin@example.com",
      projectName: name,
      projectOwnerId: owner.id,
      details: expect.objectContaining({
        byPlatformAdmin: true,
        mailedTo: [owner.email, projectAdmin.email].sort(),
      }),
    });

    // Mailed through the outbox: the owner and the admin, not the editor or support itself.
    for (const to of [owner.email, projectAdmin.email]) {
      const mails = await mailsTo(to);
      expect(mails).toEqual([
        expect.objectContaining({ subject: `Your project ${name} was deleted` }),
      ]);
      expect(mails[0].text).toContain("admin@example.com");
    }
    expect(await mailsTo(editor.email)).toEqual([]);
    expect(
      await mailsTo("admin@example.com").then((m) => m.filter((x) => x.subject.includes(name))),
    ).toEqual([]);

    // The owner's account lists what support did, newest first.
    const history = await supportHistory(owner);
    expect(history.map((h) => [h.projectName, h.what, h.actorEmail])).toEqual([
      [name, "Deleted the project", "admin@example.com"],
      [name, "Viewed the project", "admin@example.com"],
    ]);
    // Nobody else's.
    expect(await supportHistory(projectAdmin)).toEqual([]);
  });

  it("an owner deleting their own project is audited too, and mails nobody", async () => {
    const owner = await person("Dora Deleter");
    const projectAdmin = await person("Abe Admin");
    const name = `Own deletion ${Date.now()}`;
    const project = await insertProject(owner.id, { name });
    await addMember(project.id, projectAdmin, "admin");
    expect((await deleteProject(project.studioId, owner.cookie, name)).status).toBe(302);
    expect(await auditRows(project.id)).toEqual([
      expect.objectContaining({
        action: "project.deleted",
        actorId: owner.id,
        details: expect.objectContaining({ byPlatformAdmin: false, mailedTo: [] }),
      }),
    ]);
    expect(await mailsTo(owner.email)).toEqual([]);
    expect(await mailsTo(projectAdmin.email)).toEqual([]);
    // Not a support entry: User Settings stays empty.
    expect(await supportHistory(owner)).toEqual([]);
  });
});

describe("support's limits on members", () => {
  const invite = (cookie: string, studioId: string, email: string) =>
    call(
      dashboardAction,
      makeRequest(`/sites/${studioId}`, {
        cookie,
        form: { intent: "member-invite", email, role: "admin" },
      }),
      { studioId },
    );

  it("may not invite its own or another platform admin's address (a field error; nothing written)", async () => {
    const owner = await person("Cleo Customer");
    const project = await insertProject(owner.id);
    for (const email of ["Admin@Example.com", SECOND_ADMIN]) {
      const res = await invite(support.cookie, project.studioId, email);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { result: { error: Record<string, string[]> } };
      expect(body.result.error.email).toEqual([SUPPORT_INVITES_STAFF_MESSAGE]);
    }
    const api = await call(
      membersApi,
      makeRequest("/api/app/members", {
        cookie: support.cookie,
        json: { studioId: project.studioId, email: "admin@example.com", role: "editor" },
      }),
    );
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({
      fieldErrors: { email: [SUPPORT_INVITES_STAFF_MESSAGE] },
    });
    expect(await db().select().from(members).where(eq(members.projectId, project.id))).toEqual([]);
    expect((await supportEvents(project.id)).filter((e) => e.type === "support.changed")).toEqual(
      [],
    );

    // Anyone else's address is fine for support; the owner may invite a platform admin.
    expect((await invite(support.cookie, project.studioId, "helper@example.com")).status).toBe(302);
    expect((await invite(owner.cookie, project.studioId, SECOND_ADMIN)).status).toBe(302);
  });

  it("a studio invitation resent by support is logged as a change; invited members get no studio role", async () => {
    const owner = await createUser({ name: "Stu Studio" });
    const project = await provisionedProject(owner);
    const member = await createUser();
    await addMember(project._id, member, "editor");
    const invitee = await createUser();
    await addMember(project._id, invitee, "admin", "invited");
    const resend = (cookie: string, email: string) =>
      call(
        studioInviteApi,
        makeRequest("/api/app/project-invite", {
          cookie,
          json: { projectId: project.studioId, email },
        }),
      );

    expect((await resend(support.cookie, member.email)).status).toBe(200);
    expect((await supportEvents(project._id)).filter((e) => e.type === "support.changed")).toEqual([
      {
        type: "support.changed",
        content: `Support access by Sam Support: resent the studio invitation of ${member.email}`,
      },
    ]);
    expect(await auditRows(project._id)).toContainEqual(
      expect.objectContaining({
        action: "support.changed",
        details: expect.objectContaining({
          what: `resent the studio invitation of ${member.email}`,
        }),
      }),
    );

    // An invitation not accepted yet is no role in the studio, for support and owner alike.
    for (const cookie of [support.cookie, await sessionCookie(owner.id)]) {
      const res = await resend(cookie, invitee.email);
      expect(res.status).toBe(400);
    }
  });
});
