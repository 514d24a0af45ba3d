/**
 * The provider deletes a project cleanup relies on (HostingProvider.deleteSite and
 * ContentStudioProvider.deleteStudio), each adapter against its stand-in: the request it sends
 * (method, path, Vercel's team id, the Bearer token), that the site or studio is gone afterwards
 * (a following read is a 404), that deleting again resolves (the cleanup job retries), that a 5xx
 * is a retryable ProviderError and a 401/403 a permanent one. Then the local providers: the
 * delete removes their rows (deploys and invitations with them) and deleting again resolves.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localDeploys, localSites, localStudioInvites, localStudios } from "~/db/schema";
import { createLocalContentStudio } from "~/providers/content-studio/local.server";
import { createSanityContentStudio } from "~/providers/content-studio/sanity.server";
import type { ContentStudioProvider } from "~/providers/content-studio/types";
import { createLocalHosting } from "~/providers/hosting/local.server";
import { createNetlifyHosting } from "~/providers/hosting/netlify.server";
import type { HostingProvider } from "~/providers/hosting/types";
import { createVercelHosting } from "~/providers/hosting/vercel.server";
import { startNetlifyStandIn, type NetlifyStandIn } from "../stand-ins/netlify";
import { withStandIn } from "../stand-ins/hooks";
import { rejection } from "../stand-ins/provider-error";
import { startSanityStandIn, type SanityStandIn } from "../stand-ins/sanity";
import { startVercelStandIn, type VercelStandIn } from "../stand-ins/vercel";

const key = () => `delete-${randomUUID()}`;

describe("Netlify deleteSite", () => {
  let standIn: NetlifyStandIn;
  let netlify: HostingProvider;

  // Every answer and request body still fits the vendor's contract.
  withStandIn(
    () => startNetlifyStandIn(),
    (started) => {
      standIn = started;
      netlify = createNetlifyHosting({ token: standIn.token, baseUrl: standIn.url });
    },
  );

  const deletesOf = (siteId: string) =>
    standIn.requests.filter((r) => r.method === "DELETE" && r.path === `/sites/${siteId}`);

  it("sends DELETE /sites/{id} with the token, removes the site, and a re-run resolves", async () => {
    const site = await netlify.createSite({ name: "Doomed", idempotencyKey: key() });
    const deploy = await netlify.triggerDeployment(site.id, { triggerKey: "t1" });

    await netlify.deleteSite(site.id);
    const [sent] = deletesOf(site.id);
    expect(sent.headers.authorization).toBe(`Bearer ${standIn.token}`);
    expect(standIn.sites.has(site.id)).toBe(false);
    expect(standIn.deploys.some((d) => d.id === deploy.id)).toBe(false);
    expect((await rejection(netlify.getSite(site.id))).details.status).toBe(404);

    // Already gone: Netlify's 404 counts as done.
    await expect(netlify.deleteSite(site.id)).resolves.toBeUndefined();
    expect(deletesOf(site.id)).toHaveLength(2);
  });

  it("a 5xx is retryable and leaves the site; a 401 or 403 is permanent", async () => {
    const site = await netlify.createSite({ name: "Sturdy", idempotencyKey: key() });
    const path = new RegExp(`^/sites/${site.id}$`);

    standIn.fail({ method: "DELETE", path, status: 503 });
    const unavailable = await rejection(netlify.deleteSite(site.id));
    expect(unavailable.details).toMatchObject({ provider: "netlify", status: 503 });
    expect(unavailable.retryable).toBe(true);
    expect(standIn.sites.has(site.id)).toBe(true);

    const wrong = createNetlifyHosting({ token: "wrong", baseUrl: standIn.url });
    const unauthorized = await rejection(wrong.deleteSite(site.id));
    expect(unauthorized.details).toMatchObject({ status: 401, code: "unauthorized" });
    expect(unauthorized.retryable).toBe(false);

    standIn.fail({
      method: "DELETE",
      path,
      status: 403,
      body: { code: 403, message: "You don't have permission to delete this site" },
    });
    const forbidden = await rejection(netlify.deleteSite(site.id));
    expect(forbidden.details).toMatchObject({ status: 403, code: "forbidden" });
    expect(forbidden.retryable).toBe(false);
    expect(standIn.sites.has(site.id)).toBe(true);

    // The retry the job makes later goes through.
    await netlify.deleteSite(site.id);
    expect(standIn.sites.has(site.id)).toBe(false);
  });
});

describe("Vercel deleteSite", () => {
  const TEAM = "team_acme";
  let standIn: VercelStandIn;
  let vercel: HostingProvider;

  // Every answer and request body still fits the vendor's contract.
  withStandIn(
    () => startVercelStandIn({ teamId: TEAM }),
    (started) => {
      standIn = started;
      vercel = createVercelHosting({ token: standIn.token, teamId: TEAM, baseUrl: standIn.url });
    },
  );

  const deletesOf = (siteId: string) =>
    standIn.requests.filter((r) => r.method === "DELETE" && r.path === `/v9/projects/${siteId}`);

  it("sends DELETE /v9/projects/{id} for the team, removes the project, and a re-run resolves", async () => {
    const site = await vercel.createSite({ name: "Doomed", idempotencyKey: key() });
    const deploy = await vercel.triggerDeployment(site.id, { triggerKey: "t1" });

    await vercel.deleteSite(site.id);
    const [sent] = deletesOf(site.id);
    expect(sent.headers.authorization).toBe(`Bearer ${standIn.token}`);
    expect(sent.query.get("teamId")).toBe(TEAM);
    expect(standIn.projects.has(site.id)).toBe(false);
    expect(standIn.deployments.some((d) => d.id === deploy.id)).toBe(false);
    expect((await rejection(vercel.getSite(site.id))).details.status).toBe(404);

    // Already gone: Vercel's 404 counts as done.
    await expect(vercel.deleteSite(site.id)).resolves.toBeUndefined();
    expect(deletesOf(site.id)).toHaveLength(2);
  });

  it("a 5xx is retryable and leaves the project; a 401 or 403 is permanent", async () => {
    const site = await vercel.createSite({ name: "Sturdy", idempotencyKey: key() });
    const path = new RegExp(`^/v9/projects/${site.id}$`);

    standIn.fail({ method: "DELETE", path, status: 500 });
    const broken = await rejection(vercel.deleteSite(site.id));
    expect(broken.details).toMatchObject({ provider: "vercel", status: 500 });
    expect(broken.retryable).toBe(true);
    expect(standIn.projects.has(site.id)).toBe(true);

    standIn.fail({
      method: "DELETE",
      path,
      status: 401,
      body: { error: { code: "unauthorized", message: "Token expired" } },
    });
    const unauthorized = await rejection(vercel.deleteSite(site.id));
    expect(unauthorized.details).toMatchObject({ status: 401, code: "unauthorized" });
    expect(unauthorized.retryable).toBe(false);

    // A bad token is a 403 at Vercel.
    const wrong = createVercelHosting({ token: "wrong", teamId: TEAM, baseUrl: standIn.url });
    const forbidden = await rejection(wrong.deleteSite(site.id));
    expect(forbidden.details).toMatchObject({ status: 403, code: "forbidden" });
    expect(forbidden.retryable).toBe(false);
    expect(standIn.projects.has(site.id)).toBe(true);

    await vercel.deleteSite(site.id);
    expect(standIn.projects.has(site.id)).toBe(false);
  });
});

describe("Sanity deleteStudio", () => {
  let standIn: SanityStandIn;
  let sanity: ContentStudioProvider;

  beforeAll(async () => {
    standIn = await startSanityStandIn();
    sanity = createSanityContentStudio({
      token: standIn.token,
      organizationId: "org-1",
      baseUrl: standIn.url,
    });
  });
  afterAll(async () => {
    await standIn.close();
  });

  const deletesOf = (projectId: string) =>
    standIn.requests.filter(
      (r) => r.method === "DELETE" && r.path === `/v2021-06-07/projects/${projectId}`,
    );

  it("sends DELETE /v2021-06-07/projects/{id} with the token, removes it, and a re-run resolves", async () => {
    const { projectId } = await sanity.createStudio({
      displayName: "Doomed",
      idempotencyKey: key(),
    });

    await sanity.deleteStudio(projectId);
    const [sent] = deletesOf(projectId);
    expect(sent.authorization).toBe(`Bearer ${standIn.token}`);
    expect(standIn.projects.has(projectId)).toBe(false);
    expect((await rejection(sanity.getStudio(projectId))).details.status).toBe(404);

    // Already gone: Sanity's 404 counts as done.
    await expect(sanity.deleteStudio(projectId)).resolves.toBeUndefined();
    expect(deletesOf(projectId)).toHaveLength(2);
  });

  it("a 5xx is retryable and leaves the project; a 401 or 403 is permanent", async () => {
    const { projectId } = await sanity.createStudio({
      displayName: "Sturdy",
      idempotencyKey: key(),
    });
    const path = new RegExp(`^/v2021-06-07/projects/${projectId}$`);

    standIn.failNext(
      path,
      { status: 503, body: { statusCode: 503, error: "Unavailable" } },
      "DELETE",
    );
    const unavailable = await rejection(sanity.deleteStudio(projectId));
    expect(unavailable.details).toMatchObject({ provider: "sanity", status: 503 });
    expect(unavailable.retryable).toBe(true);
    expect(standIn.projects.has(projectId)).toBe(true);

    const wrong = createSanityContentStudio({ token: "wrong", baseUrl: standIn.url });
    const unauthorized = await rejection(wrong.deleteStudio(projectId));
    expect(unauthorized.details.status).toBe(401);
    expect(unauthorized.retryable).toBe(false);

    standIn.failNext(
      path,
      {
        status: 403,
        body: { statusCode: 403, error: "Forbidden", message: "Insufficient permissions" },
      },
      "DELETE",
    );
    const forbidden = await rejection(sanity.deleteStudio(projectId));
    expect(forbidden.details.status).toBe(403);
    expect(forbidden.retryable).toBe(false);
    expect(standIn.projects.has(projectId)).toBe(true);

    await sanity.deleteStudio(projectId);
    expect(standIn.projects.has(projectId)).toBe(false);
  });
});

describe("local providers", () => {
  it.each(["netlify", "vercel"] as const)(
    "local %s: deleteSite removes the site and its deploys, and a re-run resolves",
    async (name) => {
      const hosting = createLocalHosting(name);
      const site = await hosting.createSite({ name: "Doomed", idempotencyKey: key() });
      await hosting.triggerDeployment(site.id, { triggerKey: "t1" });
      await hosting.triggerDeployment(site.id, { triggerKey: "t2" });
      const deploysOf = () =>
        db().select().from(localDeploys).where(eq(localDeploys.siteId, site.id));
      expect(await deploysOf()).toHaveLength(2);

      // The other vendor's provider does not touch it (ids are per provider).
      const other = createLocalHosting(name === "netlify" ? "vercel" : "netlify");
      await other.deleteSite(site.id);
      expect((await hosting.getSite(site.id)).id).toBe(site.id);

      await hosting.deleteSite(site.id);
      expect(await db().select().from(localSites).where(eq(localSites.id, site.id))).toEqual([]);
      expect(await deploysOf()).toEqual([]);
      expect((await rejection(hosting.getSite(site.id))).details.status).toBe(404);

      await expect(hosting.deleteSite(site.id)).resolves.toBeUndefined();
      // Ids that cannot be ours resolve without a query.
      await expect(hosting.deleteSite("not an id\u0000")).resolves.toBeUndefined();
    },
  );

  it("local studio: deleteStudio removes the studio and its invitations, and a re-run resolves", async () => {
    const studio = createLocalContentStudio();
    const { projectId } = await studio.createStudio({
      displayName: "Doomed",
      idempotencyKey: key(),
    });
    await studio.inviteMember(projectId, {
      email: `gone-${randomUUID()}@example.com`,
      role: "editor",
    });
    const invitesOf = () =>
      db().select().from(localStudioInvites).where(eq(localStudioInvites.studioId, projectId));
    expect(await invitesOf()).toHaveLength(1);

    await studio.deleteStudio(projectId);
    expect(await db().select().from(localStudios).where(eq(localStudios.id, projectId))).toEqual(
      [],
    );
    expect(await invitesOf()).toEqual([]);
    expect((await rejection(studio.getStudio(projectId))).details.status).toBe(404);

    await expect(studio.deleteStudio(projectId)).resolves.toBeUndefined();
    await expect(studio.deleteStudio("")).resolves.toBeUndefined();
  });
});
