/**
 * The Vercel adapter (@vercel/sdk) against a stand-in on 127.0.0.1 whose answers are checked
 * with the SDK's own response schemas, beyond the contract every hosting adapter keeps
 * (hosting-contract.test.ts): request paths and payloads, idempotent re-runs after lost
 * answers, the cursors' requests, readyState mapping, and 403/404/409/422/429 (Retry-After,
 * X-RateLimit-Reset).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GetDeploymentsResponseBody$inboundSchema } from "@vercel/sdk/models/getdeploymentsop.js";
import { vendorSiteName } from "~/providers/hosting/status";
import type { HostingProvider } from "~/providers/hosting/types";
import { createVercelHosting, TRIGGER_META_KEY } from "~/providers/hosting/vercel.server";
import { resetEnv } from "~/utils/env.server";
import { sdkSchemaViolations, startVercelStandIn, type VercelStandIn } from "../stand-ins/vercel";
import { rejection } from "../stand-ins/provider-error";

const TEAM = "team_acme";
let standIn: VercelStandIn;
let vercel: HostingProvider;
let counter = 0;

beforeAll(async () => {
  standIn = await startVercelStandIn({ teamId: TEAM });
  // The adapter loads the SDK at its first call (seconds of CPU): here, in the hook's time.
  await import("@vercel/sdk");
  vercel = createVercelHosting({ token: standIn.token, teamId: TEAM, baseUrl: standIn.url });
});

afterEach(() => {
  // Every answer the stand-in gave parsed with the SDK schema without defaults or guesses.
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

async function linkedSite(name = "Acme Store") {
  process.env.SITE_TEMPLATE_REPO = "stackshift/site-template";
  resetEnv();
  return vercel.createSite({ name, idempotencyKey: key() });
}

describe("the stand-in is schema-faithful", () => {
  it("flags bodies the SDK would only accept by defaulting fields", () => {
    const item = {
      uid: "dpl_1",
      url: "a.vercel.app",
      created: 1,
      createdAt: 1,
      readyState: "READY",
      type: "LAMBDAS",
      projectId: "prj_1",
      inspectorUrl: null,
      creator: { uid: "u" },
    };
    const pagination = { count: 1, next: null, prev: null };
    const schema = GetDeploymentsResponseBody$inboundSchema;
    expect(
      sdkSchemaViolations(schema, { deployments: [{ ...item, name: "a" }], pagination }),
    ).toEqual([]);
    expect(sdkSchemaViolations(schema, { deployments: [item], pagination })).toEqual([
      "1 required field(s) missing (defaulted)",
      "1 value(s) of an unexpected type or enum",
    ]);
  });
});

describe("createSite", () => {
  it("looks the project up by name, creates it linked to the template, and re-runs find it", async () => {
    const idempotencyKey = key();
    process.env.SITE_TEMPLATE_REPO = "stackshift/site-template";
    resetEnv();
    const name = vendorSiteName("Acme Store", idempotencyKey);
    const site = await vercel.createSite({ name: "Acme Store", idempotencyKey });
    expect(site).toMatchObject({
      name,
      url: `https://${name}.vercel.app`,
      state: "new",
      ssl: true,
      repoUrl: "https://github.com/stackshift/site-template",
      publishedDeploy: null,
      productionReadyState: null,
      productionAlias: [],
      customDomain: null,
    });
    expect(site.id).toMatch(/^prj_/);
    const create = requestsTo("POST", /^\/v11\/projects$/);
    expect(create).toHaveLength(1);
    expect(create[0].body).toEqual({
      name,
      framework: "nextjs",
      gitRepository: { type: "github", repo: "stackshift/site-template" },
    });
    expect(create[0].query.get("teamId")).toBe(TEAM);
    expect(requestsTo("GET", new RegExp(`^/v9/projects/${name}$`)).length).toBeGreaterThan(0);

    const again = await vercel.createSite({ name: "Acme Store", idempotencyKey });
    expect(again.id).toBe(site.id);
    expect(requestsTo("POST", /^\/v11\/projects$/)).toHaveLength(1);
  });

  it("returns its own project when the create answers 409", async () => {
    const idempotencyKey = key();
    const first = await vercel.createSite({ name: "Race", idempotencyKey });
    standIn.fail({ method: "GET", path: /^\/v9\/projects\//, status: 404 });
    const second = await vercel.createSite({ name: "Race", idempotencyKey });
    expect(second.id).toBe(first.id);
  });
});

describe("deployments", () => {
  it("triggers a production deployment carrying the trigger key, once per key", async () => {
    const site = await linkedSite();
    const deployment = await vercel.triggerDeployment(site.id, {
      triggerKey: "trigger-1",
      title: "First deploy",
    });
    const posts = requestsTo("POST", /^\/v13\/deployments$/);
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toMatchObject({
      name: site.name,
      project: site.id,
      target: "production",
      meta: { [TRIGGER_META_KEY]: "trigger-1", stackshiftTitle: "First deploy" },
      gitSource: { type: "github", ref: "main" },
    });
    expect(deployment).toMatchObject({
      state: "QUEUED",
      status: "queued",
      target: "production",
      context: "production",
      title: "First deploy",
      framework: "next",
    });
    expect(deployment.id).toMatch(/^dpl_/);
    expect(deployment.url).toMatch(/^https:\/\/.+\.vercel\.app$/);
    expect(deployment.permalink).toMatch(/^https:\/\/vercel\.com\//);

    const again = await vercel.triggerDeployment(site.id, { triggerKey: "trigger-1" });
    expect(again.id).toBe(deployment.id);
    expect(requestsTo("POST", /^\/v13\/deployments$/)).toHaveLength(1);
  });

  it("a retried trigger whose first answer was lost does not deploy twice", async () => {
    const site = await linkedSite("Lost answer");
    standIn.fail({
      method: "POST",
      path: /^\/v13\/deployments$/,
      status: 500,
      afterHandling: true,
    });
    const error = await rejection(vercel.triggerDeployment(site.id, { triggerKey: "lost" }));
    expect(error.details).toMatchObject({ provider: "vercel", status: 500 });
    expect(error.retryable).toBe(true);
    const retried = await vercel.triggerDeployment(site.id, { triggerKey: "lost" });
    const ofProject = standIn.deployments.filter((d) => d.projectId === site.id);
    expect(ofProject).toHaveLength(1);
    expect(retried.id).toBe(ofProject[0].id);
  });

  it("maps readyState and shows the production target on the site", async () => {
    const site = await linkedSite("States");
    const deployment = await vercel.triggerDeployment(site.id, { triggerKey: "s" });
    expect((await vercel.getSite(site.id)).productionReadyState).toBe("QUEUED");

    standIn.setReadyState(deployment.id, "BUILDING");
    expect((await vercel.getDeployment(site.id, deployment.id)).status).toBe("building");
    standIn.setReadyState(deployment.id, "READY");
    const ready = await vercel.getDeployment(site.id, deployment.id);
    expect(ready.status).toBe("ready");
    const live = await vercel.getSite(site.id);
    expect(live).toMatchObject({
      state: "READY",
      productionReadyState: "READY",
      productionAlias: [`${site.name}.vercel.app`],
      url: `https://${site.name}.vercel.app`,
      publishedDeploy: { id: deployment.id },
    });
    expect(live.publishedDeploy?.publishedAt).toBe(ready.updatedAt);

    const failing = await vercel.triggerDeployment(site.id, { triggerKey: "e" });
    standIn.setReadyState(failing.id, "ERROR", 'Command "npm run build" exited with 1');
    expect(await vercel.getDeployment(site.id, failing.id)).toMatchObject({
      state: "ERROR",
      status: "error",
      errorMessage: 'Command "npm run build" exited with 1',
    });
    // The previous READY deployment stays the published one.
    expect((await vercel.getSite(site.id)).publishedDeploy?.id).toBe(deployment.id);

    const canceled = await vercel.triggerDeployment(site.id, { triggerKey: "c" });
    standIn.setReadyState(canceled.id, "CANCELED");
    expect((await vercel.getDeployment(site.id, canceled.id)).status).toBe("canceled");
  });

  it("pages with until/since cursors of ten (the paging itself: hosting-contract.test.ts)", async () => {
    const site = await linkedSite("Pages");
    for (let i = 0; i < 11; i += 1) {
      await vercel.triggerDeployment(site.id, { triggerKey: `p${i}` });
    }
    const first = await vercel.listDeployments(site.id, {});
    const next = await vercel.listDeployments(site.id, { next: first.pagination.next! });
    const forward = requestsTo("GET", /^\/v7\/deployments$/).at(-1)!;
    expect(forward.query.get("projectId")).toBe(site.id);
    expect(forward.query.get("limit")).toBe("10");
    expect(forward.query.get("until")).toMatch(/^\d+$/);

    await vercel.listDeployments(site.id, { prev: next.pagination.prev! });
    const backward = requestsTo("GET", /^\/v7\/deployments$/).at(-1)!;
    expect(backward.query.get("since")).toMatch(/^\d+$/);

    const bad = await rejection(vercel.listDeployments(site.id, { next: "not-a-cursor" }));
    expect(bad.details.status).toBe(400);
  });
});

describe("errors become ProviderError", () => {
  it("403 for a bad token or a team it cannot see", async () => {
    const wrong = createVercelHosting({ token: "wrong", teamId: TEAM, baseUrl: standIn.url });
    const badToken = await rejection(wrong.getSite("prj_x"));
    expect(badToken.details).toMatchObject({ provider: "vercel", status: 403, code: "forbidden" });
    expect(badToken.message).toBe("Vercel: Not authorized");
    expect(badToken.retryable).toBe(false);

    const otherTeam = createVercelHosting({
      token: standIn.token,
      teamId: "team_other",
      baseUrl: standIn.url,
    });
    expect((await rejection(otherTeam.getSite("prj_x"))).details.status).toBe(403);
  });

  it("401, 404 and 422 with the vendor's code and message", async () => {
    standIn.fail({
      status: 401,
      body: { error: { code: "unauthorized", message: "Token expired" } },
    });
    expect((await rejection(vercel.getSite("prj_x"))).details).toMatchObject({
      status: 401,
      code: "unauthorized",
    });

    const missing = await rejection(vercel.getSite("prj_missing"));
    expect(missing.details).toMatchObject({ status: 404, code: "not_found" });

    const site = await linkedSite("Invalid");
    standIn.fail({
      method: "POST",
      path: /^\/v13\/deployments$/,
      status: 422,
      body: { error: { code: "invalid_git_source", message: "Repository not found" } },
    });
    const invalid = await rejection(vercel.triggerDeployment(site.id, { triggerKey: "i" }));
    expect(invalid.details).toMatchObject({ status: 422, code: "invalid_git_source" });
    expect(invalid.message).toBe("Vercel: Repository not found");
  });

  it("429 carries retryAfterSeconds from Retry-After, else from X-RateLimit-Reset", async () => {
    standIn.fail({
      status: 429,
      headers: { "Retry-After": "17" },
      body: { error: { code: "rate_limited", message: "Rate limit exceeded" } },
    });
    const limited = await rejection(vercel.getSite("prj_x"));
    expect(limited.details).toMatchObject({
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 17,
    });
    expect(limited.retryable).toBe(true);

    const reset = Math.floor(Date.now() / 1000) + 45;
    standIn.fail({ status: 429, headers: { "X-RateLimit-Reset": String(reset) } });
    const byReset = await rejection(vercel.getSite("prj_x"));
    expect(byReset.details.retryAfterSeconds).toBeGreaterThanOrEqual(40);
    expect(byReset.details.retryAfterSeconds).toBeLessThanOrEqual(45);
  });

  it("5xx, an unexpected body and an unreachable API are retryable", async () => {
    standIn.fail({ status: 503 });
    expect((await rejection(vercel.getSite("prj_x"))).retryable).toBe(true);

    const site = await linkedSite("Garbage");
    standIn.fail({ path: /^\/v9\/projects\//, status: 200, body: { unexpected: true } });
    const garbage = await rejection(vercel.getSite(site.id));
    expect(garbage.details).toMatchObject({ status: 502, code: "invalid_response" });
    expect(garbage.retryable).toBe(true);

    const down = createVercelHosting({ token: "t", baseUrl: "http://127.0.0.1:9" });
    const error = await rejection(down.getSite("prj_x"));
    expect(error.details.status).toBeUndefined();
    expect(error.retryable).toBe(true);
  });
});

describe("custom domains", () => {
  let domains = 0;
  /** A fresh apex domain per test: the stand-in keeps every project's domains. */
  const apex = () => `acme-${(domains += 1)}-${Date.now()}.com`;
  const domainsOf = (projectId: string) =>
    [...standIn.domains.values()].filter((d) => d.projectId === projectId).map((d) => d.name);

  it("adds the domain to the project, with the records for apex and subdomains", async () => {
    const site = await linkedSite("Domains");
    const domain = apex();
    const state = await vercel.setCustomDomain(site.id, domain);
    const add = requestsTo("POST", new RegExp(`^/v10/projects/${site.id}/domains$`));
    expect(add).toHaveLength(1);
    expect(add[0].body).toEqual({ name: domain });
    expect(add[0].query.get("teamId")).toBe(TEAM);
    // Ownership is fine, but the DNS does not point at Vercel yet (the config is misconfigured).
    expect(state).toEqual({
      domain,
      verified: false,
      ssl: false,
      records: [{ type: "A", name: "@", value: "76.76.21.21" }],
    });
    const config = requestsTo("GET", new RegExp(`^/v6/domains/${domain}/config$`)).at(-1);
    expect(config?.query.get("projectIdOrName")).toBe(site.id);

    const other = await linkedSite("Subdomain");
    const shop = await vercel.setCustomDomain(other.id, `shop.${apex()}`);
    // The config's recommendation, without the trailing dot of a fully qualified name.
    expect(shop.records).toEqual([{ type: "CNAME", name: "shop", value: "cname.vercel-dns.com" }]);
  });

  it("lists the TXT record Vercel asks for when another account used the domain", async () => {
    const site = await linkedSite("Claimed");
    const domain = apex();
    standIn.claimedElsewhere.add(domain);
    const state = await vercel.setCustomDomain(site.id, `www.${domain}`);
    const challenge = standIn.domains.get(`www.${domain}`)!.challenge;
    expect(state).toEqual({
      domain: `www.${domain}`,
      verified: false,
      ssl: false,
      records: [
        { type: "CNAME", name: "www", value: "cname.vercel-dns.com" },
        { type: "TXT", name: "_vercel", value: challenge },
      ],
    });

    // Verify answers 400 until the record exists: "not yet", with the records still listed.
    const pending = await vercel.getDomainStatus(site.id, `www.${domain}`);
    expect(pending).toEqual(state);
    expect(
      requestsTo("POST", new RegExp(`^/v9/projects/${site.id}/domains/www\\.${domain}/verify$`)),
    ).toHaveLength(1);

    standIn.pointDns(`www.${domain}`);
    expect(await vercel.getDomainStatus(site.id, `www.${domain}`)).toEqual({
      domain: `www.${domain}`,
      verified: true,
      ssl: true,
      records: [{ type: "CNAME", name: "www", value: "cname.vercel-dns.com" }],
    });
  });

  it("is verified once the DNS points at Vercel; an unknown domain is not found", async () => {
    const site = await linkedSite("Verify");
    const domain = apex();
    await vercel.setCustomDomain(site.id, domain);
    expect(await vercel.getDomainStatus(site.id, domain)).toMatchObject({
      verified: false,
      ssl: false,
    });
    standIn.pointDns(domain);
    expect(await vercel.getDomainStatus(site.id, domain)).toEqual({
      domain,
      verified: true,
      ssl: true,
      records: [{ type: "A", name: "@", value: "76.76.21.21" }],
    });

    const missing = await rejection(vercel.getDomainStatus(site.id, apex()));
    expect(missing.details).toMatchObject({ provider: "vercel", status: 404 });
  });

  it("setting the same domain again is idempotent, also after a lost answer", async () => {
    const site = await linkedSite("Idempotent domain");
    const domain = apex();
    standIn.fail({
      method: "POST",
      path: /^\/v10\/projects\/[^/]+\/domains$/,
      status: 502,
      afterHandling: true,
    });
    const lost = await rejection(vercel.setCustomDomain(site.id, domain));
    expect(lost.retryable).toBe(true);

    // The retry meets Vercel's 409 for its own domain and reads it back.
    const retried = await vercel.setCustomDomain(site.id, domain);
    const again = await vercel.setCustomDomain(site.id, domain);
    expect(again).toEqual(retried);
    expect(retried).toMatchObject({ domain, verified: false });
    expect(
      requestsTo("GET", new RegExp(`^/v9/projects/${site.id}/domains/${domain}$`)),
    ).toHaveLength(2);
    expect(domainsOf(site.id)).toEqual([domain]);
  });

  it("another domain replaces the project's custom domain, keeping its vercel.app one", async () => {
    const site = await linkedSite("Replace");
    const first = apex();
    await vercel.setCustomDomain(site.id, first);
    const second = `www.${apex()}`;
    await vercel.setCustomDomain(site.id, second);
    expect(domainsOf(site.id)).toEqual([second]);
    const deletes = requestsTo("DELETE", new RegExp(`^/v9/projects/${site.id}/domains/`));
    expect(deletes.map((r) => r.path)).toEqual([`/v9/projects/${site.id}/domains/${first}`]);
  });

  it("the site names its custom domain as soon as it is added, and none once it is removed", async () => {
    const site = await linkedSite("Shown");
    expect((await vercel.getSite(site.id)).customDomain).toBeNull();
    const domain = `www.${apex()}`;
    await vercel.setCustomDomain(site.id, domain);
    const shown = await vercel.getSite(site.id);
    expect(shown.customDomain).toBe(domain);
    expect(shown.url).toBe(`https://${domain}`);
    expect(shown.domainAliases).not.toContain(domain);
    await vercel.removeCustomDomain(site.id, domain);
    expect((await vercel.getSite(site.id)).customDomain).toBeNull();
  });

  it("removes the domain, idempotently", async () => {
    const site = await linkedSite("Remove");
    const domain = apex();
    await vercel.setCustomDomain(site.id, domain);
    await vercel.removeCustomDomain(site.id, domain);
    expect(domainsOf(site.id)).toEqual([]);
    // Already gone (404): fine; so is a domain the project never had.
    await vercel.removeCustomDomain(site.id, domain);
    await vercel.removeCustomDomain(site.id, apex());
    expect(
      requestsTo("DELETE", new RegExp(`^/v9/projects/${site.id}/domains/${domain}$`)),
    ).toHaveLength(2);
  });

  it("a domain of another Vercel project is a permanent 409 with a clear message", async () => {
    const owner = await linkedSite("Owner");
    const domain = apex();
    await vercel.setCustomDomain(owner.id, domain);
    const site = await linkedSite("Taker");
    const error = await rejection(vercel.setCustomDomain(site.id, domain));
    expect(error.details).toMatchObject({
      provider: "vercel",
      status: 409,
      code: "domain_already_in_use",
    });
    expect(error.message).toBe(`Vercel: ${domain} is already in use by another Vercel project`);
    expect(error.retryable).toBe(false);
    expect(domainsOf(site.id)).toEqual([]);

    const invalid = await rejection(vercel.setCustomDomain(site.id, "not a domain"));
    expect(invalid.details).toMatchObject({ status: 400, code: "invalid_domain" });
    expect(invalid.retryable).toBe(false);
  });

  it("429 carries Retry-After; 5xx, also from verify, is retryable", async () => {
    const site = await linkedSite("Domain errors");
    const domain = apex();
    standIn.fail({
      method: "POST",
      path: /\/domains$/,
      status: 429,
      headers: { "Retry-After": "17" },
      body: { error: { code: "rate_limited", message: "Rate limit exceeded" } },
    });
    const limited = await rejection(vercel.setCustomDomain(site.id, domain));
    expect(limited.details).toMatchObject({
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 17,
    });
    expect(limited.retryable).toBe(true);

    await vercel.setCustomDomain(site.id, domain);
    standIn.fail({ method: "POST", path: /\/verify$/, status: 500 });
    const broken = await rejection(vercel.getDomainStatus(site.id, domain));
    expect(broken.details.status).toBe(500);
    expect(broken.retryable).toBe(true);

    standIn.fail({ method: "DELETE", path: /\/domains\//, status: 503 });
    expect((await rejection(vercel.removeCustomDomain(site.id, domain))).retryable).toBe(true);
  });
});

describe("environment variables", () => {
  const envOf = (projectId: string) => standIn.projects.get(projectId)!.env;
  const upserts = (projectId: string) =>
    requestsTo("POST", new RegExp(`^/v10/projects/${projectId}/env$`));

  it("upserts an encrypted variable for production and preview", async () => {
    const site = await linkedSite("Env");
    await vercel.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", "true");
    const [post] = upserts(site.id);
    expect(post.body).toEqual({
      key: "STACKSHIFT_ECOMMERCE",
      value: "true",
      type: "encrypted",
      target: ["production", "preview"],
    });
    expect(Object.fromEntries(post.query)).toEqual({ upsert: "true", teamId: TEAM });
    expect(envOf(site.id)).toEqual([
      expect.objectContaining({
        key: "STACKSHIFT_ECOMMERCE",
        value: "true",
        type: "encrypted",
        target: ["production", "preview"],
      }),
    ]);

    // Again, and with a new value: Vercel's upsert keeps one variable.
    await vercel.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", "true");
    await vercel.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", "false");
    expect(upserts(site.id)).toHaveLength(3);
    expect(envOf(site.id).map((e) => [e.key, e.value])).toEqual([
      ["STACKSHIFT_ECOMMERCE", "false"],
    ]);
  });

  it("removes every production or preview variable of the key, idempotently", async () => {
    const site = await linkedSite("Env remove");
    await vercel.setEnvironmentVariable(site.id, "STACKSHIFT_SOCIAL", "1");
    await vercel.setEnvironmentVariable(site.id, "STACKSHIFT_OTHER", "1");
    // Someone keeps a value of their own for `vercel dev`: not one the builds read.
    envOf(site.id).push({
      id: "dev-only",
      key: "STACKSHIFT_SOCIAL",
      value: "local",
      type: "plain",
      target: ["development"],
      createdAt: 1,
      updatedAt: 1,
    });
    const [social] = envOf(site.id);

    await vercel.setEnvironmentVariable(site.id, "STACKSHIFT_SOCIAL", null);
    const list = requestsTo("GET", new RegExp(`^/v10/projects/${site.id}/env$`));
    expect(list.at(-1)?.query.get("teamId")).toBe(TEAM);
    const deletes = requestsTo("DELETE", new RegExp(`^/v9/projects/${site.id}/env/`));
    expect(deletes.map((r) => r.path)).toEqual([`/v9/projects/${site.id}/env/${social.id}`]);
    expect(envOf(site.id).map((e) => [e.key, e.target])).toEqual([
      ["STACKSHIFT_OTHER", ["production", "preview"]],
      ["STACKSHIFT_SOCIAL", ["development"]],
    ]);

    // Nothing left to delete: a list, no delete; a delete answering 404 was already gone.
    await vercel.setEnvironmentVariable(site.id, "STACKSHIFT_SOCIAL", null);
    expect(requestsTo("DELETE", new RegExp(`^/v9/projects/${site.id}/env/`))).toHaveLength(1);
    standIn.fail({ method: "DELETE", path: /\/env\//, status: 404 });
    await vercel.setEnvironmentVariable(site.id, "STACKSHIFT_OTHER", null);
    expect(envOf(site.id).map((e) => e.key)).toEqual(["STACKSHIFT_OTHER", "STACKSHIFT_SOCIAL"]);
  });

  it("a variable Vercel refuses inside its 201 answer is a permanent conflict", async () => {
    const site = await linkedSite("Env refused");
    standIn.fail({
      method: "POST",
      path: /\/env$/,
      status: 201,
      body: {
        failed: [
          {
            error: {
              code: "ENV_CONFLICT",
              message: "A variable with the name `STACKSHIFT_GPT` already exists",
              key: "STACKSHIFT_GPT",
            },
          },
        ],
      },
    });
    const error = await rejection(vercel.setEnvironmentVariable(site.id, "STACKSHIFT_GPT", "1"));
    expect(error.details).toMatchObject({ provider: "vercel", status: 409, code: "ENV_CONFLICT" });
    expect(error.message).toBe("Vercel: A variable with the name `STACKSHIFT_GPT` already exists");
    expect(error.retryable).toBe(false);
  });

  it("429 carries Retry-After; 5xx is retryable; setting on an unknown project is a permanent 404", async () => {
    const site = await linkedSite("Env errors");
    standIn.fail({
      method: "POST",
      path: /\/env$/,
      status: 429,
      headers: { "Retry-After": "12" },
      body: { error: { code: "rate_limited", message: "Rate limit exceeded" } },
    });
    const limited = await rejection(vercel.setEnvironmentVariable(site.id, "A", "1"));
    expect(limited.details).toMatchObject({
      provider: "vercel",
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 12,
    });
    expect(limited.retryable).toBe(true);

    standIn.fail({ method: "GET", path: /\/env$/, status: 502 });
    const unavailable = await rejection(vercel.setEnvironmentVariable(site.id, "A", null));
    expect(unavailable.details.status).toBe(502);
    expect(unavailable.retryable).toBe(true);

    const missing = await rejection(vercel.setEnvironmentVariable("prj_missing", "A", "1"));
    expect(missing.details).toMatchObject({ status: 404, code: "not_found" });
    expect(missing.retryable).toBe(false);
    // A project that is gone has nothing to remove.
    await expect(vercel.setEnvironmentVariable("prj_missing", "A", null)).resolves.toBeUndefined();
  });
});
