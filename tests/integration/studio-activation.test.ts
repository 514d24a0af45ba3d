import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localStudioInvites, outbox, projects } from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { acceptLocalInvite } from "~/providers/content-studio/local.server";
import { action as inviteApi, loader as inviteApiGet } from "~/routes/api.app.project-invite";
import { action as resendForm } from "~/routes/resources.studio-invite";
import { getProject } from "~/services/projects/projects.server";
import { providerReads } from "~/services/core/provider-cache.server";
import { activationState } from "~/services/studio/studio.server";
import { resetEnv } from "~/utils/env.server";
import { startSanityStandIn, type SanityStandIn } from "../stand-ins/sanity";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { addMember, asUser, provisionedProject } from "./studio-fixtures";

const postApi = (cookie: string | undefined, body: unknown, raw?: string) =>
  call(
    inviteApi,
    makeRequest("/api/app/project-invite", {
      method: "POST",
      cookie,
      ...(raw !== undefined
        ? { body: raw, headers: { "Content-Type": "application/json" } }
        : { json: body }),
    }),
  );

const postForm = (cookie: string | undefined, form: Record<string, string>) =>
  call(resendForm, makeRequest("/resources/studio-invite", { cookie, form }));

async function inviteRow(studioId: string, email: string) {
  const [row] = await db()
    .select()
    .from(localStudioInvites)
    .where(and(eq(localStudioInvites.studioId, studioId), eq(localStudioInvites.email, email)));
  return row;
}

describe("activation state", () => {
  it("follows the owner's invitation and records its acceptance on the project", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const view = () => getProject(asUser(owner), project.studioId);
    expect(await activationState(asUser(owner), await view())).toEqual({ accepted: false });

    const invite = await inviteRow(project.studioSanityId, owner.email);
    await acceptLocalInvite(project.studioSanityId, invite.id, owner.email);
    expect(await activationState(asUser(owner), await view())).toEqual({ accepted: true });
    const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
    expect(row.inviteToProjectAccepted).toBe(true);

    // A member is asked of the provider, not the owner's flag.
    const member = await createUser();
    await addMember(project._id, member);
    const memberView = await getProject(asUser(member), project.studioId);
    expect(await activationState(asUser(member), memberView)).toEqual({ accepted: false });
  });

  it("asks the provider once for repeated views of an unaccepted member, again after acceptance", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const member = await createUser();
    await addMember(project._id, member);
    const memberView = await getProject(asUser(member), project.studioId);
    const before = providerReads();
    for (let i = 0; i < 5; i += 1) {
      expect(await activationState(asUser(member), memberView)).toEqual({ accepted: false });
    }
    expect(providerReads() - before).toBe(1);

    // Accepting (the local studio tells the cache, as a vendor's webhook would) shows at once.
    await contentStudioProvider().inviteMember(project.studioSanityId, {
      email: member.email,
      role: "editor",
    });
    const invite = await inviteRow(project.studioSanityId, member.email);
    await acceptLocalInvite(project.studioSanityId, invite.id, member.email);
    expect(await activationState(asUser(member), memberView)).toEqual({ accepted: true });
  });

  it("reads not accepted while the studio is not provisioned", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    await db().update(projects).set({ studioSanityId: null }).where(eq(projects.id, project._id));
    const view = await getProject(asUser(owner), project.studioId);
    expect(await activationState(asUser(owner), view)).toEqual({ accepted: false });
  });
});

describe("POST /api/app/project-invite", () => {
  it("resends the owner's pending invitation", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const cookie = await sessionCookie(owner.id);
    const res = await postApi(cookie, { projectId: project.studioId, email: owner.email });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcome: "resent", email: owner.email });
    expect((await inviteRow(project.studioSanityId, owner.email)).sentCount).toBe(2);
    const mails = await db().select().from(outbox).where(eq(outbox.to, owner.email));
    expect(mails).toHaveLength(2);

    // By _id and by the content provider's project id too; e-mail case does not matter.
    for (const projectId of [project._id, project.studioSanityId]) {
      const again = await postApi(cookie, { projectId, email: owner.email.toUpperCase() });
      expect(again.status).toBe(200);
    }
  });

  it("invites a member the provider never invited, with their project role", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const dev = await createUser();
    await addMember(project._id, dev, "developer");
    const res = await postApi(await sessionCookie(dev.id), {
      projectId: project.studioId,
      email: dev.email,
    });
    expect(await res.json()).toMatchObject({ ok: true, outcome: "invited" });
    expect(await inviteRow(project.studioSanityId, dev.email)).toMatchObject({
      status: "pending",
      role: "developer",
    });
  });

  it("says so when the invitation is already accepted", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const invite = await inviteRow(project.studioSanityId, owner.email);
    await acceptLocalInvite(project.studioSanityId, invite.id, owner.email);
    const res = await postApi(await sessionCookie(owner.id), {
      projectId: project.studioId,
      email: owner.email,
    });
    expect(await res.json()).toMatchObject({ outcome: "accepted" });
  });

  it("lets the owner and admins resend a member's, and nobody else's", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const admin = await createUser();
    const editor = await createUser();
    const outsider = await createUser();
    await addMember(project._id, admin, "admin");
    await addMember(project._id, editor, "editor");
    const invited = await createUser();
    await addMember(project._id, invited, "editor", "invited");

    const asAdmin = await postApi(await sessionCookie(admin.id), {
      projectId: project.studioId,
      email: editor.email,
    });
    expect(asAdmin.status).toBe(200);
    const asOwner = await postApi(await sessionCookie(owner.id), {
      projectId: project.studioId,
      email: admin.email,
    });
    expect(asOwner.status).toBe(200);
    // A member still only invited has no studio access to resend (the studio role
    // comes from accepted rows only; the studio invitation follows the acceptance).
    const notYet = await postApi(await sessionCookie(owner.id), {
      projectId: project.studioId,
      email: invited.email,
    });
    expect(notYet.status).toBe(400);

    const editorCookie = await sessionCookie(editor.id);
    const forbidden = await postApi(editorCookie, {
      projectId: project.studioId,
      email: owner.email,
    });
    expect(forbidden.status).toBe(403);

    const stranger = await postApi(await sessionCookie(owner.id), {
      projectId: project.studioId,
      email: "stranger@example.com",
    });
    expect(stranger.status).toBe(400);
    expect(await stranger.json()).toMatchObject({ fieldErrors: { email: [expect.any(String)] } });

    // Non-members (and members still only invited) cannot see the project: 404.
    for (const user of [outsider, invited]) {
      const res = await postApi(await sessionCookie(user.id), {
        projectId: project.studioId,
        email: user.email,
      });
      expect(res.status).toBe(404);
    }
    const unknown = await postApi(editorCookie, { projectId: "nope", email: editor.email });
    expect(unknown.status).toBe(404);
  });

  it("answers bad input with 400, anonymous with 401, other methods with 405", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const cookie = await sessionCookie(owner.id);
    const missing = await postApi(cookie, { projectId: project.studioId });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ fieldErrors: { email: [expect.any(String)] } });
    expect((await postApi(cookie, { projectId: "", email: "not-an-email" })).status).toBe(400);
    expect((await postApi(cookie, { projectId: 5, email: owner.email })).status).toBe(400);
    expect((await postApi(cookie, null, '{"projectId":')).status).toBe(400);

    const anonymous = await postApi(undefined, { projectId: project.studioId, email: owner.email });
    expect(anonymous.status).toBe(401);
    expect((await call(inviteApiGet, makeRequest("/api/app/project-invite"))).status).toBe(405);
  });

  it("answers 409 while the studio is not provisioned", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    await db().update(projects).set({ studioSanityId: null }).where(eq(projects.id, project._id));
    const res = await postApi(await sessionCookie(owner.id), {
      projectId: project.studioId,
      email: owner.email,
    });
    expect(res.status).toBe(409);
  });
});

describe("Resend Invitation form", () => {
  it("redirects back, dialog closed, with 'Sanity Email Resent!'", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const res = await postForm(await sessionCookie(owner.id), {
      projectId: project.studioId,
      email: owner.email,
      redirectTo: `/sites/${project.studioId}?page=2&dialog=resend-studio-invite`,
    });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect(`/sites/${project.studioId}?page=2`);
    await expect(res).toSendToast({ type: "success", title: "Sanity Email Resent!" });
  });

  it("says 'Failed to resend sanity email!' when it cannot, and never leaves the site", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    await db().update(projects).set({ studioSanityId: null }).where(eq(projects.id, project._id));
    const res = await postForm(await sessionCookie(owner.id), {
      projectId: project.studioId,
      email: owner.email,
      redirectTo: "//evil.example/x",
    });
    expect(res).toHaveRedirect(`/sites/${project.studioId}`);
    await expect(res).toSendToast({
      type: "error",
      title: "Failed to resend sanity email!",
    });

    const invalid = await postForm(await sessionCookie(owner.id), { projectId: project.studioId });
    await expect(invalid).toSendToast({ title: "Failed to resend sanity email!" });

    const outsider = await createUser();
    const hidden = await postForm(await sessionCookie(outsider.id), {
      projectId: project.studioId,
      email: outsider.email,
    });
    expect(hidden.status).toBe(404);

    const anonymous = await postForm(undefined, { projectId: project.studioId, email: "a@b.co" });
    expect(anonymous).toHaveRedirect(/^\/auth\/login/);
  });
});

describe("with Sanity (PROVIDERS=live) against the stand-in", () => {
  let standIn: SanityStandIn | undefined;
  afterEach(async () => {
    for (const key of ["PROVIDERS", "SANITY_AUTH_TOKEN", "SANITY_API_URL"]) delete process.env[key];
    resetEnv();
    await standIn?.close();
  });

  it("resends through the vendor, and a vendor failure is a retryable failure toast", async () => {
    standIn = await startSanityStandIn();
    process.env.PROVIDERS = "live";
    process.env.SANITY_AUTH_TOKEN = standIn.token;
    process.env.SANITY_API_URL = standIn.url;
    resetEnv();

    const owner = await createUser();
    const project = await provisionedProject(owner);
    expect(project.studioUrl).toBe(`https://${project.studioSanityId}.sanity.studio`);
    const cookie = await sessionCookie(owner.id);
    const form = { projectId: project.studioId, email: owner.email };

    const ok = await postForm(cookie, form);
    await expect(ok).toSendToast({ title: "Sanity Email Resent!" });
    expect(standIn.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);

    const down = {
      status: 500,
      body: { statusCode: 500, error: "Internal Server Error", message: "Boom" },
    };
    standIn.failNext(/\/invites$/, down, "GET");
    const failed = await postForm(cookie, form);
    await expect(failed).toSendToast({
      type: "error",
      title: "Failed to resend sanity email!",
    });

    // Retrying works once the vendor is back.
    const retried = await postForm(cookie, form);
    await expect(retried).toSendToast({ title: "Sanity Email Resent!" });

    standIn.failNext(/\/invites$/, { ...down, status: 429, headers: { "Retry-After": "30" } });
    const api = await postApi(cookie, form);
    expect(api.status).toBe(502);
    expect(api.headers.get("Retry-After")).toBe("30");
    expect(await api.json()).toEqual({ error: "Failed to resend sanity email!" });

    // The owner accepts in Sanity: the dashboard sees it and records it.
    standIn.acceptInvite(project.studioSanityId, owner.email);
    const view = await getProject(asUser(owner), project.studioId);
    expect(await activationState(asUser(owner), view)).toEqual({ accepted: true });
  });
});
