/**
 * The activity log: newest first, hidden types left
 * out, 3 by default and at most 1000, for the project's owner and members only, with labels.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadActivityLog } from "~/routes/_app._project.sites.$studioId/activity-log.server";
import { db } from "~/db/client.server";
import { eventLogs, members } from "~/db/schema";
import { loader as activityPage } from "~/routes/_app._project.sites.$studioId_.activity";
import type { User } from "~/services/accounts/accounts.server";
import { EVENT_TYPES, logEvent } from "~/services/activity/activity.server";
import {
  ACTIVITY_MAX_LIMIT,
  EVENT_LABELS,
  activityLimit,
  eventLabel,
  listActivity,
} from "~/services/activity/activity-log.server";
import { NotFoundError } from "~/services/core/errors";
import { createProject } from "~/services/projects/projects.server";
import { callProjectPage, createUser, makeRequest, sessionCookie } from "../helpers";

type TestUser = Awaited<ReturnType<typeof createUser>>;
const asUser = (row: TestUser): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  isAdmin: row.email === "admin@example.com",
});

let seq = 0;
async function project(owner: TestUser) {
  seq += 1;
  const { project } = await createProject(asUser(owner), {
    name: `Activity ${seq}`,
    idempotencyKey: `activity-${seq}-${Math.random()}`,
  });
  return project;
}

/** Events `minutesAgo` old, oldest last in the array given. */
async function seed(
  projectId: string,
  events: { type: string; minutesAgo: number; label?: string }[],
) {
  const now = Date.now();
  await db()
    .insert(eventLogs)
    .values(
      events.map((e, i) => ({
        projectId,
        type: e.type,
        content: `event ${i} (${e.type})`,
        label: e.label ?? null,
        metadata: { role: "editor", email: `person${i}@example.com` },
        timestamp: new Date(now - e.minutesAgo * 60_000),
      })),
    );
}

let owner: TestUser;
let editor: TestUser;
let invited: TestUser;
let outsider: TestUser;
let platformAdmin: TestUser;

beforeAll(async () => {
  [owner, editor, invited, outsider, platformAdmin] = await Promise.all([
    createUser({ name: "Olivia Owner" }),
    createUser({ name: "Eddie Editor" }),
    createUser({ name: "Ivy Invited" }),
    createUser({ name: "Oscar Outsider" }),
    createUser({ name: "Pat Platform", email: "admin@example.com" }),
  ]);
});

async function withMembers(projectId: string) {
  await db()
    .insert(members)
    .values([
      { projectId, userId: editor.id, invitedEmail: editor.email, status: "accepted" },
      { projectId, userId: invited.id, invitedEmail: invited.email, status: "invited" },
    ]);
}

describe("listActivity", () => {
  it("lists newest first, leaves hidden types out, 3 by default", async () => {
    const p = await project(owner); // createProject records sites.create (hidden)
    await seed(p._id, [
      { type: "members.invitation.sent", minutesAgo: 50 },
      { type: "members.invitation.accepted", minutesAgo: 10 },
      { type: "sites.create", minutesAgo: 1 },
      { type: "members.leaved", minutesAgo: 5 },
      { type: "gpt.enabled", minutesAgo: 30 },
    ]);
    const { entries, total } = await listActivity(asUser(owner), p.studioId);
    expect(entries.map((e) => e.type)).toEqual([
      "members.leaved",
      "members.invitation.accepted",
      "gpt.enabled",
    ]);
    // Four visible events: the two sites.create rows (seeded and real) are not counted.
    expect(total).toBe(4);
    const times = entries.map((e) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const all = await listActivity(asUser(owner), p._id, { limit: 10 });
    expect(all.entries.map((e) => e.type)).not.toContain("sites.create");
    expect(all.entries).toHaveLength(4);
  });

  it("returns each entry with the spec's fields and a readable label", async () => {
    const p = await project(owner);
    await db().transaction(async (tx) => {
      await logEvent(tx, {
        projectId: p._id,
        type: "members.invitation.sent",
        content: "Olivia Owner invited new@example.com as Developer",
        metadata: { role: "developer", email: "new@example.com" },
        actorId: owner.id,
      });
    });
    const [entry] = (await listActivity(asUser(owner), p.studioId)).entries;
    expect(entry).toEqual({
      _key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: "members.invitation.sent",
      content: "Olivia Owner invited new@example.com as Developer",
      metadata: { role: "developer", email: "new@example.com" },
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      label: "Invitation sent",
    });
  });

  it("labels every type; a stored label wins; unknown types read as words", async () => {
    for (const type of EVENT_TYPES) expect(EVENT_LABELS[type], type).toMatch(/^[A-Z]/);
    expect(eventLabel("members.leaved")).toBe("Member left");
    expect(eventLabel("visualTests.enabled")).toBe("Visual tests enabled");
    expect(eventLabel("members.invitation.revoked")).toBe("Invitation revoked");
    expect(eventLabel("domains.custom.set")).toBe("Domains custom set");
    expect(eventLabel("endToEndTests.disabled")).toBe("End to end tests disabled");

    const p = await project(owner);
    await seed(p._id, [
      { type: "members.invitation.sent", minutesAgo: 3, label: "Invitation resent" },
      { type: "visualTests.disabled", minutesAgo: 2 },
      { type: "domains.custom.set", minutesAgo: 1 },
    ]);
    const { entries } = await listActivity(asUser(owner), p.studioId);
    expect(entries.map((e) => e.label)).toEqual([
      "Domains custom set",
      "Visual tests disabled",
      "Invitation resent",
    ]);
  });

  it("keeps the limit between 1 and 1000", async () => {
    expect(activityLimit(undefined)).toBe(3);
    expect(activityLimit(Number.NaN)).toBe(3);
    expect(activityLimit(0)).toBe(1);
    expect(activityLimit(-4)).toBe(1);
    expect(activityLimit(2.7)).toBe(2);
    expect(activityLimit(5000)).toBe(1000);

    const p = await project(owner);
    await seed(
      p._id,
      Array.from({ length: 1005 }, (_, i) => ({ type: "members.invitation.sent", minutesAgo: i })),
    );
    const user = asUser(owner);
    expect((await listActivity(user, p.studioId)).entries).toHaveLength(3);
    const most = await listActivity(user, p.studioId, { limit: ACTIVITY_MAX_LIMIT });
    expect(most.entries).toHaveLength(1000);
    expect(most.total).toBe(1005);
    expect(most.entries[0].content).toBe("event 0 (members.invitation.sent)");
    expect(most.entries[999].content).toBe("event 999 (members.invitation.sent)");
    expect((await listActivity(user, p.studioId, { limit: 100_000 })).entries).toHaveLength(1000);
  });

  it("is for the owner, accepted members and platform admins (whose look is logged)", async () => {
    const p = await project(owner);
    await withMembers(p._id);
    await seed(p._id, [{ type: "members.invitation.sent", minutesAgo: 1 }]);
    expect((await listActivity(asUser(owner), p.studioId)).total).toBe(1);
    expect((await listActivity(asUser(editor), p.studioId)).total).toBe(1);
    // Support access: the platform admin's view is written before the log is read.
    const support = await listActivity(asUser(platformAdmin), p.studioId);
    expect(support.total).toBe(2);
    expect(support.entries[0]).toMatchObject({
      type: "support.viewed",
      label: "Support access",
      content: `Support access by ${platformAdmin.name}: viewed the project`,
    });
    expect((await listActivity(asUser(owner), p.studioId)).total).toBe(2);
    for (const who of [invited, outsider]) {
      await expect(listActivity(asUser(who), p.studioId), who.name).rejects.toThrow(NotFoundError);
    }
    await expect(listActivity(null, p.studioId)).rejects.toThrow(NotFoundError);
    await expect(listActivity(asUser(owner), "no-such-project")).rejects.toThrow(NotFoundError);
  });

  it("stops at once for a member who was removed", async () => {
    const p = await project(owner);
    await withMembers(p._id);
    expect((await listActivity(asUser(editor), p.studioId)).total).toBe(0);
    await db().delete(members).where(eqMember(p._id, editor.id));
    await expect(listActivity(asUser(editor), p.studioId)).rejects.toThrow(NotFoundError);
  });
});

const eqMember = (projectId: string, userId: string) =>
  and(eq(members.projectId, projectId), eq(members.userId, userId));

describe("loaders", () => {
  it("loadActivityLog: 3 latest, or up to 1000 with ?log=all", async () => {
    const p = await project(owner);
    await seed(
      p._id,
      Array.from({ length: 12 }, (_, i) => ({ type: "gpt.disabled", minutesAgo: i })),
    );
    const user = asUser(owner);
    const collapsed = await loadActivityLog(
      user,
      p.studioId,
      new URL(`http://x/sites/${p.studioId}`),
    );
    expect(collapsed).toMatchObject({ total: 12, expanded: false, studioId: p.studioId });
    expect(collapsed.entries).toHaveLength(3);
    const expanded = await loadActivityLog(
      user,
      p.studioId,
      new URL(`http://x/sites/${p.studioId}?log=all`),
    );
    expect(expanded).toMatchObject({ total: 12, expanded: true });
    expect(expanded.entries).toHaveLength(12);
  });

  it("/sites/{studioId}/activity: the whole log for members, 404 for others", async () => {
    const p = await project(owner);
    await withMembers(p._id);
    await seed(
      p._id,
      Array.from({ length: 7 }, (_, i) => ({ type: "members.invitation.sent", minutesAgo: i })),
    );
    const get = async (who: TestUser) =>
      callProjectPage(
        activityPage,
        makeRequest(`/sites/${p.studioId}/activity`, { cookie: await sessionCookie(who.id) }),
        { studioId: p.studioId },
      );
    const res = await get(editor);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      entries: unknown[];
      total: number;
      project: { name: string };
    };
    expect(body.entries).toHaveLength(7);
    expect(body.total).toBe(7);
    expect(body.project.name).toBe(p.name);
    expect((await get(invited)).status).toBe(404);
    expect((await get(outsider)).status).toBe(404);
  });
});
