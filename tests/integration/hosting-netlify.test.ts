/**
 * The Netlify adapter (@netlify/api) against a stand-in on 127.0.0.1 built from the swagger:
 * request paths and payloads, idempotent re-runs, page-numbered deploys, and the mapping of
 * 401/403/404/422/429 (with X-RateLimit-Reset) and 5xx to ProviderError.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createNetlifyHosting } from "~/providers/hosting/netlify.server";
import { vendorSiteName } from "~/providers/hosting/status";
import type { HostingProvider } from "~/providers/hosting/types";
import { resetEnv } from "~/utils/env.server";
import {
  operation,
  startNetlifyStandIn,
  swaggerViolations,
  type NetlifyStandIn,
} from "../stand-ins/netlify";
import { rejection } from "../stand-ins/provider-error";

let standIn: NetlifyStandIn;
let netlify: HostingProvider;
let counter = 0;

beforeAll(async () => {
  standIn = await startNetlifyStandIn();
  netlify = createNetlifyHosting({ token: standIn.token, baseUrl: standIn.url });
});

afterEach(() => {
  // Every answer the stand-in gave and every body the adapter sent fits the swagger.
  expect(standIn.violations).toEqual([]);
  delete process.env.SITE_TEMPLATE_REPO;
  resetEnv();
});

afterAll(async () => {
  await standIn.close();
});

const key = () => `key-${(counter += 1)}-${Date.now()}`;
const requestsTo = (method: string, path: RegExp) =>
  standIn.requests.filter((r) => r.method === method && path.test(r.path));

describe("the stand-in follows the swagger", () => {
  it("flags fields and types the swagger does not define", () => {
    const schema = operation("/sites/{site_id}", "get").responses!["200"].schema!;
    expect(swaggerViolations(schema, { id: "x", name: "y", ssl: true })).toEqual([]);
    expect(swaggerViolations(schema, { id: "x", made_up: 1 })).toEqual([
      "$.made_up: not in the swagger",
    ]);
    expect(swaggerViolations(schema, { ssl: "yes" })).toEqual(["$.ssl: expected boolean"]);
  });
});

describe("createSite", () => {
  it("creates the site with the template repo, and a re-run finds it by name", async () => {
    process.env.SITE_TEMPLATE_REPO = "stackshift/site-template";
    resetEnv();
    const idempotencyKey = key();
    const name = vendorSiteName("Acme Store", idempotencyKey);
    const site = await netlify.createSite({ name: "Acme Store", idempotencyKey });
    expect(site).toMatchObject({
      name,
      url: `https://${name}.netlify.app`,
      state: "current",
      ssl: true,
      repoUrl: "https://github.com/stackshift/site-template",
      publishedDeploy: null,
      productionReadyState: null,
    });
    const posts = requestsTo("POST", /^\/sites$/);
    expect(posts.at(-1)?.body).toEqual({
      name,
      repo: {
        provider: "github",
        repo_path: "stackshift/site-template",
        repo_branch: "main",
        repo_url: "https://github.com/stackshift/site-template",
      },
    });
    const lookup = requestsTo("GET", /^\/sites$/).at(-1);
    expect(lookup?.query.get("name")).toBe(name);

    const again = await netlify.createSite({ name: "Acme Store", idempotencyKey });
    expect(again.id).toBe(site.id);
    expect(requestsTo("POST", /^\/sites$/)).toHaveLength(posts.length);
  });

  it("returns its own site when the name was taken meanwhile (422 on create)", async () => {
    const idempotencyKey = key();
    const first = await netlify.createSite({ name: "Race", idempotencyKey });
    // The lookup misses (the other run's create was not visible yet); the create says 422.
    standIn.fail({ method: "GET", path: /^\/sites$/, status: 200, body: [] });
    const second = await netlify.createSite({ name: "Race", idempotencyKey });
    expect(second.id).toBe(first.id);
  });

  it("creates in the account when an account slug is set", async () => {
    const scoped = createNetlifyHosting({
      token: standIn.token,
      baseUrl: standIn.url,
      accountSlug: "acme-agency",
    });
    const site = await scoped.createSite({ name: "Team site", idempotencyKey: key() });
    expect(requestsTo("POST", /^\/acme-agency\/sites$/)).toHaveLength(1);
    expect(standIn.sites.get(site.id)?.account_slug).toBe("acme-agency");
    expect((await scoped.createSite({ name: "Team site", idempotencyKey: key() })).id).not.toBe(
      site.id,
    );
  });
});

describe("deployments", () => {
  it("triggers a build titled with the trigger key, once per key", async () => {
    const site = await netlify.createSite({ name: "Deploys", idempotencyKey: key() });
    const deploy = await netlify.triggerDeployment(site.id, {
      triggerKey: "trigger-1",
      title: "First deploy",
    });
    const build = requestsTo("POST", new RegExp(`^/sites/${site.id}/builds$`));
    expect(build).toHaveLength(1);
    expect(build[0].query.get("title")).toBe("First deploy [stackshift:trigger-1]");
    expect(deploy).toMatchObject({
      state: "enqueued",
      status: "queued",
      title: "First deploy",
      context: "production",
      branch: "main",
      framework: "next",
      target: null,
      meta: null,
    });
    expect(deploy.deploySslUrl).toBe(`https://${deploy.id}--${site.name}.netlify.app`);
    expect(deploy.permalink).toBe(deploy.deploySslUrl);
    expect(deploy.buildId).toMatch(/^[0-9a-f]{24}$/);

    const again = await netlify.triggerDeployment(site.id, { triggerKey: "trigger-1" });
    expect(again.id).toBe(deploy.id);
    expect(requestsTo("POST", new RegExp(`^/sites/${site.id}/builds$`))).toHaveLength(1);
  });

  it("a retried trigger whose first answer was lost does not deploy twice", async () => {
    const site = await netlify.createSite({ name: "Lost answer", idempotencyKey: key() });
    standIn.fail({ method: "POST", path: /\/builds$/, status: 502, afterHandling: true });
    const error = await rejection(netlify.triggerDeployment(site.id, { triggerKey: "lost" }));
    expect(error.details).toMatchObject({ provider: "netlify", status: 502 });
    expect(error.retryable).toBe(true);

    const retried = await netlify.triggerDeployment(site.id, { triggerKey: "lost" });
    const ofSite = standIn.deploys.filter((d) => d.site_id === site.id);
    expect(ofSite).toHaveLength(1);
    expect(retried.id).toBe(ofSite[0].id);
  });

  it("reads deploy states and the published deploy", async () => {
    const site = await netlify.createSite({ name: "States", idempotencyKey: key() });
    const deploy = await netlify.triggerDeployment(site.id, { triggerKey: "s" });
    standIn.setDeployState(deploy.id, "building");
    expect(await netlify.getDeployment(site.id, deploy.id)).toMatchObject({
      state: "building",
      status: "building",
    });
    standIn.setDeployState(deploy.id, "ready");
    const ready = await netlify.getDeployment(site.id, deploy.id);
    expect(ready.status).toBe("ready");
    const published = await netlify.getSite(site.id);
    expect(published.publishedDeploy).toEqual({ id: deploy.id, publishedAt: ready.updatedAt });

    const failed = await netlify.triggerDeployment(site.id, { triggerKey: "f" });
    standIn.setDeployState(failed.id, "error", "Build script returned non-zero exit code: 2");
    expect(await netlify.getDeployment(site.id, failed.id)).toMatchObject({
      status: "error",
      errorMessage: "Build script returned non-zero exit code: 2",
    });
  });

  it("lists deploys by page number, newest first, without gaps or duplicates", async () => {
    const site = await netlify.createSite({ name: "Pages", idempotencyKey: key() });
    const created: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      created.push((await netlify.triggerDeployment(site.id, { triggerKey: `p${i}` })).id);
    }
    const seen: string[] = [];
    const paginations = [];
    let page: number | null = 1;
    while (page) {
      const result = await netlify.listDeployments(site.id, { page });
      seen.push(...result.results.map((d) => d.id));
      paginations.push(result.pagination);
      page = result.pagination.next ? Number(result.pagination.next) : null;
    }
    expect(seen).toEqual(created.reverse());
    expect(paginations).toEqual([
      { prev: null, next: "2" },
      { prev: "1", next: "3" },
      { prev: "2", next: null },
    ]);
    const last = requestsTo("GET", new RegExp(`^/sites/${site.id}/deploys$`)).at(-1);
    expect(Object.fromEntries(last!.query)).toEqual({ page: "3", per_page: "10" });
  });
});

describe("errors become ProviderError", () => {
  it("401 for a bad token", async () => {
    const wrong = createNetlifyHosting({ token: "wrong", baseUrl: standIn.url });
    const error = await rejection(wrong.getSite("any"));
    expect(error.details).toMatchObject({ provider: "netlify", status: 401, code: "unauthorized" });
    expect(error.message).toContain("Access Denied");
    expect(error.retryable).toBe(false);
  });

  it("403, 404 and 422 with the vendor's message", async () => {
    const site = await netlify.createSite({ name: "Errors", idempotencyKey: key() });
    standIn.fail({
      path: new RegExp(`^/sites/${site.id}$`),
      status: 403,
      body: { code: 403, message: "You don't have permission to access this site" },
    });
    const forbidden = await rejection(netlify.getSite(site.id));
    expect(forbidden.details).toMatchObject({ status: 403, code: "forbidden" });
    expect(forbidden.message).toBe("Netlify: You don't have permission to access this site");

    const missing = await rejection(netlify.getDeployment(site.id, "nope"));
    expect(missing.details).toMatchObject({ status: 404, code: "not_found" });

    standIn.fail({
      method: "POST",
      path: /\/builds$/,
      status: 422,
      body: { code: 422, message: "Site has no linked repository" },
    });
    const invalid = await rejection(netlify.triggerDeployment(site.id, { triggerKey: "x" }));
    expect(invalid.details).toMatchObject({ status: 422, code: "unprocessable" });
    expect(invalid.retryable).toBe(false);
  });

  it("waits out a single 429 (the SDK retries at X-RateLimit-Reset)", async () => {
    const site = await netlify.createSite({ name: "Rate once", idempotencyKey: key() });
    standIn.fail({
      path: new RegExp(`^/sites/${site.id}$`),
      status: 429,
      headers: { "X-RateLimit-Reset": String(Math.floor(Date.now() / 1000)) },
    });
    expect((await netlify.getSite(site.id)).id).toBe(site.id);
  });

  it("429 after the SDK's own retries carries retryAfterSeconds from X-RateLimit-Reset", async () => {
    const site = await netlify.createSite({ name: "Rate limited", idempotencyKey: key() });
    const path = new RegExp(`^/sites/${site.id}$`);
    const now = Math.floor(Date.now() / 1000);
    // The SDK retries 5 times (1 s apart when the reset is due); the 6th answer is ours to map.
    standIn.fail({ path, status: 429, times: 5, headers: { "X-RateLimit-Reset": String(now) } });
    standIn.fail({ path, status: 429, headers: { "X-RateLimit-Reset": String(now + 40) } });
    const error = await rejection(netlify.getSite(site.id));
    expect(error.details).toMatchObject({ status: 429, code: "rate_limited" });
    expect(error.details.retryAfterSeconds).toBeGreaterThanOrEqual(30);
    expect(error.details.retryAfterSeconds).toBeLessThanOrEqual(40);
    expect(error.retryable).toBe(true);
  });

  it("5xx and an unreachable API are retryable", async () => {
    standIn.fail({ status: 503, body: { code: 503, message: "Service Unavailable" } });
    const unavailable = await rejection(netlify.getSite("any"));
    expect(unavailable.details.status).toBe(503);
    expect(unavailable.retryable).toBe(true);

    const down = createNetlifyHosting({ token: "t", baseUrl: "http://127.0.0.1:9/api/v1" });
    const error = await rejection(down.getSite("any"));
    expect(error.details.status).toBeUndefined();
    expect(error.retryable).toBe(true);
  });
});
