/**
 * Invitations inside the product, without JavaScript: /sites lists the
 * signed-in user's pending invitations with Accept and Decline (plain form posts to its action),
 * and a project's dashboard shows its invitation card to the invitee instead of 404.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { members } from "~/db/schema";
import {
  action as dashboardAction,
  loader as dashboardLoader,
} from "~/routes/_app._project.sites.$studioId/route";
import { action as sitesAction, loader as sitesLoader } from "~/routes/_app.sites._index";
import type { PendingInvitation } from "~/services/members/invitation-answers.server";
import { call, callProjectPage, makeRequest } from "../helpers";
import {
  acceptedMember,
  actor,
  eventsOf,
  invite,
  memberRow,
  ownedProject,
  type Actor,
} from "./members-support";
import { toastOf } from "../setup/matchers";

async function sites(who: Actor) {
  const res = await call(sitesLoader, makeRequest("/sites", { cookie: who.cookie }));
  expect(res.status).toBe(200);
  const body = await res.json();
  return body.invitations as PendingInvitation[];
}

const sitesPost = (who: Actor | undefined, form: Record<string, string>) =>
  call(sitesAction, makeRequest("/sites?index", { cookie: who?.cookie, form }));

const dashboard = (who: Actor, studioId: string) =>
  callProjectPage(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie: who.cookie }), {
    studioId,
  });

const dashboardPost = (who: Actor | undefined, studioId: string, intent: string) =>
  call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, { cookie: who?.cookie, form: { intent } }),
    {
      studioId,
    },
  );

describe("/sites: the pending invitations above the projects", () => {
  it("lists an invitation to the invitee, matched by account and by e-mail, and to nobody else", async () => {
    const owner = await actor({ name: "Olive Owner" });
    const first = await ownedProject(owner);
    const second = await ownedProject(owner);
    // Has an account when invited: the row names the account.
    const existing = await actor();
    await invite(owner.cookie, first.studioId, existing.email, "developer");
    expect((await memberRow(first._id, existing.email)).userId).toBe(existing.id);
    // Invited before the account existed: the row has only the e-mail.
    await invite(owner.cookie, second.studioId, "later@example.com", "admin");
    const later = await actor({ email: "later@example.com" });
    await db()
      .update(members)
      .set({ userId: null })
      .where(eq(members.invitedEmail, "later@example.com"));

    expect(await sites(existing)).toEqual([
      {
        studioId: first.studioId,
        projectName: first.name,
        role: "developer",
        roleLabel: "Developer",
        invitedBy: "Olive Owner",
        expiresAt: expect.any(String),
      },
    ]);
    // By account alone: the address on the row is not the account's.
    await db()
      .update(members)
      .set({ invitedEmail: "old-address@example.com" })
      .where(eq(members.userId, existing.id));
    expect((await sites(existing)).map((i) => i.studioId)).toEqual([first.studioId]);

    expect(await sites(later)).toEqual([
      expect.objectContaining({
        studioId: second.studioId,
        projectName: second.name,
        roleLabel: "Admin",
        invitedBy: "Olive Owner",
      }),
    ]);
    // Not to the owner, another user, or a member who already accepted.
    const stranger = await actor();
    const member = await acceptedMember(owner, first, "editor");
    for (const who of [owner, stranger, member]) expect(await sites(who)).toEqual([]);
  });

  it("leaves out expired invitations (the section is then empty)", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);
    expect(await sites(invitee)).toHaveLength(1);
    await db()
      .update(members)
      .set({ invitationExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(members.invitedEmail, invitee.email));
    expect(await sites(invitee)).toEqual([]);
  });

  it("accepts (to the dashboard, with the spec's toast) and the project becomes the user's", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor({ name: "Ivy Invitee" });
    await invite(owner.cookie, project.studioId, invitee.email, "developer");

    const res = await sitesPost(invitee, {
      intent: "invitation-accept",
      studioId: project.studioId,
    });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect(`/sites/${project.studioId}`);
    await expect(res).toSendToast({
      type: "success",
      title: "Yay, invitation accepted!",
    });
    expect(await memberRow(project._id, invitee.email)).toMatchObject({
      status: "accepted",
      userId: invitee.id,
      role: "developer",
      invitationKey: null,
    });
    expect(await sites(invitee)).toEqual([]);
    const page = await dashboard(invitee, project.studioId);
    expect(page.status).toBe(200);
    expect((await page.json()).project).toMatchObject({ studioId: project.studioId });
    const [event] = await eventsOf(project._id, "members.invitation.accepted");
    expect(event).toMatchObject({ actorId: invitee.id, metadata: { email: invitee.email } });

    // A second Accept finds nothing to accept: the failure toast, back to /sites.
    const again = await sitesPost(invitee, {
      intent: "invitation-accept",
      studioId: project.studioId,
    });
    expect(again).toHaveRedirect("/sites");
    await expect(again).toSendToast({
      type: "error",
      title: "Ooops, something went wrong accepting invitation!",
    });
  });

  it("declines (back to /sites, logged) and the invitation is gone", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);

    const res = await sitesPost(invitee, {
      intent: "invitation-decline",
      studioId: project.studioId,
    });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/sites");
    await expect(res).toSendToast({
      type: "info",
      title: "Invitation declined",
      description: `You declined the invitation to ${project.name}.`,
    });
    expect(await memberRow(project._id, invitee.email)).toBeUndefined();
    expect(await sites(invitee)).toEqual([]);
    expect((await dashboard(invitee, project.studioId)).status).toBe(404);
    const [event] = await eventsOf(project._id, "members.invitation.declined");
    expect(event).toMatchObject({ actorId: invitee.id, metadata: { email: invitee.email } });
  });

  it("refuses everyone else with the failure toast and changes nothing", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);
    const member = await acceptedMember(owner, project, "admin");
    const stranger = await actor();

    for (const who of [stranger, member, owner]) {
      for (const intent of ["invitation-accept", "invitation-decline"]) {
        const res = await sitesPost(who, { intent, studioId: project.studioId });
        expect(res).toHaveRedirect("/sites");
        await expect(res).toSendToast({
          type: "error",
          title: "Ooops, something went wrong accepting invitation!",
        });
      }
    }
    // A project that does not exist reads exactly like one the user is not invited to.
    const unknown = await sitesPost(stranger, {
      intent: "invitation-accept",
      studioId: "no-such-studio",
    });
    const hidden = await sitesPost(stranger, {
      intent: "invitation-accept",
      studioId: project.studioId,
    });
    await expect(unknown).toSendToast({
      description: (await toastOf(hidden))!.description,
    });
    const empty = await sitesPost(invitee, { intent: "invitation-accept", studioId: "" });
    await expect(empty).toSendToast({ type: "error" });
    expect(await memberRow(project._id, invitee.email)).toMatchObject({ status: "invited" });
    expect((await memberRow(project._id, member.email)).status).toBe("accepted");

    // An expired invitation cannot be accepted: the reason in the toast.
    await db()
      .update(members)
      .set({ invitationExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(members.invitedEmail, invitee.email));
    const late = await sitesPost(invitee, {
      intent: "invitation-accept",
      studioId: project.studioId,
    });
    await expect(late).toSendToast({ description: expect.stringMatching(/expired/) });
    expect(await memberRow(project._id, invitee.email)).toMatchObject({ status: "invited" });

    // Without a session: to login.
    const anonymous = await sitesPost(undefined, {
      intent: "invitation-accept",
      studioId: project.studioId,
    });
    expect(anonymous).toHaveRedirect(/^\/auth\/login\?redirectTo=/);
  });
});

describe("the dashboard of a project the user is invited to", () => {
  it("shows the invitation card instead of 404, and nothing else of the project", async () => {
    const owner = await actor({ name: "Olive Owner" });
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email, "admin");

    const res = await dashboard(invitee, project.studioId);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["invitation", "viewer"]);
    expect(body.invitation).toEqual({
      state: "valid",
      studioId: project.studioId,
      projectName: project.name,
      role: "admin",
      roleLabel: "Admin",
      invitedEmail: invitee.email,
      invitedBy: "Olive Owner",
      expiresAt: expect.any(String),
      accountExists: true,
      viewer: "invitee",
    });
    // The key stays in the mail.
    expect(JSON.stringify(body)).not.toContain(
      (await memberRow(project._id, invitee.email)).invitationKey,
    );

    // Expired: the card says so (still not the project).
    await db()
      .update(members)
      .set({ invitationExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(members.invitedEmail, invitee.email));
    expect((await (await dashboard(invitee, project.studioId)).json()).invitation).toEqual({
      state: "expired",
      projectName: project.name,
      invitedEmail: invitee.email,
    });
  });

  it("is still a 404 for someone with no invitation, or an unknown project", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    await invite(owner.cookie, project.studioId, "someone-else@example.com");
    const stranger = await actor();
    expect((await dashboard(stranger, project.studioId)).status).toBe(404);
    expect((await dashboard(stranger, "no-such-studio")).status).toBe(404);
    for (const intent of ["invitation-accept", "invitation-decline"]) {
      expect((await dashboardPost(stranger, project.studioId, intent)).status).toBe(404);
    }
    expect((await memberRow(project._id, "someone-else@example.com")).status).toBe("invited");
  });

  it("accepts from the card and lands on the dashboard", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    // Invited by e-mail before the account existed.
    await invite(owner.cookie, project.studioId, "card-invitee@example.com", "editor");
    const late = await actor({ email: "card-invitee@example.com" });

    const res = await dashboardPost(late, project.studioId, "invitation-accept");
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect(`/sites/${project.studioId}`);
    await expect(res).toSendToast({
      type: "success",
      title: "Yay, invitation accepted!",
    });
    expect(await memberRow(project._id, late.email)).toMatchObject({
      status: "accepted",
      userId: late.id,
    });
    const page = await dashboard(late, project.studioId);
    expect(page.status).toBe(200);
    const body = await page.json();
    expect(body.invitation).toBeNull();
    expect(body.project).toMatchObject({ studioId: project.studioId, role: "editor" });
    // A plain member sees their own row.
    expect(body.members.members.map((m: { email: string }) => m.email)).toEqual([late.email]);

    // Accepted already: the card's form now refuses, the member stays.
    const again = await dashboardPost(late, project.studioId, "invitation-accept");
    expect(again).toHaveRedirect(`/sites/${project.studioId}`);
    await expect(again).toSendToast({
      type: "error",
      title: "Ooops, something went wrong accepting invitation!",
      description: "You have no pending invitation to this project",
    });
  });

  it("declines from the card (to /, with the toast)", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const invitee = await actor();
    await invite(owner.cookie, project.studioId, invitee.email);
    const res = await dashboardPost(invitee, project.studioId, "invitation-decline");
    expect(res).toHaveRedirect("/");
    await expect(res).toSendToast({ type: "info", title: "Invitation declined" });
    expect(await memberRow(project._id, invitee.email)).toBeUndefined();
    expect((await dashboard(invitee, project.studioId)).status).toBe(404);
  });
});
