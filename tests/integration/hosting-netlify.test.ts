/**
 * The Netlify adapter (@netlify/api) against a stand-in on 127.0.0.1 built from the swagger,
 * beyond the contract every hosting adapter keeps (hosting-contract.test.ts): request paths and
 * payloads, idempotent re-runs after lost answers, and the mapping of
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

  it("asks for a numbered page of ten (the paging itself: hosting-contract.test.ts)", async () => {
    const site = await netlify.createSite({ name: "Pages", idempotencyKey: key() });
    await netlify.triggerDeployment(site.id, { triggerKey: "p" });
    await netlify.listDeployments(site.id, { page: 3 });
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

describe("custom domains", () => {
  let domains = 0;
  /** A fresh apex domain per test: the stand-in keeps every site's domain. */
  const apex = () => `acme-${(domains += 1)}-${Date.now()}.com`;

  it("sets an apex domain with its www alias, and gives the records for apex and subdomains", async () => {
    const site = await netlify.createSite({ name: "Domains", idempotencyKey: key() });
    const domain = apex();
    const state = await netlify.setCustomDomain(site.id, domain);
    const patch = requestsTo("PATCH", new RegExp(`^/sites/${site.id}$`));
    expect(patch.at(-1)?.body).toEqual({
      custom_domain: domain,
      domain_aliases: [`www.${domain}`],
    });
    // The certificate was asked for and refused: the DNS does not point at Netlify yet.
    expect(requestsTo("POST", new RegExp(`^/sites/${site.id}/ssl$`))).toHaveLength(1);
    expect(state).toEqual({
      domain,
      verified: false,
      ssl: false,
      records: [
        { type: "A", name: "@", value: "75.2.60.5" },
        { type: "CNAME", name: "www", value: `${site.name}.netlify.app` },
      ],
    });
    expect(await netlify.getSite(site.id)).toMatchObject({
      customDomain: domain,
      domainAliases: [`www.${domain}`],
      ssl: false,
    });

    const other = await netlify.createSite({ name: "Subdomain", idempotencyKey: key() });
    const shop = await netlify.setCustomDomain(other.id, `shop.${apex()}`);
    expect(shop.records).toEqual([
      { type: "CNAME", name: "shop", value: `${other.name}.netlify.app` },
    ]);
    expect(requestsTo("PATCH", new RegExp(`^/sites/${other.id}$`)).at(-1)?.body).toEqual({
      custom_domain: shop.domain,
      domain_aliases: [],
    });
    const deep = await netlify.setCustomDomain(other.id, `eu.shop.${apex()}`);
    expect(deep.records).toEqual([
      { type: "CNAME", name: "eu.shop", value: `${other.name}.netlify.app` },
    ]);
  });

  it("another domain replaces the custom domain and its www alias", async () => {
    const site = await netlify.createSite({ name: "Replace domain", idempotencyKey: key() });
    const domain = apex();
    await netlify.setCustomDomain(site.id, domain);
    expect(standIn.sites.get(site.id)).toMatchObject({
      custom_domain: domain,
      domain_aliases: [`www.${domain}`],
    });
    const replacement = `www.${apex()}`;
    await netlify.setCustomDomain(site.id, replacement);
    expect(standIn.sites.get(site.id)).toMatchObject({
      custom_domain: replacement,
      domain_aliases: [],
    });
  });

  it("is pending until the DNS points at Netlify, then verified with a certificate", async () => {
    const site = await netlify.createSite({ name: "Verify", idempotencyKey: key() });
    const domain = apex();
    await netlify.setCustomDomain(site.id, domain);
    const ssl = new RegExp(`^/sites/${site.id}/ssl$`);

    const pending = await netlify.getDomainStatus(site.id, domain);
    expect(pending).toMatchObject({ domain, verified: false, ssl: false });
    expect(pending.records).toHaveLength(2);
    expect(requestsTo("POST", ssl)).toHaveLength(2);

    standIn.pointDns(domain, `www.${domain}`);
    const verified = await netlify.getDomainStatus(site.id, domain);
    expect(verified).toMatchObject({ domain, verified: true, ssl: true });
    expect(requestsTo("POST", ssl)).toHaveLength(3);
    expect((await netlify.getSite(site.id)).ssl).toBe(true);

    // With the certificate live, a status check does not ask for another.
    expect(await netlify.getDomainStatus(site.id, domain)).toEqual(verified);
    expect(requestsTo("POST", ssl)).toHaveLength(3);

    const elsewhere = await rejection(netlify.getDomainStatus(site.id, apex()));
    expect(elsewhere.details).toMatchObject({ provider: "netlify", status: 404 });
  });

  it("a domain already set up is verified as soon as it is set", async () => {
    const site = await netlify.createSite({ name: "Ready DNS", idempotencyKey: key() });
    const domain = `blog.${apex()}`;
    standIn.pointDns(domain);
    expect(await netlify.setCustomDomain(site.id, domain)).toMatchObject({
      verified: true,
      ssl: true,
    });
  });

  it("removes only its own domain, idempotently", async () => {
    const site = await netlify.createSite({ name: "Remove", idempotencyKey: key() });
    const domain = apex();
    await netlify.setCustomDomain(site.id, domain);
    const patches = () => requestsTo("PATCH", new RegExp(`^/sites/${site.id}$`)).length;
    const before = patches();

    // Another domain than the site's: nothing to do.
    await netlify.removeCustomDomain(site.id, apex());
    expect(patches()).toBe(before);
    expect(standIn.sites.get(site.id)?.custom_domain).toBe(domain);

    await netlify.removeCustomDomain(site.id, domain);
    expect(requestsTo("PATCH", new RegExp(`^/sites/${site.id}$`)).at(-1)?.body).toEqual({
      custom_domain: null,
      domain_aliases: [],
    });
    expect(await netlify.getSite(site.id)).toMatchObject({
      customDomain: null,
      domainAliases: [],
    });

    await netlify.removeCustomDomain(site.id, domain);
    expect(patches()).toBe(before + 1);
    // A site that no longer exists has no domain either.
    await expect(netlify.removeCustomDomain("gone", domain)).resolves.toBeUndefined();
  });

  it("a refused domain (422: another site has it) is a permanent ProviderError", async () => {
    const owner = await netlify.createSite({ name: "Owner", idempotencyKey: key() });
    const domain = apex();
    await netlify.setCustomDomain(owner.id, domain);
    const site = await netlify.createSite({ name: "Taker", idempotencyKey: key() });
    const error = await rejection(netlify.setCustomDomain(site.id, domain));
    expect(error.details).toMatchObject({
      provider: "netlify",
      status: 422,
      code: "unprocessable",
    });
    expect(error.message).toContain("already taken");
    expect(error.retryable).toBe(false);
    expect(standIn.sites.get(site.id)?.custom_domain).toBeNull();
  });

  it("a certificate request still rate limited after the SDK's retries carries Retry-After", async () => {
    const site = await netlify.createSite({ name: "Domain rate", idempotencyKey: key() });
    const domain = apex();
    const now = Math.floor(Date.now() / 1000);
    // The SDK retries a 429 five times (1 s apart when the reset is due), then gives up.
    standIn.fail({
      method: "POST",
      path: /\/ssl$/,
      status: 429,
      times: 6,
      headers: { "X-RateLimit-Reset": String(now), "Retry-After": "30" },
    });
    const error = await rejection(netlify.setCustomDomain(site.id, domain));
    expect(error.details).toMatchObject({
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 30,
    });
    expect(error.retryable).toBe(true);
    // The domain was set; the retried job finds it and asks for the certificate again.
    expect(await netlify.setCustomDomain(site.id, domain)).toMatchObject({ verified: false });
  });

  it("5xx on the domain or the certificate is retryable (never 'not verified yet')", async () => {
    const site = await netlify.createSite({ name: "Domain 5xx", idempotencyKey: key() });
    const domain = apex();
    standIn.fail({ method: "PATCH", status: 503, body: { code: 503, message: "Unavailable" } });
    const patch = await rejection(netlify.setCustomDomain(site.id, domain));
    expect(patch.details).toMatchObject({ status: 503, code: "vendor_unavailable" });
    expect(patch.retryable).toBe(true);

    await netlify.setCustomDomain(site.id, domain);
    standIn.fail({ method: "POST", path: /\/ssl$/, status: 500 });
    const ssl = await rejection(netlify.getDomainStatus(site.id, domain));
    expect(ssl.details.status).toBe(500);
    expect(ssl.retryable).toBe(true);
  });
});

describe("environment variables", () => {
  const envPath = (key?: string) => new RegExp(`^/accounts/stackshift/env${key ? `/${key}` : ""}$`);
  const writes = (siteId: string) =>
    standIn.requests.filter(
      (r) =>
        ["POST", "PUT", "PATCH", "DELETE"].includes(r.method) &&
        r.path.startsWith("/accounts/") &&
        r.query.get("site_id") === siteId,
    );
  const contexts = (value: string) =>
    ["production", "deploy-preview", "branch-deploy"].map((context) => ({ context, value }));

  it("sets a site variable for production and previews, once; a new value replaces it", async () => {
    const site = await netlify.createSite({ name: "Env", idempotencyKey: key() });
    await netlify.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", "true");
    const [create] = writes(site.id);
    expect(create).toMatchObject({ method: "POST" });
    expect(create.path).toMatch(envPath());
    expect(create.body).toEqual([
      {
        key: "STACKSHIFT_ECOMMERCE",
        scopes: ["builds", "functions", "runtime", "post-processing"],
        values: contexts("true"),
      },
    ]);
    expect(standIn.sites.get(site.id)?.env.get("STACKSHIFT_ECOMMERCE")).toMatchObject({
      scopes: ["builds", "functions", "runtime", "post-processing"],
      values: contexts("true").map((v) => expect.objectContaining(v)),
    });

    // The same value again (a re-run): read, no write.
    await netlify.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", "true");
    expect(writes(site.id)).toHaveLength(1);
    expect(requestsTo("GET", envPath("STACKSHIFT_ECOMMERCE")).at(-1)?.query.get("site_id")).toBe(
      site.id,
    );

    await netlify.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", "false");
    const update = writes(site.id).at(-1);
    expect(update).toMatchObject({ method: "PUT" });
    expect(update?.path).toMatch(envPath("STACKSHIFT_ECOMMERCE"));
    expect(update?.body).toEqual({
      key: "STACKSHIFT_ECOMMERCE",
      scopes: ["builds", "functions", "runtime", "post-processing"],
      values: contexts("false"),
    });
    expect(
      standIn.sites
        .get(site.id)
        ?.env.get("STACKSHIFT_ECOMMERCE")
        ?.values.map((v) => v.value),
    ).toEqual(["false", "false", "false"]);
  });

  it("adds the builds scope to a variable the builds do not read", async () => {
    const site = await netlify.createSite({ name: "Env scopes", idempotencyKey: key() });
    standIn.sites.get(site.id)!.env.set("STACKSHIFT_GPT", {
      key: "STACKSHIFT_GPT",
      scopes: ["functions"],
      values: contexts("on").map((v) => ({ id: "v", ...v })),
      updated_at: new Date().toISOString(),
    });
    await netlify.setEnvironmentVariable(site.id, "STACKSHIFT_GPT", "on");
    expect(writes(site.id).at(-1)?.body).toEqual({
      key: "STACKSHIFT_GPT",
      scopes: ["functions", "builds"],
      values: contexts("on"),
    });
  });

  it("removes a variable, idempotently (also one never set, or of a site that is gone)", async () => {
    const site = await netlify.createSite({ name: "Env remove", idempotencyKey: key() });
    await netlify.setEnvironmentVariable(site.id, "STACKSHIFT_SOCIAL", "1");
    await netlify.setEnvironmentVariable(site.id, "STACKSHIFT_OTHER", "1");
    await netlify.setEnvironmentVariable(site.id, "STACKSHIFT_SOCIAL", null);
    const removal = writes(site.id).at(-1);
    expect(removal).toMatchObject({ method: "DELETE" });
    expect(removal?.path).toMatch(envPath("STACKSHIFT_SOCIAL"));
    expect([...standIn.sites.get(site.id)!.env.keys()]).toEqual(["STACKSHIFT_OTHER"]);

    await netlify.setEnvironmentVariable(site.id, "STACKSHIFT_SOCIAL", null);
    await netlify.setEnvironmentVariable(site.id, "NEVER_SET", null);
    await expect(netlify.setEnvironmentVariable("gone", "X", null)).resolves.toBeUndefined();
    expect([...standIn.sites.get(site.id)!.env.keys()]).toEqual(["STACKSHIFT_OTHER"]);
  });

  it("429 after the SDK's own retries carries Retry-After and is retryable", async () => {
    const site = await netlify.createSite({ name: "Env rate", idempotencyKey: key() });
    const now = Math.floor(Date.now() / 1000);
    // The SDK retries a 429 five times (1 s apart when the reset is due), then gives up.
    standIn.fail({
      method: "GET",
      path: envPath("STACKSHIFT_E2E"),
      status: 429,
      times: 6,
      headers: { "X-RateLimit-Reset": String(now), "Retry-After": "30" },
    });
    const error = await rejection(netlify.setEnvironmentVariable(site.id, "STACKSHIFT_E2E", "1"));
    expect(error.details).toMatchObject({
      provider: "netlify",
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 30,
    });
    expect(error.retryable).toBe(true);
  });

  it("5xx is retryable; an unknown site or a refused account is permanent", async () => {
    const site = await netlify.createSite({ name: "Env errors", idempotencyKey: key() });
    standIn.fail({ method: "POST", path: envPath(), status: 503 });
    const unavailable = await rejection(netlify.setEnvironmentVariable(site.id, "A", "1"));
    expect(unavailable.details).toMatchObject({ status: 503, code: "vendor_unavailable" });
    expect(unavailable.retryable).toBe(true);

    const missing = await rejection(netlify.setEnvironmentVariable("no-such-site", "A", "1"));
    expect(missing.details).toMatchObject({ provider: "netlify", status: 404 });
    expect(missing.retryable).toBe(false);

    standIn.fail({
      method: "DELETE",
      path: envPath("A"),
      status: 403,
      body: { code: 403, message: "You don't have permission to manage environment variables" },
    });
    const forbidden = await rejection(netlify.setEnvironmentVariable(site.id, "A", null));
    expect(forbidden.details).toMatchObject({ status: 403, code: "forbidden" });
    expect(forbidden.message).toContain("environment variables");
    expect(forbidden.retryable).toBe(false);
  });
});
