import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localDeploys, localSites, localStudioInvites, localStudios, outbox } from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { createLocalContentStudio } from "~/providers/content-studio/local.server";
import { loader as loginLoader } from "~/routes/auth.login";
import { loader as siteLoader } from "~/routes/local.sites.$siteId";
import { action as studioAction, loader as studioLoader } from "~/routes/local.studio.$projectId";
import { resetEnv } from "~/utils/env.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { rejection } from "../stand-ins/provider-error";

const studio = createLocalContentStudio();

const mailsTo = (email: string) =>
  db().select().from(outbox).where(eq(outbox.to, email)).orderBy(outbox.createdAt);

describe("local content studio", () => {
  it("is the default provider", () => {
    expect(Object.keys(contentStudioProvider())).toEqual(Object.keys(studio));
  });

  it("creates a studio once per idempotency key", async () => {
    const [a, b] = await Promise.all([
      studio.createStudio({ displayName: "Acme", idempotencyKey: "local-key-1" }),
      studio.createStudio({ displayName: "Acme", idempotencyKey: "local-key-1" }),
    ]);
    expect(b).toEqual(a);
    expect(a.projectId).toMatch(/^[a-z0-9]{8}$/);
    expect(a.studioUrl).toBe(`http://localhost:3000/local/studio/${a.projectId}`);
    const rows = await db()
      .select()
      .from(localStudios)
      .where(eq(localStudios.idempotencyKey, "local-key-1"));
    expect(rows).toHaveLength(1);
    expect(await studio.getStudio(a.projectId)).toEqual(a);

    const other = await studio.createStudio({ displayName: "Acme", idempotencyKey: "local-key-2" });
    expect(other.projectId).not.toBe(a.projectId);
    expect((await rejection(studio.getStudio("missing1"))).details.status).toBe(404);
  });

  it("keeps datasets and CORS origins idempotent", async () => {
    const { projectId } = await studio.createStudio({ displayName: "D", idempotencyKey: "ds-1" });
    await studio.ensureDataset(projectId, "production");
    await studio.ensureDataset(projectId, "production");
    await studio.ensureDataset(projectId, "staging");
    await studio.addCorsOrigin(projectId, "https://site.example");
    await studio.addCorsOrigin(projectId, "https://site.example");
    const [row] = await db().select().from(localStudios).where(eq(localStudios.id, projectId));
    expect(row.datasets).toEqual(["production", "staging"]);
    expect(row.corsOrigins).toEqual(["https://site.example"]);
    expect((await rejection(studio.ensureDataset("missing1", "production"))).details.status).toBe(
      404,
    );
    expect(
      (await rejection(studio.addCorsOrigin("missing1", "https://x.example"))).details.status,
    ).toBe(404);
  });

  it("invites by e-mail, resends, and the e-mailed link accepts", async () => {
    const { projectId } = await studio.createStudio({
      displayName: "Invites",
      idempotencyKey: "inv-1",
    });
    const email = `invitee-${Date.now()}@example.com`;
    expect(await studio.invitationStatus(projectId, email)).toBe("none");

    await studio.inviteMember(projectId, { email: email.toUpperCase(), role: "administrator" });
    expect(await studio.invitationStatus(projectId, email)).toBe("pending");
    const [first] = await mailsTo(email);
    const link = first.text.match(/http:\/\/localhost:3000\/local\/studio\/\S+/)?.[0];
    expect(link).toMatch(new RegExp(`/local/studio/${projectId}\\?accept=`));

    await studio.resendInvite(projectId, email);
    const [invite] = await db()
      .select()
      .from(localStudioInvites)
      .where(and(eq(localStudioInvites.studioId, projectId), eq(localStudioInvites.email, email)));
    expect(invite).toMatchObject({ status: "pending", sentCount: 2, role: "administrator" });
    expect(await mailsTo(email)).toHaveLength(2);

    // The stand-in studio page: the link shows the invitation to the invited account, and its
    // POST form accepts it.
    const invitee = await createUser({ email });
    const cookie = await sessionCookie(invitee.id);
    const url = new URL(link!);
    const page = await call(studioLoader, makeRequest(url.pathname + url.search, { cookie }), {
      projectId,
    });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      studio: { id: projectId, displayName: "Invites" },
      accept: { state: "pending", id: invite.id, email },
    });
    const accepted = await call(
      studioAction,
      makeRequest(url.pathname, { form: { inviteId: invite.id }, cookie }),
      { projectId },
    );
    expect(accepted.status).toBe(302);
    expect(accepted).toHaveRedirect(`/local/studio/${projectId}`);
    await expect(accepted).toSendToast({ title: "Invitation accepted" });
    expect(await studio.invitationStatus(projectId, email)).toBe("accepted");
    const after = await call(studioLoader, makeRequest(url.pathname + url.search, { cookie }), {
      projectId,
    });
    expect(await after.json()).toMatchObject({ accept: { state: "accepted", email } });

    // Accepted: nothing to resend, and a new invite mails nothing.
    expect((await rejection(studio.resendInvite(projectId, email))).details.status).toBe(404);
    await studio.inviteMember(projectId, { email, role: "editor" });
    expect(await studio.invitationStatus(projectId, email)).toBe("accepted");
    expect(await mailsTo(email)).toHaveLength(2);
  });

  it("answers unknown studios and invitations plainly", async () => {
    const { projectId } = await studio.createStudio({ displayName: "P", idempotencyKey: "pg-1" });
    const missing = await call(studioLoader, makeRequest("/local/studio/nope1234"), {
      projectId: "nope1234",
    });
    expect(missing.status).toBe(404);
    const home = await call(studioLoader, makeRequest(`/local/studio/${projectId}`), { projectId });
    expect(await home.json()).toMatchObject({ studio: { displayName: "P" }, accept: null });
    const bogus = await call(studioLoader, makeRequest(`/local/studio/${projectId}?accept=bogus`), {
      projectId,
    });
    expect(await bogus.json()).toMatchObject({ accept: { state: "missing" } });
    const user = await createUser();
    const refused = await call(
      studioAction,
      makeRequest(`/local/studio/${projectId}`, {
        form: { inviteId: "bogus" },
        cookie: await sessionCookie(user.id),
      }),
      { projectId },
    );
    expect(refused.status).toBe(404);
    expect((await refused.json()).result.error[""]).toEqual([
      "This invitation is no longer valid.",
    ]);
    expect(
      (await rejection(studio.inviteMember("nope1234", { email: "a@b.co", role: "editor" })))
        .details.status,
    ).toBe(404);
  });

  describe("accepting needs the invited account", () => {
    async function invited() {
      const { projectId } = await studio.createStudio({
        displayName: "Guarded",
        idempotencyKey: `guard-${randomUUID()}`,
      });
      const email = `guarded-${randomUUID()}@example.com`;
      await studio.inviteMember(projectId, { email, role: "editor" });
      const [invite] = await db()
        .select()
        .from(localStudioInvites)
        .where(
          and(eq(localStudioInvites.studioId, projectId), eq(localStudioInvites.email, email)),
        );
      const path = `/local/studio/${projectId}?accept=${encodeURIComponent(invite.id)}`;
      return { projectId, email, invite, path };
    }

    it("without a session, the page offers 'Log in to accept' back to itself, and a POST goes to login", async () => {
      const { projectId, email, invite, path } = await invited();
      const loginUrl = `/auth/login?redirectTo=${encodeURIComponent(path)}`;
      const page = await call(studioLoader, makeRequest(path), { projectId });
      expect(page.status).toBe(200);
      const body = await page.json();
      expect(body).toEqual({
        studio: { id: projectId, displayName: "Guarded" },
        accept: { state: "login", loginUrl },
        // Nor the studio's members: they are shown to its members only.
        access: null,
      });
      expect(JSON.stringify(body)).not.toContain(email);

      const post = await call(
        studioAction,
        makeRequest(`/local/studio/${projectId}`, { form: { inviteId: invite.id } }),
        { projectId },
      );
      expect(post.status).toBe(302);
      expect(post).toHaveRedirect(loginUrl);
      expect(await studio.invitationStatus(projectId, email)).toBe("pending");

      // Once logged in as the invitee, the login page sends them back to the invitation.
      const invitee = await createUser({ email });
      const back = await call(
        loginLoader,
        makeRequest(loginUrl, { cookie: await sessionCookie(invitee.id) }),
      );
      expect(back.status).toBe(302);
      expect(back).toHaveRedirect(path);
    });

    it("signed in as someone else, the page says the invitation is for another address, and accepting is refused", async () => {
      const { projectId, email, invite, path } = await invited();
      const other = await createUser();
      const cookie = await sessionCookie(other.id);
      const page = await call(studioLoader, makeRequest(path, { cookie }), { projectId });
      const body = await page.json();
      expect(body).toMatchObject({ accept: { state: "otherAddress", signedInAs: other.email } });
      expect(JSON.stringify(body)).not.toContain(email);

      const post = await call(
        studioAction,
        makeRequest(`/local/studio/${projectId}`, { form: { inviteId: invite.id }, cookie }),
        { projectId },
      );
      expect(post.status).toBe(403);
      expect((await post.json()).result.error[""]).toEqual([
        "This invitation is for another address. Log in with the invited address.",
      ]);
      expect(await studio.invitationStatus(projectId, email)).toBe("pending");
    });

    it("the invited address matches whatever its case", async () => {
      const { projectId, email, invite } = await invited();
      const invitee = await createUser({ email: email.toUpperCase() });
      const post = await call(
        studioAction,
        makeRequest(`/local/studio/${projectId}`, {
          form: { inviteId: invite.id },
          cookie: await sessionCookie(invitee.id),
        }),
        { projectId },
      );
      expect(post.status).toBe(302);
      expect(await studio.invitationStatus(projectId, email)).toBe("accepted");
    });
  });

  describe("with PROVIDERS=live", () => {
    afterEach(() => {
      delete process.env.PROVIDERS;
      resetEnv();
    });

    /** A local site with a published deploy, as the local hosting provider leaves it. */
    async function publishedSite() {
      const siteId = `site-${randomUUID()}`;
      const deployId = `dep-${randomUUID().slice(0, 8)}`;
      await db()
        .insert(localSites)
        .values({ id: siteId, provider: "netlify", name: "Live", idempotencyKey: siteId });
      await db().insert(localDeploys).values({ id: deployId, siteId, state: "ready" });
      await db()
        .update(localSites)
        .set({ publishedDeployId: deployId })
        .where(eq(localSites.id, siteId));
      return siteId;
    }

    it("the /local/* pages answer 404, loader and action", async () => {
      const { projectId } = await studio.createStudio({
        displayName: "Gone",
        idempotencyKey: `live-${randomUUID()}`,
      });
      const email = `live-${randomUUID()}@example.com`;
      await studio.inviteMember(projectId, { email, role: "editor" });
      const [invite] = await db()
        .select()
        .from(localStudioInvites)
        .where(eq(localStudioInvites.email, email));
      const cookie = await sessionCookie((await createUser({ email })).id);
      const siteId = await publishedSite();

      const requests = {
        studio: () => call(studioLoader, makeRequest(`/local/studio/${projectId}`), { projectId }),
        invitation: () =>
          call(studioLoader, makeRequest(`/local/studio/${projectId}?accept=${invite.id}`), {
            projectId,
          }),
        accept: () =>
          call(
            studioAction,
            makeRequest(`/local/studio/${projectId}`, { form: { inviteId: invite.id }, cookie }),
            { projectId },
          ),
        site: () => call(siteLoader, makeRequest(`/local/sites/${siteId}`), { siteId }),
      };
      // With the local providers they exist (the accept is left for after the live check)...
      expect((await requests.studio()).status).toBe(200);
      expect((await requests.invitation()).status).toBe(200);
      expect((await requests.site()).status).toBe(200);

      process.env.PROVIDERS = "live";
      resetEnv();
      for (const [name, request] of Object.entries(requests)) {
        expect((await request()).status, name).toBe(404);
      }
      expect(await studio.invitationStatus(projectId, email)).toBe("pending");
    });
  });
});

describe("local content studio feature flags", () => {
  const featuresOf = async (projectId: string) => {
    const [row] = await db()
      .select({ features: localStudios.features })
      .from(localStudios)
      .where(eq(localStudios.id, projectId));
    return row.features;
  };

  it("turns flags on and off in the studio's row, idempotently, keeping the others", async () => {
    const { projectId } = await studio.createStudio({
      displayName: "Flags",
      idempotencyKey: `flags-${randomUUID()}`,
    });
    expect(await featuresOf(projectId)).toEqual({});

    await studio.setFeatureFlag(projectId, "ecommerce", true);
    await studio.setFeatureFlag(projectId, "ecommerce", true);
    await Promise.all([
      studio.setFeatureFlag(projectId, "gpt", true),
      studio.setFeatureFlag(projectId, "socialMedia", true),
    ]);
    expect(await featuresOf(projectId)).toEqual({ ecommerce: true, gpt: true, socialMedia: true });

    await studio.setFeatureFlag(projectId, "gpt", false);
    await studio.setFeatureFlag(projectId, "gpt", false);
    expect(await featuresOf(projectId)).toEqual({
      ecommerce: true,
      gpt: false,
      socialMedia: true,
    });
  });

  it("answers 404 (not retryable) for an unknown studio", async () => {
    const error = await rejection(studio.setFeatureFlag("missing1", "ecommerce", true));
    expect(error.details).toMatchObject({ provider: "local", status: 404 });
    expect(error.retryable).toBe(false);
  });
});
