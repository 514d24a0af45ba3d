/**
 * Rolling a site back (HostingProvider.restoreDeployment), each adapter against its stand-in:
 * the request it sends (Netlify's POST .../deploys/{id}/restore, Vercel's POST
 * /v10/projects/{id}/promote/{deploymentId} with the team id; the Bearer token), the deployment
 * it returns, that the site then reports the restored deploy as published, a 404 for a deploy
 * the site does not have, the vendor's refusal of one that is not ready, and a 5xx as a
 * retryable ProviderError. Then the local providers: the restore switches the published deploy
 * (getSite and the site's public page serve it), an unknown deploy is a 404 and one that is not
 * ready a 409.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localDeploys } from "~/db/schema";
import { localSitePage } from "~/providers/hosting/index.server";
import { createLocalHosting } from "~/providers/hosting/local.server";
import { advanceLocalDeploy } from "~/providers/hosting/local/progress.server";
import { createNetlifyHosting } from "~/providers/hosting/netlify.server";
import type { HostingProvider, HostingProviderName } from "~/providers/hosting/types";
import { createVercelHosting } from "~/providers/hosting/vercel.server";
import { startNetlifyStandIn, type NetlifyStandIn } from "../stand-ins/netlify";
import { withStandIn } from "../stand-ins/hooks";
import { rejection } from "../stand-ins/provider-error";
import { startVercelStandIn, type VercelStandIn } from "../stand-ins/vercel";

const key = () => `rollback-${randomUUID()}`;

describe("Netlify restoreDeployment", () => {
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

  const restoresOf = (siteId: string) =>
    standIn.requests.filter(
      (r) => r.method === "POST" && r.path.startsWith(`/sites/${siteId}/deploys/`),
    );

  /** A site with two ready deploys; the newer one is published. */
  async function siteWithTwoDeploys() {
    const site = await netlify.createSite({ name: "Rollback", idempotencyKey: key() });
    const older = await netlify.triggerDeployment(site.id, { triggerKey: "t1" });
    const newer = await netlify.triggerDeployment(site.id, { triggerKey: "t2" });
    standIn.setDeployState(older.id, "ready");
    standIn.setDeployState(newer.id, "ready");
    expect((await netlify.getSite(site.id)).publishedDeploy?.id).toBe(newer.id);
    return { site, older, newer };
  }

  it("sends POST /sites/{id}/deploys/{deploy_id}/restore with the token and publishes it", async () => {
    const { site, older } = await siteWithTwoDeploys();

    const restored = await netlify.restoreDeployment(site.id, older.id);
    const [sent] = restoresOf(site.id);
    expect(sent.path).toBe(`/sites/${site.id}/deploys/${older.id}/restore`);
    expect(sent.headers.authorization).toBe(`Bearer ${standIn.token}`);
    expect(restored).toMatchObject({ id: older.id, state: "ready", status: "ready" });
    expect(standIn.sites.get(site.id)?.published_deploy_id).toBe(older.id);
    expect((await netlify.getSite(site.id)).publishedDeploy).toEqual({
      id: older.id,
      publishedAt: standIn.deploys.find((d) => d.id === older.id)?.published_at,
    });

    // A retried job restores the same deploy again: the same outcome.
    await expect(netlify.restoreDeployment(site.id, older.id)).resolves.toMatchObject({
      id: older.id,
    });
    expect(restoresOf(site.id)).toHaveLength(2);
  });

  it("an unknown deploy is a 404, one that is not ready Netlify's 422; nothing changes", async () => {
    const { site, newer } = await siteWithTwoDeploys();

    const missing = await rejection(netlify.restoreDeployment(site.id, "0123456789abcdef01234567"));
    expect(missing.details).toMatchObject({ provider: "netlify", status: 404, code: "not_found" });
    expect(missing.retryable).toBe(false);

    // A deploy of another site is not this site's.
    const other = await netlify.createSite({ name: "Other", idempotencyKey: key() });
    const foreign = await netlify.triggerDeployment(other.id, { triggerKey: "f1" });
    standIn.setDeployState(foreign.id, "ready");
    expect((await rejection(netlify.restoreDeployment(site.id, foreign.id))).details.status).toBe(
      404,
    );

    const building = await netlify.triggerDeployment(site.id, { triggerKey: "t3" });
    const refused = await rejection(netlify.restoreDeployment(site.id, building.id));
    expect(refused.details).toMatchObject({ provider: "netlify", status: 422 });
    expect(refused.retryable).toBe(false);
    expect(standIn.sites.get(site.id)?.published_deploy_id).toBe(newer.id);
  });

  it("a 5xx is a retryable ProviderError and leaves the published deploy", async () => {
    const { site, older, newer } = await siteWithTwoDeploys();
    standIn.fail({ method: "POST", path: /\/restore$/, status: 503 });

    const unavailable = await rejection(netlify.restoreDeployment(site.id, older.id));
    expect(unavailable.details).toMatchObject({ provider: "netlify", status: 503 });
    expect(unavailable.retryable).toBe(true);
    expect(standIn.sites.get(site.id)?.published_deploy_id).toBe(newer.id);

    // The retry the job makes later goes through.
    await netlify.restoreDeployment(site.id, older.id);
    expect(standIn.sites.get(site.id)?.published_deploy_id).toBe(older.id);
  });
});

describe("Vercel restoreDeployment", () => {
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

  const promotesOf = (siteId: string) =>
    standIn.requests.filter(
      (r) => r.method === "POST" && r.path.startsWith(`/v10/projects/${siteId}/promote/`),
    );

  /** A project with two ready production deployments; the newer one is production. */
  async function siteWithTwoDeployments() {
    const site = await vercel.createSite({ name: "Rollback", idempotencyKey: key() });
    const older = await vercel.triggerDeployment(site.id, { triggerKey: "t1" });
    const newer = await vercel.triggerDeployment(site.id, { triggerKey: "t2" });
    standIn.setReadyState(older.id, "READY");
    standIn.setReadyState(newer.id, "READY");
    expect((await vercel.getSite(site.id)).publishedDeploy?.id).toBe(newer.id);
    return { site, older, newer };
  }

  it("sends POST /v10/projects/{id}/promote/{deploymentId} for the team and reads it back", async () => {
    const { site, older } = await siteWithTwoDeployments();
    const before = standIn.requests.length;

    const restored = await vercel.restoreDeployment(site.id, older.id);
    const [sent] = promotesOf(site.id);
    expect(sent.path).toBe(`/v10/projects/${site.id}/promote/${older.id}`);
    expect(sent.query.get("teamId")).toBe(TEAM);
    expect(sent.headers.authorization).toBe(`Bearer ${standIn.token}`);
    // The promote answer has no body: the deployment comes from a read right after it.
    const read = standIn.requests.slice(before).at(-1);
    expect(read).toMatchObject({ method: "GET", path: `/v13/deployments/${older.id}` });
    expect(read?.query.get("teamId")).toBe(TEAM);
    expect(restored).toMatchObject({
      id: older.id,
      state: "READY",
      status: "ready",
      target: "production",
    });
    expect(await vercel.getSite(site.id)).toMatchObject({
      publishedDeploy: { id: older.id },
      productionReadyState: "READY",
    });

    // A retried job promotes the same deployment again: the same outcome.
    await expect(vercel.restoreDeployment(site.id, older.id)).resolves.toMatchObject({
      id: older.id,
    });
    expect(promotesOf(site.id)).toHaveLength(2);
  });

  it("an unknown deployment is a 404, one that is not ready Vercel's 409; nothing changes", async () => {
    const { site, newer } = await siteWithTwoDeployments();

    const missing = await rejection(vercel.restoreDeployment(site.id, "dpl_doesnotexist"));
    expect(missing.details).toMatchObject({ provider: "vercel", status: 404, code: "not_found" });
    expect(missing.retryable).toBe(false);

    // A deployment of another project is not this project's.
    const other = await vercel.createSite({ name: "Other", idempotencyKey: key() });
    const foreign = await vercel.triggerDeployment(other.id, { triggerKey: "f1" });
    standIn.setReadyState(foreign.id, "READY");
    expect((await rejection(vercel.restoreDeployment(site.id, foreign.id))).details.status).toBe(
      404,
    );

    const building = await vercel.triggerDeployment(site.id, { triggerKey: "t3" });
    standIn.setReadyState(building.id, "BUILDING");
    const refused = await rejection(vercel.restoreDeployment(site.id, building.id));
    expect(refused.details).toMatchObject({ provider: "vercel", status: 409, code: "conflict" });
    expect(refused.retryable).toBe(false);
    expect(standIn.projects.get(site.id)?.promotedId).toBeNull();
    // Vercel's default still applies: the newest production deployment is production.
    expect((await vercel.getSite(site.id)).publishedDeploy?.id).toBe(newer.id);
  });

  it("a 5xx is a retryable ProviderError and leaves production as it was", async () => {
    const { site, older, newer } = await siteWithTwoDeployments();
    standIn.fail({ method: "POST", path: /\/promote\//, status: 500 });

    const broken = await rejection(vercel.restoreDeployment(site.id, older.id));
    expect(broken.details).toMatchObject({ provider: "vercel", status: 500 });
    expect(broken.retryable).toBe(true);
    expect((await vercel.getSite(site.id)).publishedDeploy?.id).toBe(newer.id);

    await vercel.restoreDeployment(site.id, older.id);
    expect((await vercel.getSite(site.id)).publishedDeploy?.id).toBe(older.id);
  });
});

describe("local providers", () => {
  /** Runs the advance job until the deploy settles, like the worker would. */
  async function settle(hosting: HostingProvider, siteId: string, deployId: string) {
    for (let i = 0; i < 5; i += 1) {
      const deploy = await hosting.getDeployment(siteId, deployId);
      if (deploy.status !== "queued" && deploy.status !== "building") return deploy;
      await advanceLocalDeploy({ deployId, from: deploy.state });
    }
    throw new Error("deploy did not settle");
  }

  it.each(["netlify", "vercel"] as const satisfies readonly HostingProviderName[])(
    "local %s: restoreDeployment publishes an earlier ready deploy again",
    async (name) => {
      const hosting = createLocalHosting(name);
      const site = await hosting.createSite({ name: "Rollback", idempotencyKey: key() });
      const older = await hosting.triggerDeployment(site.id, { triggerKey: "t1" });
      const newer = await hosting.triggerDeployment(site.id, { triggerKey: "t2" });
      await settle(hosting, site.id, older.id);
      await settle(hosting, site.id, newer.id);
      expect((await hosting.getSite(site.id)).publishedDeploy?.id).toBe(newer.id);
      expect((await localSitePage(site.id))?.deploy?.id).toBe(newer.id);

      const restored = await hosting.restoreDeployment(site.id, older.id);
      expect(restored).toMatchObject({ id: older.id, status: "ready" });
      // The site reports it published now, and its public page serves it.
      expect((await hosting.getSite(site.id)).publishedDeploy).toEqual({
        id: older.id,
        publishedAt: restored.updatedAt,
      });
      expect((await localSitePage(site.id))?.deploy).toEqual({
        id: older.id,
        publishedAt: restored.updatedAt,
      });

      // Rolling forward again works the same way.
      await hosting.restoreDeployment(site.id, newer.id);
      expect((await hosting.getSite(site.id)).publishedDeploy?.id).toBe(newer.id);
    },
  );

  it.each(["netlify", "vercel"] as const satisfies readonly HostingProviderName[])(
    "local %s: an unknown deploy is a 404, one that is not ready a 409",
    async (name) => {
      const hosting = createLocalHosting(name);
      const site = await hosting.createSite({ name: "Rollback", idempotencyKey: key() });
      const ready = await hosting.triggerDeployment(site.id, { triggerKey: "t1" });
      await settle(hosting, site.id, ready.id);

      const missing = await rejection(hosting.restoreDeployment(site.id, "no-such-deploy"));
      expect(missing.details).toMatchObject({ status: 404, code: "not_found" });
      expect(
        (await rejection(hosting.restoreDeployment(site.id, "bad id\u0000"))).details,
      ).toMatchObject({ status: 404 });
      expect(
        (await rejection(hosting.restoreDeployment("no-such-site", ready.id))).details.status,
      ).toBe(404);
      // Another site's deploy, and a site of the other vendor, are not found either.
      const other = await hosting.createSite({ name: "Other", idempotencyKey: key() });
      const foreign = await hosting.triggerDeployment(other.id, { triggerKey: "f1" });
      await settle(hosting, other.id, foreign.id);
      expect((await rejection(hosting.restoreDeployment(site.id, foreign.id))).details.status).toBe(
        404,
      );
      const otherVendor = createLocalHosting(name === "netlify" ? "vercel" : "netlify");
      expect(
        (await rejection(otherVendor.restoreDeployment(site.id, ready.id))).details.status,
      ).toBe(404);

      // Still queued: nothing to serve yet.
      const queued = await hosting.triggerDeployment(site.id, { triggerKey: "t2" });
      const notReady = await rejection(hosting.restoreDeployment(site.id, queued.id));
      expect(notReady.details).toMatchObject({
        provider: `local-${name}`,
        status: 409,
        code: "conflict",
      });
      expect(notReady.retryable).toBe(false);

      // A failed deploy never is.
      await db()
        .update(localDeploys)
        .set({ state: name === "netlify" ? "error" : "ERROR" })
        .where(eq(localDeploys.id, queued.id));
      expect((await rejection(hosting.restoreDeployment(site.id, queued.id))).details.status).toBe(
        409,
      );
      expect((await hosting.getSite(site.id)).publishedDeploy?.id).toBe(ready.id);
    },
  );
});
