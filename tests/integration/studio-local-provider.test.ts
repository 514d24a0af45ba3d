import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localStudioInvites, localStudios, outbox } from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { createLocalContentStudio } from "~/providers/content-studio/local";
import { action as studioAction, loader as studioLoader } from "~/routes/local.studio.$projectId";
import { call, makeRequest } from "../helpers";
import { toastOf } from "./studio-fixtures";
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

    // The stand-in studio page: the link shows the invitation, its POST form accepts it.
    const url = new URL(link!);
    const page = await call(studioLoader, makeRequest(url.pathname + url.search), { projectId });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      studio: { id: projectId, displayName: "Invites" },
      accept: { id: invite.id, email, accepted: false },
    });
    const accepted = await call(
      studioAction,
      makeRequest(url.pathname, { form: { inviteId: invite.id } }),
      { projectId },
    );
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("Location")).toBe(`/local/studio/${projectId}`);
    expect((await toastOf(accepted))?.title).toBe("Invitation accepted");
    expect(await studio.invitationStatus(projectId, email)).toBe("accepted");

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
    expect(await bogus.json()).toMatchObject({ accept: { missing: true } });
    const refused = await call(
      studioAction,
      makeRequest(`/local/studio/${projectId}`, { form: { inviteId: "bogus" } }),
      { projectId },
    );
    expect(refused.status).toBe(404);
    expect(
      (await rejection(studio.inviteMember("nope1234", { email: "a@b.co", role: "editor" })))
        .details.status,
    ).toBe(404);
  });
});
