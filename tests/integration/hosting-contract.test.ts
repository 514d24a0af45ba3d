/**
 * The hosting contract (decision 009: the local providers behave like the vendors): the same
 * cases run against the local provider in each vendor's flavour and against each vendor adapter
 * with its stand-in on 127.0.0.1. Idempotent creates and triggers, a deploy's way to ready or
 * error and the published deploy, the adapter's paging, custom domains from set to verified to
 * removed (read back through getDomainStatus: the Vercel adapter's getSite names a custom
 * domain only from the project's production aliases), environment variables, and the 404 of
 * what does not exist. What only one adapter does
 * (request payloads, the vendor's records and rate-limit headers, the local hooks and public
 * site) stays in hosting-local / hosting-netlify / hosting-vercel.test.ts.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localSites } from "~/db/schema";
import { createLocalHosting } from "~/providers/hosting/local.server";
import { advanceLocalDeploy } from "~/providers/hosting/local/progress.server";
import { createNetlifyHosting } from "~/providers/hosting/netlify.server";
import type { HostingProvider, HostingProviderName } from "~/providers/hosting/types";
import { createVercelHosting } from "~/providers/hosting/vercel.server";
import { resetEnv } from "~/utils/env.server";
import { startNetlifyStandIn, type NetlifyStandIn } from "../stand-ins/netlify";
import { rejection } from "../stand-ins/provider-error";
import { startVercelStandIn, type VercelStandIn } from "../stand-ins/vercel";

/** What the suite needs of an adapter beyond the interface: the vendor's side of the world. */
type HostingDriver = {
  label: string;
  /** How the adapter pages deployments: Netlify's numbers or Vercel's cursors. */
  paging: HostingProviderName;
  start(): Promise<HostingProvider>;
  stop(): Promise<void>;
  /** Answers or requests that broke the vendor's contract since the last call. */
  violations(): unknown[];
  /** Moves a deploy on to ready or error, as the vendor's build would. */
  finish(siteId: string, deployId: string, outcome: "ready" | "error"): Promise<void>;
  /** Makes the domain's DNS point at the provider: the next status check verifies it. */
  pointDns(siteId: string, domain: string): Promise<void>;
  /** A domain this provider refuses for `siteId` (taken elsewhere, or the local hook). */
  refusedDomain(siteId: string, apex: string): Promise<string>;
  /** The production value of each of the site's environment variables, as the provider holds them. */
  env(siteId: string): Promise<Record<string, string>>;
};

function localDriver(name: HostingProviderName): HostingDriver {
  const hosting = createLocalHosting(name);
  return {
    label: `local ${name}`,
    paging: name,
    start: async () => hosting,
    stop: async () => {},
    violations: () => [],
    async finish(siteId, deployId, outcome) {
      if (outcome === "error") {
        process.env.LOCAL_DEPLOY_FAILURE_RATE = "1";
        resetEnv();
      }
      try {
        // The advance job's handler, run as the worker would run it: each step once.
        for (let i = 0; i < 5; i += 1) {
          const deploy = await hosting.getDeployment(siteId, deployId);
          if (deploy.status !== "queued" && deploy.status !== "building") return;
          await advanceLocalDeploy({ deployId, from: deploy.state });
        }
        throw new Error("deploy did not settle");
      } finally {
        delete process.env.LOCAL_DEPLOY_FAILURE_RATE;
        resetEnv();
      }
    },
    async pointDns(siteId) {
      // The local provider's DNS is time: verified LOCAL_DOMAIN_VERIFY_SECONDS (5) after set.
      await db()
        .update(localSites)
        .set({ domainSetAt: new Date(Date.now() - 60_000) })
        .where(eq(localSites.id, siteId));
    },
    refusedDomain: async (_siteId, apex) => `fail-domain.${apex}`,
    async env(siteId) {
      const [row] = await db()
        .select({ env: localSites.env })
        .from(localSites)
        .where(eq(localSites.id, siteId));
      return row.env;
    },
  };
}

/** A vendor refuses a domain another of its sites holds: give it to a site of its own first. */
async function claimedElsewhere(hosting: HostingProvider, apex: string) {
  const owner = await hosting.createSite({ name: "Owner", idempotencyKey: randomUUID() });
  await hosting.setCustomDomain(owner.id, apex);
  return apex;
}

function netlifyDriver(): HostingDriver {
  let standIn: NetlifyStandIn;
  let hosting: HostingProvider;
  return {
    label: "Netlify adapter",
    paging: "netlify",
    async start() {
      standIn = await startNetlifyStandIn();
      hosting = createNetlifyHosting({ token: standIn.token, baseUrl: standIn.url });
      return hosting;
    },
    stop: () => standIn.close(),
    violations: () => standIn.violations,
    async finish(_siteId, deployId, outcome) {
      standIn.setDeployState(deployId, outcome, outcome === "error" ? "Build failed" : null);
    },
    async pointDns(_siteId, domain) {
      standIn.pointDns(domain, `www.${domain}`);
    },
    refusedDomain: (_siteId, apex) => claimedElsewhere(hosting, apex),
    async env(siteId) {
      const vars = [...(standIn.sites.get(siteId)?.env.values() ?? [])];
      return Object.fromEntries(
        vars.map((v) => [v.key, v.values.find((x) => x.context === "production")!.value]),
      );
    },
  };
}

function vercelDriver(): HostingDriver {
  const TEAM = "team_contract";
  let standIn: VercelStandIn;
  let hosting: HostingProvider;
  return {
    label: "Vercel adapter",
    paging: "vercel",
    async start() {
      standIn = await startVercelStandIn({ teamId: TEAM });
      // The adapter loads the SDK at its first call (seconds of CPU): here, in the hook's time.
      await import("@vercel/sdk");
      hosting = createVercelHosting({ token: standIn.token, teamId: TEAM, baseUrl: standIn.url });
      return hosting;
    },
    stop: () => standIn.close(),
    violations: () => standIn.violations,
    async finish(_siteId, deployId, outcome) {
      if (outcome === "ready") standIn.setReadyState(deployId, "READY");
      else standIn.setReadyState(deployId, "ERROR", "Build failed");
    },
    async pointDns(_siteId, domain) {
      standIn.pointDns(domain, `www.${domain}`);
    },
    refusedDomain: (_siteId, apex) => claimedElsewhere(hosting, apex),
    async env(siteId) {
      const vars = standIn.projects.get(siteId)?.env ?? [];
      return Object.fromEntries(
        vars.filter((v) => v.target.includes("production")).map((v) => [v.key, v.value]),
      );
    },
  };
}

describe.each([localDriver("netlify"), localDriver("vercel"), netlifyDriver(), vercelDriver()])(
  "$label",
  (driver) => {
    let hosting: HostingProvider;

    beforeAll(async () => {
      hosting = await driver.start();
    });
    beforeEach(() => {
      process.env.SITE_TEMPLATE_REPO = "stackshift/site-template";
      resetEnv();
    });
    afterEach(() => {
      expect(driver.violations()).toEqual([]);
      delete process.env.SITE_TEMPLATE_REPO;
      resetEnv();
    });
    afterAll(() => driver.stop());

    const newSite = (name = "Acme Store") =>
      hosting.createSite({ name, idempotencyKey: randomUUID() });
    /** A fresh apex domain per test: providers keep every site's domains. */
    const apex = () => `acme-${randomUUID().slice(0, 8)}.com`;

    describe("sites", () => {
      it("createSite is idempotent per key: the same key is the same site, another key another", async () => {
        const idempotencyKey = randomUUID();
        const site = await hosting.createSite({ name: "Acme Store", idempotencyKey });
        expect(site).toMatchObject({
          repoUrl: "https://github.com/stackshift/site-template",
          ssl: true,
          publishedDeploy: null,
          customDomain: null,
        });
        expect(site.url).toMatch(/^https?:\/\//);
        const again = await hosting.createSite({ name: "Acme Store", idempotencyKey });
        expect(again.id).toBe(site.id);
        expect((await hosting.getSite(site.id)).id).toBe(site.id);
        expect((await newSite("Acme Store")).id).not.toBe(site.id);
      });

      it("what does not exist is a permanent 404", async () => {
        const site = await newSite();
        for (const attempt of [
          () => hosting.getSite("does-not-exist"),
          () => hosting.getDeployment(site.id, "does-not-exist"),
          () => hosting.getDomainStatus(site.id, apex()),
          () => hosting.setEnvironmentVariable("does-not-exist", "A", "1"),
        ]) {
          const error = await rejection(attempt());
          expect(error.details.status).toBe(404);
          expect(error.retryable).toBe(false);
        }
      });
    });

    describe("deployments", () => {
      it("a trigger starts a queued production deploy, once per trigger key", async () => {
        const site = await newSite();
        const deploy = await hosting.triggerDeployment(site.id, {
          triggerKey: "first",
          title: "First deploy",
        });
        expect(deploy).toMatchObject({
          status: "queued",
          title: "First deploy",
          context: "production",
          framework: "next",
          errorMessage: null,
        });
        const again = await hosting.triggerDeployment(site.id, { triggerKey: "first" });
        expect(again.id).toBe(deploy.id);
        expect((await hosting.listDeployments(site.id, {})).results.map((d) => d.id)).toEqual([
          deploy.id,
        ]);
        expect((await hosting.getSite(site.id)).publishedDeploy).toBeNull();
      });

      it("a ready deploy is published; a failed one says why and publishes nothing", async () => {
        const site = await newSite();
        const deploy = await hosting.triggerDeployment(site.id, { triggerKey: "ok" });
        await driver.finish(site.id, deploy.id, "ready");
        const ready = await hosting.getDeployment(site.id, deploy.id);
        expect(ready).toMatchObject({ id: deploy.id, status: "ready", errorMessage: null });
        expect((await hosting.getSite(site.id)).publishedDeploy).toEqual({
          id: deploy.id,
          publishedAt: ready.updatedAt,
        });

        const failing = await hosting.triggerDeployment(site.id, { triggerKey: "broken" });
        await driver.finish(site.id, failing.id, "error");
        const failed = await hosting.getDeployment(site.id, failing.id);
        expect(failed.status).toBe("error");
        expect(failed.errorMessage).toEqual(expect.any(String));
        expect((await hosting.getSite(site.id)).publishedDeploy?.id).toBe(deploy.id);
      });

      it("another site's deploy is not found on this one", async () => {
        const one = await newSite("One");
        const other = await newSite("Other");
        const deploy = await hosting.triggerDeployment(one.id, { triggerKey: "x" });
        expect((await rejection(hosting.getDeployment(other.id, deploy.id))).details.status).toBe(
          404,
        );
      });

      it("pages deploys newest first, ten a page, without gaps or duplicates", async () => {
        const site = await newSite("Pages");
        const created: string[] = [];
        for (let i = 0; i < 23; i += 1) {
          created.push((await hosting.triggerDeployment(site.id, { triggerKey: `p${i}` })).id);
        }
        const pages: string[][] = [];
        let result = await hosting.listDeployments(
          site.id,
          driver.paging === "netlify" ? { page: 1 } : {},
        );
        expect(result.pagination.prev).toBeNull();
        pages.push(result.results.map((d) => d.id));
        while (result.pagination.next) {
          const next = result.pagination.next;
          result = await hosting.listDeployments(
            site.id,
            driver.paging === "netlify" ? { page: Number(next) } : { next },
          );
          pages.push(result.results.map((d) => d.id));
        }
        expect(pages.map((p) => p.length)).toEqual([10, 10, 3]);
        expect(pages.flat()).toEqual(created.reverse());

        // Back again the way the adapter pages: the same pages.
        const back: string[][] = [];
        while (result.pagination.prev) {
          const prev = result.pagination.prev;
          result = await hosting.listDeployments(
            site.id,
            driver.paging === "netlify" ? { page: Number(prev) } : { prev },
          );
          back.unshift(result.results.map((d) => d.id));
        }
        expect(back).toEqual(pages.slice(0, 2));
      });
    });

    describe("custom domains", () => {
      it("a new domain waits for its DNS records: an A record at the apex, a CNAME below it", async () => {
        const site = await newSite("Domains");
        const domain = apex();
        const state = await hosting.setCustomDomain(site.id, domain);
        expect(state).toMatchObject({ domain, verified: false, ssl: false });
        expect(state.records).toContainEqual(
          expect.objectContaining({ type: "A", name: "@", value: expect.any(String) }),
        );
        expect(await hosting.getDomainStatus(site.id, domain)).toMatchObject({ domain });

        const other = await newSite("Subdomain");
        const shop = await hosting.setCustomDomain(other.id, `eu.shop.${apex()}`);
        expect(shop.records).toEqual([
          { type: "CNAME", name: "eu.shop", value: expect.any(String) },
        ]);
      });

      it("setting the same domain again changes nothing; another one replaces it", async () => {
        const site = await newSite("Replace");
        const domain = apex();
        const first = await hosting.setCustomDomain(site.id, domain);
        expect(await hosting.setCustomDomain(site.id, domain)).toEqual(first);
        const replacement = `www.${apex()}`;
        expect(await hosting.setCustomDomain(site.id, replacement)).toMatchObject({
          domain: replacement,
          verified: false,
        });
        expect((await hosting.getDomainStatus(site.id, replacement)).domain).toBe(replacement);
        expect((await rejection(hosting.getDomainStatus(site.id, domain))).details.status).toBe(
          404,
        );
      });

      it("is verified, with a certificate, once the DNS points at the provider", async () => {
        const site = await newSite("Verify");
        const domain = `shop.${apex()}`;
        await hosting.setCustomDomain(site.id, domain);
        expect(await hosting.getDomainStatus(site.id, domain)).toMatchObject({
          domain,
          verified: false,
          ssl: false,
        });
        await driver.pointDns(site.id, domain);
        const verified = await hosting.getDomainStatus(site.id, domain);
        expect(verified).toMatchObject({ domain, verified: true, ssl: true });
        expect(verified.records).toEqual([
          { type: "CNAME", name: "shop", value: expect.any(String) },
        ]);
        expect(await hosting.getDomainStatus(site.id, domain)).toEqual(verified);
      });

      it("removes only the site's own domain, idempotently", async () => {
        const site = await newSite("Remove");
        const domain = apex();
        await hosting.setCustomDomain(site.id, domain);
        await hosting.removeCustomDomain(site.id, apex());
        expect((await hosting.getDomainStatus(site.id, domain)).domain).toBe(domain);

        await hosting.removeCustomDomain(site.id, domain);
        expect((await rejection(hosting.getDomainStatus(site.id, domain))).details.status).toBe(
          404,
        );
        await hosting.removeCustomDomain(site.id, domain);
        await expect(hosting.removeCustomDomain("does-not-exist", domain)).resolves.toBeUndefined();
      });

      it("a refused domain is a permanent ProviderError and the site keeps none", async () => {
        const site = await newSite("Refused");
        const domain = await driver.refusedDomain(site.id, apex());
        const error = await rejection(hosting.setCustomDomain(site.id, domain));
        expect([409, 422]).toContain(error.details.status);
        expect(error.retryable).toBe(false);
        expect((await rejection(hosting.getDomainStatus(site.id, domain))).details.status).toBe(
          404,
        );
      });
    });

    describe("environment variables", () => {
      it("sets, replaces and removes variables, idempotently", async () => {
        const site = await newSite("Env");
        expect(await driver.env(site.id)).toEqual({});
        await hosting.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", "true");
        await hosting.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", "true");
        await hosting.setEnvironmentVariable(site.id, "STACKSHIFT_GPT", "on");
        expect(await driver.env(site.id)).toEqual({
          STACKSHIFT_ECOMMERCE: "true",
          STACKSHIFT_GPT: "on",
        });

        await hosting.setEnvironmentVariable(site.id, "STACKSHIFT_GPT", "off");
        await hosting.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", null);
        await hosting.setEnvironmentVariable(site.id, "STACKSHIFT_ECOMMERCE", null);
        await hosting.setEnvironmentVariable(site.id, "NEVER_SET", null);
        expect(await driver.env(site.id)).toEqual({ STACKSHIFT_GPT: "off" });
      });

      it("removing a variable of a site that is gone is done already", async () => {
        await expect(
          hosting.setEnvironmentVariable("does-not-exist", "A", null),
        ).resolves.toBeUndefined();
      });
    });
  },
);
