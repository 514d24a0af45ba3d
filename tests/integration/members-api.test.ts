import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localStudioInvites, members } from "~/db/schema";
import { loader as getProjectApi } from "~/routes/api.app.$id";
import { loader as membersApiGet } from "~/routes/api.app.members";
import { DUPLICATE_MEMBER_MESSAGE } from "~/services/members/members.schema";
import { acceptInvitation } from "~/services/members/invitation-answers.server";
import { inviteMember } from "~/services/members/member-invitations.server";
import {
  inviteMemberToStudio,
  MEMBER_STUDIO_INVITE_JOB,
} from "~/services/members/member-studio-job.server";
import { removeMember } from "~/services/members/members.server";
import { call, makeRequest } from "../helpers";
import {
  acceptedMember,
  actor,
  api,
  eventsOf,
  invite,
  keyOf,
  mailsTo,
  memberRow,
  ownedProject,
  withFailingInsert,
} from "./members-support";
import { provisionedProject } from "./studio-fixtures";

const seesProject = async (cookie: string, studioId: string) =>
  (await call(getProjectApi, makeRequest(`/api/app/${studioId}`, { cookie }), { id: studioId }))
    .status;

const accept = (cookie: string, studioId: string, key: string, email?: string) =>
  api("PATCH", cookie, {
    studioId,
    memberInvitationKey: key,
    action: "accept",
    ...(email ? { email } : {}),
  });

describe("POST /api/app/members: invite", () => {
  it("creates the invited member, logs the event and mails the invitation card's link", async () => {
    const owner = await actor({ name: "Olive Owner" });
    const project = await ownedProject(owner);
    const before = Date.now();
    const res = await invite(owner.cookie, project.studioId, "  New.Person@Example.com ", "admin");
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      ok: true,
      outcome: "sent",
      member: { email: "new.person@example.com", role: "admin", status: "invited" },
    });

    const row = await memberRow(project._id, "new.person@example.com");
    expect(row).toMatchObject({ status: "invited", role: "admin", invitedBy: owner.id });
    expect(row.userId).toBeNull();
    expect(row.invitationKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ttl = row.invitationExpiresAt!.getTime() - before;
    expect(ttl).toBeGreaterThan(7 * 86400_000 - 60_000);
    expect(ttl).toBeLessThan(7 * 86400_000 + 60_000);

    const [event] = await eventsOf(project._id);
    expect(event).toMatchObject({
      type: "members.invitation.sent",
      metadata: { role: "admin", email: "new.person@example.com" },
      actorId: owner.id,
    });
    expect(event.content).toContain("Olive Owner");

    const [mail] = await mailsTo("new.person@example.com");
    expect(mail.text).toContain(`http://localhost:3000/invitations/${row.invitationKey}`);
    // A new address proved nothing: the mail names no project (decision 028); the card does.
    expect(mail.subject).not.toContain(project.name);
  });

  it("defaults the role to editor and links an existing account", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const existing = await actor();
    expect((await invite(owner.cookie, project.studioId, existing.email)).status).toBe(201);
    expect(await memberRow(project._id, existing.email)).toMatchObject({
      role: "editor",
      userId: existing.id,
      status: "invited",
    });
    const [mail] = await mailsTo(existing.email);
    expect(mail.text).toContain("no new password is needed");
  });

  it("is allowed to the owner, member admins and platform admins, nobody else", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const admin = await acceptedMember(owner, project, "admin");
    const developer = await acceptedMember(owner, project, "developer");
    const editor = await acceptedMember(owner, project, "editor");
    const platformAdmin = await acceptedMember(
      owner,
      project,
      "editor",
      await actor({ email: "admin@example.com" }),
    );
    const invitedOnly = await actor();
    await invite(owner.cookie, project.studioId, invitedOnly.email);
    const outsider = await actor();

    const cases: [string, string | undefined, number][] = [
      ["admin", admin.cookie, 201],
      ["platformAdmin", platformAdmin.cookie, 201],
      ["developer", developer.cookie, 403],
      ["editor", editor.cookie, 403],
      ["invited", invitedOnly.cookie, 404],
      ["outsider", outsider.cookie, 404],
      ["anonymous", undefined, 401],
    ];
    for (const [who, cookie, status] of cases) {
      const email = `by-${who}@example.com`;
      const res = await api("POST", cookie, { studioId: project.studioId, email, role: "editor" });
      expect(res.status, who).toBe(status);
      expect(Boolean(await memberRow(project._id, email)), who).toBe(status === 201);
    }

    // A platform admin who is not on the project adds members too (support access, decision 011).
    const otherOwner = await actor();
    const other = await ownedProject(otherOwner);
    const res = await invite(platformAdmin.cookie, other.studioId, "helped@example.com");
    expect(res.status).toBe(201);
    expect(Boolean(await memberRow(other._id, "helped@example.com"))).toBe(true);
  });

  it("refuses an address that is already a member or the owner", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const member = await acceptedMember(owner, project);
    for (const email of [member.email, owner.email, owner.email.toUpperCase()]) {
      const res = await invite(owner.cookie, project.studioId, email);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: DUPLICATE_MEMBER_MESSAGE });
    }
    // The form's flavour refuses a still-invited address too (the API resends it).
    await invite(owner.cookie, project.studioId, "pending@example.com");
    await expect(
      inviteMember(
        owner.user,
        { studioId: project.studioId, email: "pending@example.com", role: "editor" },
        { onExisting: "reject" },
      ),
    ).rejects.toThrow(DUPLICATE_MEMBER_MESSAGE);
    expect(await mailsTo("pending@example.com")).toHaveLength(1);
  });

  it("resends to a still-invited address: a fresh key and expiry, a new mail, the old link dead", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email, "developer");
    const first = await memberRow(project._id, invitee.email);
    // Make the first expiry visibly older.
    await db()
      .update(members)
      .set({ invitationExpiresAt: sql`now() + interval '1 day'` })
      .where(eq(members.id, first.id));

    const res = await invite(owner.cookie, project.studioId, invitee.email, "editor");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: "resent", member: { role: "developer" } });
    const second = await memberRow(project._id, invitee.email);
    expect(second.id).toBe(first.id);
    expect(second.role).toBe("developer"); // a resend keeps the role
    expect(second.invitationKey).not.toBe(first.invitationKey);
    expect(second.invitationExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 6 * 86400_000);

    const mails = await mailsTo(invitee.email);
    expect(mails).toHaveLength(2);
    expect(mails[1].text).toContain(`/invitations/${second.invitationKey}`);
    const events = await eventsOf(project._id);
    expect(events.map((e) => e.type)).toEqual([
      "members.invitation.sent",
      "members.invitation.sent",
    ]);

    const old = await accept(invitee.cookie, project.studioId, first.invitationKey!);
    expect(old.status).toBe(404);
    const fresh = await accept(invitee.cookie, project.studioId, second.invitationKey!);
    expect(fresh.status).toBe(200);
  });

  it("resends an expired invitation, which can then be accepted", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);
    const row = await memberRow(project._id, invitee.email);
    await db()
      .update(members)
      .set({ invitationExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(members.id, row.id));

    const expired = await accept(invitee.cookie, project.studioId, row.invitationKey!);
    expect(expired.status).toBe(400);
    expect((await expired.json()).error).toMatch(/expired/);

    expect((await invite(owner.cookie, project.studioId, invitee.email)).status).toBe(200);
    const key = await keyOf(project._id, invitee.email);
    expect((await accept(invitee.cookie, project.studioId, key)).status).toBe(200);
  });
});

describe("PATCH /api/app/members {action: accept}", () => {
  it("lets only the invited e-mail's account accept, once, and opens the project to it", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor({ name: "Ivy Invitee" });
    const someoneElse = await actor();
    await invite(owner.cookie, project.studioId, invitee.email, "developer");
    const key = await keyOf(project._id, invitee.email);

    // Invited is not yet a member: the project stays hidden.
    expect(await seesProject(invitee.cookie, project.studioId)).toBe(404);

    const wrong = await accept(someoneElse.cookie, project.studioId, key);
    expect(wrong.status).toBe(403);
    const claimed = await accept(someoneElse.cookie, project.studioId, key, invitee.email);
    expect(claimed.status).toBe(403);
    const anonymous = await api("PATCH", undefined, {
      studioId: project.studioId,
      memberInvitationKey: key,
      action: "accept",
    });
    expect(anonymous.status).toBe(401);
    expect((await memberRow(project._id, invitee.email)).status).toBe("invited");

    // The key of another project does not accept this one.
    const otherProject = await ownedProject(owner);
    expect((await accept(invitee.cookie, otherProject.studioId, key)).status).toBe(404);

    const res = await accept(invitee.cookie, project.studioId, key, invitee.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      ok: true,
      studioId: project.studioId,
      projectName: project.name,
    });
    const row = await memberRow(project._id, invitee.email);
    expect(row).toMatchObject({
      status: "accepted",
      userId: invitee.id,
      invitationKey: null,
      role: "developer",
    });
    expect(row.acceptedAt).toBeInstanceOf(Date);
    expect(await seesProject(invitee.cookie, project.studioId)).toBe(200);

    // Once only.
    expect((await accept(invitee.cookie, project.studioId, key)).status).toBe(404);
    const events = await eventsOf(project._id, "members.invitation.accepted");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      metadata: { role: "developer", email: invitee.email },
      actorId: invitee.id,
    });
  });

  it("makes one membership of five concurrent accepts", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);
    const key = await keyOf(project._id, invitee.email);

    const results = await Promise.all(
      Array.from({ length: 5 }, () => accept(invitee.cookie, project.studioId, key)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404]);
    const rows = await db().select().from(members).where(eq(members.projectId, project._id));
    expect(rows.filter((r) => r.status === "accepted")).toHaveLength(1);
    expect(await eventsOf(project._id, "members.invitation.accepted")).toHaveLength(1);
  });

  it("enqueues the content studio invitation, which invites the member once", async () => {
    const owner = await actor();
    const project = await provisionedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email, "admin");
    const key = await keyOf(project._id, invitee.email);
    expect((await accept(invitee.cookie, project.studioId, key)).status).toBe(200);
    const { id: memberId } = await memberRow(project._id, invitee.email);

    const jobs = (await db().execute(
      sql`select data from pgboss.job where name = ${MEMBER_STUDIO_INVITE_JOB}`,
    )) as unknown as { rows: { data: { memberId: string } }[] };
    expect(jobs.rows.map((r) => r.data.memberId)).toContain(memberId);

    // What the job does (run here rather than by a worker).
    expect(await inviteMemberToStudio(memberId)).toBe("invited");
    expect(await inviteMemberToStudio(memberId)).toBe("skipped");
    const studioInvites = await db()
      .select()
      .from(localStudioInvites)
      .where(eq(localStudioInvites.studioId, project.studioSanityId));
    expect(studioInvites.find((i) => i.email === invitee.email)).toMatchObject({
      role: "administrator",
      sentCount: 1,
    });
  });
});

describe("PATCH /api/app/members {action: leave}", () => {
  it("lets a member leave (logged), which hides the project on the very next request", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const member = await acceptedMember(owner, project, "developer");
    const res = await api("PATCH", member.cookie, { studioId: project.studioId, action: "leave" });
    expect(res.status).toBe(200);
    expect(await memberRow(project._id, member.email)).toBeUndefined();
    expect(await seesProject(member.cookie, project.studioId)).toBe(404);
    const [event] = await eventsOf(project._id, "members.leaved");
    expect(event).toMatchObject({ metadata: { email: member.email, role: "developer" } });
    // Gone means gone: a second leave is a 404.
    const again = await api("PATCH", member.cookie, {
      studioId: project.studioId,
      action: "leave",
    });
    expect(again.status).toBe(404);
  });

  it("refuses the owner (403), and hides the project from the invited and outsiders (404)", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const res = await api("PATCH", owner.cookie, { studioId: project.studioId, action: "leave" });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/owner cannot leave/);
    const invited = await actor();
    await invite(owner.cookie, project.studioId, invited.email);
    for (const who of [invited, await actor()]) {
      const r = await api("PATCH", who.cookie, { studioId: project.studioId, action: "leave" });
      expect(r.status).toBe(404);
    }
    expect(await memberRow(project._id, invited.email)).toBeDefined();
    expect(await eventsOf(project._id, "members.leaved")).toHaveLength(0);
  });
});

describe("DELETE /api/app/members: revoke and remove", () => {
  it("revokes an invitation: the link stops working, logged as revoked", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);
    const row = await memberRow(project._id, invitee.email);
    const res = await api("DELETE", owner.cookie, {
      studioId: project.studioId,
      memberId: row.id,
      memberEmail: invitee.email,
      memberInvitationKey: row.invitationKey,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcome: "revoked", email: invitee.email });
    expect(await memberRow(project._id, invitee.email)).toBeUndefined();
    expect((await accept(invitee.cookie, project.studioId, row.invitationKey!)).status).toBe(404);
    expect(await eventsOf(project._id, "members.invitation.revoked")).toHaveLength(1);
  });

  it("removes an accepted member (by id or e-mail), effective on the very next request", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const admin = await acceptedMember(owner, project, "admin");
    const a = await acceptedMember(owner, project, "editor");
    const b = await acceptedMember(owner, project, "developer");
    expect(await seesProject(a.cookie, project.studioId)).toBe(200);

    const byId = await api("DELETE", owner.cookie, {
      studioId: project.studioId,
      memberId: a.memberId,
      memberEmail: a.email,
      memberInvitationKey: null,
    });
    expect(byId.status).toBe(200);
    expect(await byId.json()).toMatchObject({ outcome: "removed" });
    expect(await seesProject(a.cookie, project.studioId)).toBe(404);

    // A member admin may remove too, here by e-mail alone.
    const byEmail = await api("DELETE", admin.cookie, {
      studioId: project.studioId,
      memberEmail: b.email,
    });
    expect(byEmail.status).toBe(200);
    expect(await seesProject(b.cookie, project.studioId)).toBe(404);
    const events = await eventsOf(project._id, "members.removed");
    expect(events.map((e) => e.metadata.email)).toEqual([a.email, b.email]);
    expect(events.map((e) => e.actorId)).toEqual([owner.id, admin.id]);
  });

  it("never removes the owner, and refuses plain members, stale and cross-project requests", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const admin = await acceptedMember(owner, project, "admin");
    const editor = await acceptedMember(owner, project, "editor");
    const target = await acceptedMember(owner, project, "developer");

    for (const body of [{ memberId: owner.id }, { memberEmail: owner.email }]) {
      const res = await api("DELETE", admin.cookie, { studioId: project.studioId, ...body });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatch(/owner cannot be removed/);
    }
    const self = await api("DELETE", admin.cookie, {
      studioId: project.studioId,
      memberId: admin.memberId,
    });
    expect(self.status).toBe(403);
    expect(await memberRow(project._id, admin.email)).toMatchObject({ status: "accepted" });
    const plain = await api("DELETE", editor.cookie, {
      studioId: project.studioId,
      memberId: target.memberId,
    });
    expect(plain.status).toBe(403);
    const mismatch = await api("DELETE", owner.cookie, {
      studioId: project.studioId,
      memberId: target.memberId,
      memberEmail: editor.email,
    });
    expect(mismatch.status).toBe(409);

    // An invitation resent meanwhile: the old key in the request no longer names it.
    await invite(owner.cookie, project.studioId, "stale@example.com");
    const staleRow = await memberRow(project._id, "stale@example.com");
    await invite(owner.cookie, project.studioId, "stale@example.com");
    const stale = await api("DELETE", owner.cookie, {
      studioId: project.studioId,
      memberId: staleRow.id,
      memberInvitationKey: staleRow.invitationKey,
    });
    expect(stale.status).toBe(409);

    // Admin of project B sends project A's member id with B's studioId, and with A's.
    const ownerB = await actor();
    const projectB = await ownedProject(ownerB);
    const adminB = await acceptedMember(ownerB, projectB, "admin");
    const crossB = await api("DELETE", adminB.cookie, {
      studioId: projectB.studioId,
      memberId: target.memberId,
    });
    expect(crossB.status).toBe(404);
    const crossA = await api("DELETE", adminB.cookie, {
      studioId: project.studioId,
      memberId: target.memberId,
    });
    expect(crossA.status).toBe(404);

    expect(await memberRow(project._id, target.email)).toMatchObject({ status: "accepted" });
    expect(await memberRow(project._id, "stale@example.com")).toBeDefined();
    expect(await eventsOf(project._id, "members.removed")).toHaveLength(0);
    expect(await seesProject(owner.cookie, project.studioId)).toBe(200);
  });
});

describe("PATCH /api/app/members {action: role}", () => {
  it("changes a role (owner and admins), logged, and effective on the very next request", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const member = await acceptedMember(owner, project, "editor");
    const admin = await acceptedMember(owner, project, "admin");

    expect((await invite(member.cookie, project.studioId, "x1@example.com")).status).toBe(403);
    const promote = await api("PATCH", owner.cookie, {
      studioId: project.studioId,
      action: "role",
      memberId: member.memberId,
      role: "admin",
    });
    expect(promote.status).toBe(200);
    expect(await promote.json()).toMatchObject({ changed: true, role: "admin" });
    expect((await invite(member.cookie, project.studioId, "x2@example.com")).status).toBe(201);

    const demote = await api("PATCH", admin.cookie, {
      studioId: project.studioId,
      action: "role",
      memberId: member.memberId,
      role: "developer",
    });
    expect(demote.status).toBe(200);
    expect((await invite(member.cookie, project.studioId, "x3@example.com")).status).toBe(403);

    const events = await eventsOf(project._id, "members.role.changed");
    expect(events.map((e) => e.metadata)).toEqual([
      { role: "admin", email: member.email },
      { role: "developer", email: member.email },
    ]);

    // The same role again changes nothing and logs nothing.
    const same = await api("PATCH", owner.cookie, {
      studioId: project.studioId,
      action: "role",
      memberId: member.memberId,
      role: "developer",
    });
    expect(await same.json()).toMatchObject({ changed: false });
    expect(await eventsOf(project._id, "members.role.changed")).toHaveLength(2);
  });

  it("refuses plain members, the owner's role and unknown roles", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const editor = await acceptedMember(owner, project, "editor");
    const developer = await acceptedMember(owner, project, "developer");
    const body = (memberId: string, role = "admin") => ({
      studioId: project.studioId,
      action: "role",
      memberId,
      role,
    });
    expect((await api("PATCH", editor.cookie, body(developer.memberId))).status).toBe(403);
    expect((await api("PATCH", developer.cookie, body(developer.memberId))).status).toBe(403);
    expect((await api("PATCH", owner.cookie, body(owner.id, "editor"))).status).toBe(403);
    expect((await api("PATCH", owner.cookie, body(developer.memberId, "owner"))).status).toBe(400);
    expect((await memberRow(project._id, developer.email)).role).toBe("developer");
  });
});

describe("bad requests", () => {
  it("answers malformed, incomplete and oversized bodies and other methods with 4xx", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const studioId = project.studioId;
    const cases: [string, unknown, number][] = [
      ["POST", "{not json", 400],
      ["POST", {}, 400],
      ["POST", { studioId, email: "not-an-email" }, 400],
      ["POST", { studioId, email: "a@example.com", role: "owner" }, 400],
      ["POST", { studioId: "x".repeat(101), email: "a@example.com" }, 400],
      ["POST", [1, 2], 400],
      ["PATCH", { studioId, action: "promote" }, 400],
      ["PATCH", { studioId, action: "accept", memberInvitationKey: "short" }, 400],
      ["PATCH", { studioId, action: "role", memberId: "not-a-uuid", role: "admin" }, 400],
      ["DELETE", { studioId }, 400],
      ["DELETE", { studioId, memberId: 42 }, 400],
      ["POST", JSON.stringify({ studioId, email: `${"a".repeat(20_000)}@x.com` }), 413],
      ["PUT", { studioId }, 405],
    ];
    for (const [method, body, status] of cases) {
      const res = await api(method, owner.cookie, body);
      expect(res.status, `${method} ${JSON.stringify(body).slice(0, 80)}`).toBe(status);
      expect(await res.json()).toHaveProperty("error");
    }
    const missing = await api("POST", owner.cookie, { studioId });
    expect((await missing.json()).fieldErrors).toHaveProperty("email");
    const get = await call(
      membersApiGet,
      makeRequest("/api/app/members", { cookie: owner.cookie }),
    );
    expect(get.status).toBe(405);
    // Unknown project: 404, not 500.
    expect((await invite(owner.cookie, "no-such-project", "a@example.com")).status).toBe(404);
    expect(await db().select().from(members).where(eq(members.projectId, project._id))).toEqual([]);
  });
});

describe("events are written in the same transaction as the change", () => {
  it("a failure after the event leaves neither the change nor the event", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    // The invitation mail is queued after the event: when it fails, all of it rolls back.
    await withFailingInsert("outbox", `new."to" like 'txfail%'`, async () => {
      await expect(
        inviteMember(owner.user, {
          studioId: project.studioId,
          email: "txfail-mail@example.com",
          role: "editor",
        }),
      ).rejects.toThrow();
    });
    expect(await memberRow(project._id, "txfail-mail@example.com")).toBeUndefined();
    expect(await eventsOf(project._id)).toHaveLength(0);
  });

  it("a failing event leaves no change, for invite, accept and remove", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const failing = `new.metadata->>'email' like 'txfail%'`;

    await withFailingInsert("event_logs", failing, () =>
      expect(
        inviteMember(owner.user, {
          studioId: project.studioId,
          email: "txfail-1@example.com",
          role: "editor",
        }),
      ).rejects.toThrow(),
    );
    expect(await memberRow(project._id, "txfail-1@example.com")).toBeUndefined();
    expect(await mailsTo("txfail-1@example.com")).toHaveLength(0);

    const invitee = await actor({ email: "txfail-2@example.com" });
    await invite(owner.cookie, project.studioId, invitee.email);
    const key = await keyOf(project._id, invitee.email);
    await withFailingInsert("event_logs", failing, () =>
      expect(acceptInvitation(invitee.user, { memberInvitationKey: key })).rejects.toThrow(),
    );
    expect(await memberRow(project._id, invitee.email)).toMatchObject({
      status: "invited",
      invitationKey: key,
    });

    await withFailingInsert("event_logs", failing, () =>
      expect(
        removeMember(owner.user, { studioId: project.studioId, memberEmail: invitee.email }),
      ).rejects.toThrow(),
    );
    expect(await memberRow(project._id, invitee.email)).toBeDefined();
    // Only the one successful invite was logged.
    expect((await eventsOf(project._id)).map((e) => e.type)).toEqual(["members.invitation.sent"]);
  });
});
