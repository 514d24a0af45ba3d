/**
 * The members UI without JavaScript: the dashboard's loader (the table) and action (its forms,
 * posted as plain forms), and the invitation card's loader and action, including the sign-up
 * round trip of a person without an account.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { members, users } from "~/db/schema";
import {
  action as dashboardAction,
  loader as dashboardLoader,
} from "~/routes/_app._project.sites.$studioId/route";
import { action as cardAction, loader as cardLoader } from "~/routes/invitations.$invitationKey";
import { action as signupAction } from "~/routes/signup";
import { DUPLICATE_MEMBER_MESSAGE } from "~/services/members/members.schema";
import type { MembersView } from "~/services/members/members.server";
import { call, makeRequest, sessionCookie } from "../helpers";
import {
  acceptedMember,
  actor,
  eventsOf,
  invite,
  keyOf,
  mailsTo,
  memberRow,
  ownedProject,
} from "./members-support";
import { locationOf } from "../setup/matchers";

async function dashboard(cookie: string, studioId: string) {
  const res = await call(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie }), {
    studioId,
  });
  if (res.status !== 200) {
    return { status: res.status, members: null as unknown as MembersView, activity: null };
  }
  const body = await res.json();
  return {
    status: res.status,
    members: body.members as MembersView,
    activity: body.activity as { entries: { type: string; label: string }[]; total: number },
  };
}

function post(cookie: string | undefined, studioId: string, form: Record<string, string>) {
  return call(dashboardAction, makeRequest(`/sites/${studioId}`, { cookie, form }), { studioId });
}

const card = (key: string, cookie?: string) =>
  call(cardLoader, makeRequest(`/invitations/${key}`, { cookie }), { invitationKey: key });

const cardPost = (key: string, cookie: string | undefined, intent: string) =>
  call(cardAction, makeRequest(`/invitations/${key}`, { cookie, form: { intent } }), {
    invitationKey: key,
  });

describe("the Members table (dashboard loader)", () => {
  it("shows everyone with the spec's display fields to the owner, admins and platform admins", async () => {
    const owner = await actor({ name: "Olive Owner" });
    const project = await ownedProject(owner);
    const admin = await acceptedMember(owner, project, "admin");
    const platformAdmin = await acceptedMember(
      owner,
      project,
      "editor",
      await actor({ email: "admin@example.com" }),
    );
    await invite(owner.cookie, project.studioId, "guest@example.com", "developer");
    await db()
      .update(members)
      .set({ invitationExpiresAt: sql`now() - interval '1 day'` })
      .where(eq(members.invitedEmail, "guest@example.com"));

    for (const viewer of [owner, admin, platformAdmin]) {
      const { status, members: view } = await dashboard(viewer.cookie, project.studioId);
      expect(status).toBe(200);
      expect(view.canManage).toBe(true);
      expect(view.members.map((m) => [m.email, m.roleLabel, m.status])).toEqual([
        [owner.email, "Owner", "accepted"],
        [admin.email, "Admin", "accepted"],
        [platformAdmin.email, "Editor", "accepted"],
        ["guest@example.com", "Developer", "invited"],
      ]);
      const guest = view.members.find((m) => m.email === "guest@example.com")!;
      expect(guest).toMatchObject({ name: "Guest", expired: true, isOwner: false });
      expect(guest.memberInvitationKey).toBe(await keyOf(project._id, "guest@example.com"));
      expect(view.members[0]).toMatchObject({ name: "Olive Owner", isOwner: true });
      expect(view.members.filter((m) => m.isSelf).map((m) => m.email)).toEqual([viewer.email]);
      expect(view.takenEmails).toEqual(expect.arrayContaining([owner.email, "guest@example.com"]));
    }
    expect((await dashboard(owner.cookie, project.studioId)).members.canLeave).toBe(false);
  });

  it("shows a plain member only their own row, with Leave, and no keys", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const editor = await acceptedMember(owner, project, "editor");
    await acceptedMember(owner, project, "developer");
    await invite(owner.cookie, project.studioId, "someone@example.com");
    const { members: view } = await dashboard(editor.cookie, project.studioId);
    expect(view).toMatchObject({ canManage: false, canLeave: true, takenEmails: [] });
    expect(view.members).toHaveLength(1);
    expect(view.members[0]).toMatchObject({
      email: editor.email,
      isSelf: true,
      roleLabel: "Editor",
      memberInvitationKey: null,
    });
  });

  it("is not shown to the invited: the invitation card is (the project stays hidden until they accept)", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);
    const res = await call(
      dashboardLoader,
      makeRequest(`/sites/${project.studioId}`, { cookie: invitee.cookie }),
      { studioId: project.studioId },
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.members).toBeUndefined();
    expect(body.invitation).toMatchObject({ state: "valid", projectName: project.name });
  });
});

describe("the Members forms (dashboard action, no JavaScript)", () => {
  it("invites with the editor default and says so in a toast", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const res = await post(owner.cookie, project.studioId, {
      intent: "member-invite",
      email: "Form@Example.com",
      role: "",
      redirectTo: `/sites/${project.studioId}?page=2&confirm=leave`,
    });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect(`/sites/${project.studioId}?page=2`);
    await expect(res).toSendToast({
      type: "success",
      title: "Invitation sent to form@example.com!",
    });
    expect(await memberRow(project._id, "form@example.com")).toMatchObject({ role: "editor" });
    expect(await mailsTo("form@example.com")).toHaveLength(1);
  });

  it("re-renders the form with the duplicate message (and sends nothing) for a taken address", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    await invite(owner.cookie, project.studioId, "taken@example.com");
    for (const email of ["taken@example.com", owner.email]) {
      const res = await post(owner.cookie, project.studioId, {
        intent: "member-invite",
        email,
        role: "admin",
      });
      expect(res.status).toBe(409);
      const body = await res.json();
      expect(body.result.error.email).toEqual([DUPLICATE_MEMBER_MESSAGE]);
      expect(body.result.initialValue).toMatchObject({ email, role: "admin" });
    }
    expect(await mailsTo("taken@example.com")).toHaveLength(1);

    const invalid = await post(owner.cookie, project.studioId, {
      intent: "member-invite",
      email: "nope",
    });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).result.error.email).toBeDefined();
  });

  it("shows the spec's failure toast when the actor may not invite, 404 to outsiders", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const editor = await acceptedMember(owner, project, "editor");
    const res = await post(editor.cookie, project.studioId, {
      intent: "member-invite",
      email: "x@example.com",
    });
    expect(res.status).toBe(302);
    await expect(res).toSendToast({
      type: "error",
      title: "Ooops, something went wrong adding member!",
    });
    expect(await memberRow(project._id, "x@example.com")).toBeUndefined();

    const outsider = await actor();
    const hidden = await post(outsider.cookie, project.studioId, {
      intent: "member-invite",
      email: "x@example.com",
    });
    expect(hidden.status).toBe(404);
    const anonymous = await post(undefined, project.studioId, {
      intent: "member-invite",
      email: "x@example.com",
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous).toHaveRedirect(/^\/auth\/login\?redirectTo=/);
    const unknown = await post(owner.cookie, project.studioId, { intent: "explode" });
    expect(unknown.status).toBe(400);
  });

  it("resends, revokes, removes and changes roles with the spec's toasts", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const studioId = project.studioId;
    await invite(owner.cookie, studioId, "pending@example.com");
    const pending = await memberRow(project._id, "pending@example.com");

    const resent = await post(owner.cookie, studioId, {
      intent: "member-resend",
      memberId: pending.id,
    });
    await expect(resent).toSendToast({ type: "success", title: "Invitaton resent!" });
    const renewed = await memberRow(project._id, "pending@example.com");
    expect(renewed.invitationKey).not.toBe(pending.invitationKey);

    const member = await acceptedMember(owner, project, "editor");
    const role = await post(owner.cookie, studioId, {
      intent: "member-role",
      memberId: member.memberId,
      role: "developer",
    });
    await expect(role).toSendToast({ type: "success", title: "Role updated!" });
    expect((await memberRow(project._id, member.email)).role).toBe("developer");

    // The stale key of the first invitation: refused, nothing removed.
    const stale = await post(owner.cookie, studioId, {
      intent: "member-remove",
      memberId: pending.id,
      memberEmail: pending.invitedEmail,
      memberInvitationKey: pending.invitationKey!,
    });
    await expect(stale).toSendToast({
      type: "error",
      title: "Ooops, something went wrong removing invitation/member!",
    });
    const revoked = await post(owner.cookie, studioId, {
      intent: "member-remove",
      memberId: renewed.id,
      memberEmail: renewed.invitedEmail,
      memberInvitationKey: renewed.invitationKey!,
    });
    await expect(revoked).toSendToast({ type: "success", title: "Invitation revoked!" });
    const removed = await post(owner.cookie, studioId, {
      intent: "member-remove",
      memberId: member.memberId,
      memberEmail: member.email,
      memberInvitationKey: "",
    });
    await expect(removed).toSendToast({ type: "success", title: "Member removed!" });
    expect((await dashboard(member.cookie, studioId)).status).toBe(404);

    const ownerRemoval = await post(owner.cookie, studioId, {
      intent: "member-remove",
      memberId: owner.id,
    });
    await expect(ownerRemoval).toSendToast({
      type: "error",
      title: "Ooops, something went wrong removing invitation/member!",
      description: "The project owner cannot be removed",
    });
    const resendGone = await post(owner.cookie, studioId, {
      intent: "member-resend",
      memberId: renewed.id,
    });
    await expect(resendGone).toSendToast({
      type: "error",
      title: "Ooops, something went wrong resending invitation!",
    });

    expect((await eventsOf(project._id)).map((e) => e.type)).toEqual([
      "members.invitation.sent",
      "members.invitation.sent",
      "members.invitation.sent",
      "members.invitation.accepted",
      "members.role.changed",
      "members.invitation.revoked",
      "members.removed",
    ]);
    // The dashboard's Activity Log shows the latest three of them.
    const { activity } = await dashboard(owner.cookie, studioId);
    expect(activity!.entries.map((e) => e.label)).toEqual([
      "Member removed",
      "Invitation revoked",
      "Role changed",
    ]);
    expect(activity!.total).toBe(7);
  });

  it("lets a member leave (to / with the toast), never the owner", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const member = await acceptedMember(owner, project, "admin");
    const left = await post(member.cookie, project.studioId, { intent: "member-leave" });
    expect(left.status).toBe(302);
    expect(left).toHaveRedirect("/");
    await expect(left).toSendToast({
      type: "success",
      title: "You've left the project!",
    });
    expect((await dashboard(member.cookie, project.studioId)).status).toBe(404);

    const ownerLeaves = await post(owner.cookie, project.studioId, { intent: "member-leave" });
    await expect(ownerLeaves).toSendToast({
      type: "error",
      title: "Ooops, something went wrong leaving project!",
    });
    expect((await dashboard(owner.cookie, project.studioId)).status).toBe(200);
  });
});

describe("the invitation card /invitations/{invitationKey}", () => {
  it("signs up a person without an account, brings them back and accepts", async () => {
    const owner = await actor({ name: "Olive Owner" });
    const project = await ownedProject(owner);
    await invite(owner.cookie, project.studioId, "newbie@example.com", "developer");
    const key = await keyOf(project._id, "newbie@example.com");
    const [mail] = await mailsTo("newbie@example.com");
    expect(mail.text).toContain(`http://localhost:3000/invitations/${key}?proof=`);
    const proof = mail.text.match(/\?proof=([\w.-]+)/)![1];

    // Opened from the mail: the card remembers the address proof for the signup that follows.
    const anonymous = await call(cardLoader, makeRequest(`/invitations/${key}?proof=${proof}`), {
      invitationKey: key,
    });
    expect(anonymous.status).toBe(200);
    const proofCookie = anonymous.headers.get("Set-Cookie")!.split(";")[0];
    expect((await anonymous.json()).invitation).toMatchObject({
      state: "valid",
      projectName: project.name,
      roleLabel: "Developer",
      invitedEmail: "newbie@example.com",
      invitedBy: "Olive Owner",
      accountExists: false,
      viewer: "anonymous",
    });

    // Accept without a session: sign up first (the e-mail pre-filled), then back to the card.
    const toSignup = await cardPost(key, undefined, "accept");
    const location = locationOf(toSignup)!;
    expect(location).toBe(
      `/signup?email=newbie%40example.com&redirectTo=${encodeURIComponent(`/invitations/${key}`)}`,
    );
    const signedUp = await call(
      signupAction,
      makeRequest("/signup", {
        form: {
          name: "New Bie",
          email: "newbie@example.com",
          password: "correct horse battery",
          redirectTo: `/invitations/${key}`,
        },
        cookie: proofCookie,
      }),
    );
    // No confirmation mail: the invitation's link proved the address.
    expect(signedUp).toHaveRedirect(`/invitations/${key}`);
    const [account] = await db().select().from(users).where(eq(users.email, "newbie@example.com"));
    const cookie = await sessionCookie(account.id);
    expect((await (await card(key, cookie)).json()).invitation).toMatchObject({
      viewer: "invitee",
      accountExists: true,
    });

    const accepted = await cardPost(key, cookie, "accept");
    expect(accepted).toHaveRedirect(`/sites/${project.studioId}`);
    await expect(accepted).toSendToast({
      type: "success",
      title: "Yay, invitation accepted!",
    });
    expect((await dashboard(cookie, project.studioId)).status).toBe(200);
    // The key is spent: the card now says so (404 page, not an error).
    const spent = await card(key, cookie);
    expect(spent.status).toBe(404);
    expect((await spent.json()).invitation).toEqual({ state: "invalid" });
  });

  it("sends an existing account to log in (no new password needed)", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const existing = await actor();
    await invite(owner.cookie, project.studioId, existing.email);
    const key = await keyOf(project._id, existing.email);
    expect((await (await card(key)).json()).invitation).toMatchObject({
      accountExists: true,
      viewer: "anonymous",
    });
    const res = await cardPost(key, undefined, "accept");
    expect(res).toHaveRedirect(
      `/auth/login?redirectTo=${encodeURIComponent(`/invitations/${key}`)}`,
    );
  });

  it("refuses another account with the failure toast and leaves the invitation as it was", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    await invite(owner.cookie, project.studioId, "right@example.com");
    const key = await keyOf(project._id, "right@example.com");
    const other = await actor();
    expect((await (await card(key, other.cookie)).json()).invitation).toMatchObject({
      viewer: "other",
    });
    const res = await cardPost(key, other.cookie, "accept");
    expect(res).toHaveRedirect(`/invitations/${key}`);
    await expect(res).toSendToast({
      type: "error",
      title: "Ooops, something went wrong accepting invitation!",
    });
    expect((await memberRow(project._id, "right@example.com")).status).toBe("invited");
  });

  it("shows clear pages for expired, revoked, unknown and malformed keys", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    await invite(owner.cookie, project.studioId, "late@example.com");
    const key = await keyOf(project._id, "late@example.com");
    await db()
      .update(members)
      .set({ invitationExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(members.invitationKey, key));
    const expired = await card(key);
    expect(expired.status).toBe(410);
    expect((await expired.json()).invitation).toEqual({
      state: "expired",
      projectName: project.name,
      invitedEmail: "late@example.com",
    });
    const late = await actor({ email: "late2@example.com" });
    await invite(owner.cookie, project.studioId, late.email);
    const lateKey = await keyOf(project._id, late.email);
    await db()
      .update(members)
      .set({ invitationExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(members.invitationKey, lateKey));
    const acceptLate = await cardPost(lateKey, late.cookie, "accept");
    await expect(acceptLate).toSendToast({
      title: "Ooops, something went wrong accepting invitation!",
      description: expect.stringMatching(/expired/),
    });

    const unknown = "A".repeat(43);
    for (const bad of [unknown, "short", "../../etc/passwd", "x".repeat(5000)]) {
      const res = await card(bad);
      expect(res.status, bad.slice(0, 20)).toBe(404);
      expect((await res.json()).invitation).toEqual({ state: "invalid" });
    }
    const postUnknown = await cardPost(unknown, late.cookie, "accept");
    expect(postUnknown).toHaveRedirect(`/invitations/${unknown}`);
    const badIntent = await cardPost(unknown, late.cookie, "explode");
    await expect(badIntent).toSendToast({ type: "error" });
  });

  it("lets the invitee decline (Ignore), logged as declined", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);
    const key = await keyOf(project._id, invitee.email);
    const stranger = await actor();
    const refused = await cardPost(key, stranger.cookie, "decline");
    await expect(refused).toSendToast({ type: "error" });
    expect(await memberRow(project._id, invitee.email)).toBeDefined();

    const res = await cardPost(key, invitee.cookie, "decline");
    expect(res).toHaveRedirect("/");
    expect(await memberRow(project._id, invitee.email)).toBeUndefined();
    const [event] = await eventsOf(project._id, "members.invitation.declined");
    expect(event).toMatchObject({ metadata: { email: invitee.email }, actorId: invitee.id });
  });
});
