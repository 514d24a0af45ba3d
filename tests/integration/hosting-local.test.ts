/**
 * The local hosting provider against the real database, beyond the contract every hosting
 * adapter keeps (hosting-contract.test.ts): its own fields and ids, deployments driven through
 * the advance job's handler (called directly, never waiting on pg-boss timers), the failure and
 * slow hooks and the failure rate, the public site, and custom domains (verified
 * LOCAL_DOMAIN_VERIFY_SECONDS after they are set, with the `unverified.` and `fail-domain.`
 * hooks).
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { database, db } from "~/db/client.server";
import { localSites } from "~/db/schema";
import { queue, work } from "~/jobs/queue.server";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import { advanceLocalDeploy } from "~/providers/hosting/local/progress.server";
import { LOCAL_ADVANCE_JOB } from "~/providers/hosting/local/shared.server";
import type { HostingProviderName } from "~/providers/hosting/types";
import { loader as publicSite } from "~/routes/local.sites.$siteId";
import { resetEnv } from "~/utils/env.server";
import { call, makeRequest } from "../helpers";

afterEach(() => {
  delete process.env.LOCAL_DEPLOY_FAILURE_RATE;
  delete process.env.LOCAL_DEPLOY_STEP_SECONDS;
  delete process.env.LOCAL_DOMAIN_VERIFY_SECONDS;
  delete process.env.SITE_TEMPLATE_REPO;
  resetEnv();
});

async function newSite(provider: HostingProviderName, name = "Acme Store") {
  return hostingProvider(provider).createSite({ name, idempotencyKey: randomUUID() });
}

/** The advance jobs scheduled for a deploy, as pg-boss holds them. */
async function scheduledSteps(deployId: string) {
  const { rows } = await database().raw(
    "select data->>'from' as from from pgboss.job where name = $1 and data->>'deployId' = $2 order by created_on",
    [LOCAL_ADVANCE_JOB, deployId],
  );
  return (rows as { from: string }[]).map((r) => r.from);
}

/** Runs the advance job until the deploy settles, like the worker would. */
async function settle(provider: HostingProviderName, siteId: string, deployId: string) {
  for (let i = 0; i < 5; i += 1) {
    const deploy = await hostingProvider(provider).getDeployment(siteId, deployId);
    if (deploy.status !== "queued" && deploy.status !== "building") return deploy;
    await advanceLocalDeploy({ deployId, from: deploy.state });
  }
  throw new Error("deploy did not settle");
}

async function page(siteId: string) {
  return call(publicSite as never, makeRequest(`/local/sites/${siteId}`), { siteId });
}

describe("registry", () => {
  it("gives the local providers by default, named after the vendor they stand in for", () => {
    expect(hostingProvider("netlify").name).toBe("netlify");
    expect(hostingProvider("vercel").name).toBe("vercel");
    expect(hostingProvider("netlify")).toBe(hostingProvider("netlify"));
  });
});

describe("createSite", () => {
  it("is idempotent per provider and idempotency key", async () => {
    process.env.SITE_TEMPLATE_REPO = "stackshift/site-template";
    resetEnv();
    const key = randomUUID();
    const first = await hostingProvider("netlify").createSite({
      name: "Acme",
      idempotencyKey: key,
    });
    const again = await hostingProvider("netlify").createSite({
      name: "Acme",
      idempotencyKey: key,
    });
    const [raceA, raceB] = await Promise.all([
      hostingProvider("vercel").createSite({ name: "Acme", idempotencyKey: key }),
      hostingProvider("vercel").createSite({ name: "Acme", idempotencyKey: key }),
    ]);
    expect(again.id).toBe(first.id);
    expect(raceA.id).toBe(raceB.id);
    expect(raceA.id).not.toBe(first.id);
    expect(raceA.id).toMatch(/^prj_/);
    expect(first).toMatchObject({
      name: "Acme",
      url: `http://localhost:3000/local/sites/${first.id}`,
      state: "current",
      ssl: true,
      repoUrl: "https://github.com/stackshift/site-template",
      publishedDeploy: null,
      customDomain: null,
      domainAliases: [],
    });
    expect(raceA).toMatchObject({ state: "new", productionReadyState: null });
  });

  it("answers 404 for an unknown site, or one of the other provider", async () => {
    const site = await newSite("netlify");
    for (const attempt of [
      () => hostingProvider("netlify").getSite("does-not-exist"),
      () => hostingProvider("vercel").getSite(site.id),
      () => hostingProvider("netlify").getDeployment(site.id, "nope"),
      () => hostingProvider("netlify").triggerDeployment("nope", { triggerKey: "k" }),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).details).toMatchObject({ status: 404, code: "not_found" });
    }
  });
});

describe("deployments progress through the advance job", () => {
  it("netlify: enqueued -> building -> ready, each step once, and the site is published", async () => {
    const hosting = hostingProvider("netlify");
    const site = await newSite("netlify");
    const deploy = await hosting.triggerDeployment(site.id, {
      triggerKey: "deploy-1",
      title: "First deploy",
    });
    expect(deploy).toMatchObject({ state: "enqueued", status: "queued", title: "First deploy" });
    expect(deploy.id).toMatch(/^[0-9a-f]{24}$/);
    // A retried trigger returns the same deploy and schedules nothing new.
    const retried = await hosting.triggerDeployment(site.id, { triggerKey: "deploy-1" });
    expect(retried.id).toBe(deploy.id);
    expect(await scheduledSteps(deploy.id)).toEqual(["enqueued"]);

    // Two runs of the same job at once, then a late re-run: one step, no skipped state.
    await Promise.all([
      advanceLocalDeploy({ deployId: deploy.id, from: "enqueued" }),
      advanceLocalDeploy({ deployId: deploy.id, from: "enqueued" }),
    ]);
    await advanceLocalDeploy({ deployId: deploy.id, from: "enqueued" });
    expect((await hosting.getDeployment(site.id, deploy.id)).state).toBe("building");
    expect(await scheduledSteps(deploy.id)).toEqual(["enqueued", "building"]);
    expect((await hosting.getSite(site.id)).publishedDeploy).toBeNull();

    await advanceLocalDeploy({ deployId: deploy.id, from: "building" });
    await advanceLocalDeploy({ deployId: deploy.id, from: "building" });
    const ready = await hosting.getDeployment(site.id, deploy.id);
    expect(ready).toMatchObject({ state: "ready", status: "ready", errorMessage: null });
    expect(await scheduledSteps(deploy.id)).toEqual(["enqueued", "building"]);

    const published = await hosting.getSite(site.id);
    expect(published.ssl).toBe(true);
    expect(published.publishedDeploy).toEqual({ id: deploy.id, publishedAt: ready.updatedAt });
  });

  it("vercel: QUEUED -> BUILDING -> READY, with the production target's state", async () => {
    const hosting = hostingProvider("vercel");
    const site = await newSite("vercel");
    const deploy = await hosting.triggerDeployment(site.id, { triggerKey: "v-1" });
    expect(deploy).toMatchObject({ state: "QUEUED", status: "queued", target: "production" });
    expect(deploy.id).toMatch(/^dpl_/);
    expect((await hosting.getSite(site.id)).productionReadyState).toBe("QUEUED");

    const ready = await settle("vercel", site.id, deploy.id);
    expect(ready.state).toBe("READY");
    const after = await hosting.getSite(site.id);
    expect(after).toMatchObject({
      state: "READY",
      productionReadyState: "READY",
      publishedDeploy: { id: deploy.id },
    });
    expect(after.productionAlias).toEqual([after.url.replace("http://", "")]);
  });

  it("fills the spec's deployment fields", async () => {
    const site = await newSite("vercel");
    const deploy = await hostingProvider("vercel").triggerDeployment(site.id, {
      triggerKey: "fields",
      title: "Fields",
    });
    expect(deploy).toMatchObject({
      branch: "main",
      context: "production",
      framework: "next",
      permalink: `${site.url}?deploy=${deploy.id}`,
      deploySslUrl: `${site.url}?deploy=${deploy.id}`,
      url: site.url,
      meta: { githubCommitMessage: "Fields", githubCommitRef: "main" },
    });
    expect(deploy.commitRef).toMatch(/^[0-9a-f]{40}$/);
    expect(Date.parse(deploy.createdAt)).not.toBeNaN();
  });

  it('always fails a site whose name contains "fail-deploy", and publishes nothing', async () => {
    const hosting = hostingProvider("netlify");
    const site = await newSite("netlify", "Demo fail-deploy site");
    const deploy = await hosting.triggerDeployment(site.id, { triggerKey: "f-1" });
    const failed = await settle("netlify", site.id, deploy.id);
    expect(failed).toMatchObject({ state: "error", status: "error" });
    expect(failed.errorMessage).toContain("fail-deploy");
    expect((await hosting.getSite(site.id)).publishedDeploy).toBeNull();
    // Nothing is scheduled after a final state.
    expect(await scheduledSteps(deploy.id)).toEqual(["enqueued", "building"]);
  });

  it('schedules each step of a "slow-deploy" site five times later than the others', async () => {
    process.env.LOCAL_DEPLOY_STEP_SECONDS = "2";
    resetEnv();
    const hosting = hostingProvider("netlify");
    const plain = await hosting.triggerDeployment((await newSite("netlify")).id, {
      triggerKey: "p",
    });
    const slowSite = await newSite("netlify", "Demo slow-deploy site");
    const slow = await hosting.triggerDeployment(slowSite.id, { triggerKey: "s" });
    const delay = async (deployId: string) => {
      const { rows } = await database().raw(
        "select extract(epoch from start_after - created_on)::float as seconds from pgboss.job where name = $1 and data->>'deployId' = $2",
        [LOCAL_ADVANCE_JOB, deployId],
      );
      return Math.round((rows as { seconds: number }[])[0].seconds);
    };
    expect(await delay(plain.id)).toBe(2);
    expect(await delay(slow.id)).toBe(10);
    // It still reaches ready, through the same states.
    expect((await settle("netlify", slowSite.id, slow.id)).state).toBe("ready");
  });

  it("fails by LOCAL_DEPLOY_FAILURE_RATE", async () => {
    process.env.LOCAL_DEPLOY_FAILURE_RATE = "1";
    resetEnv();
    const site = await newSite("vercel");
    const deploy = await hostingProvider("vercel").triggerDeployment(site.id, { triggerKey: "r" });
    const failed = await settle("vercel", site.id, deploy.id);
    expect(failed.state).toBe("ERROR");
    expect(failed.errorMessage).toContain("LOCAL_DEPLOY_FAILURE_RATE");
  });

  it("keeps the newest ready deploy published when an older one finishes later", async () => {
    const hosting = hostingProvider("netlify");
    const site = await newSite("netlify");
    const older = await hosting.triggerDeployment(site.id, { triggerKey: "old" });
    const newer = await hosting.triggerDeployment(site.id, { triggerKey: "new" });
    await settle("netlify", site.id, newer.id);
    await settle("netlify", site.id, older.id);
    expect((await hosting.getSite(site.id)).publishedDeploy?.id).toBe(newer.id);
  });

  it("runs on a real pg-boss worker too (LOCAL_DEPLOY_STEP_SECONDS=0)", async () => {
    process.env.LOCAL_DEPLOY_STEP_SECONDS = "0";
    resetEnv();
    const hosting = hostingProvider("vercel");
    const site = await newSite("vercel");
    await work(LOCAL_ADVANCE_JOB, advanceLocalDeploy);
    try {
      const deploy = await hosting.triggerDeployment(site.id, { triggerKey: "worker" });
      let state = deploy.state;
      for (let i = 0; i < 100 && state !== "READY"; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        state = (await hosting.getDeployment(site.id, deploy.id)).state;
      }
      expect(state).toBe("READY");
      expect((await hosting.getSite(site.id)).publishedDeploy?.id).toBe(deploy.id);
    } finally {
      await queue().offWork(LOCAL_ADVANCE_JOB);
    }
  });

  it("ignores jobs for deploys that no longer exist or carry no data", async () => {
    await expect(advanceLocalDeploy({ deployId: "gone", from: "enqueued" })).resolves.toBe(
      undefined,
    );
    await expect(advanceLocalDeploy({})).resolves.toBe(undefined);
  });
});

describe("listDeployments (paging itself: hosting-contract.test.ts)", () => {
  it("netlify: perPage sizes the numbered pages; vercel: a cursor that is not one is a 400", async () => {
    const site = await newSite("netlify");
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      ids.push(
        (await hostingProvider("netlify").triggerDeployment(site.id, { triggerKey: `k${i}` })).id,
      );
    }
    const small = await hostingProvider("netlify").listDeployments(site.id, {
      page: 2,
      perPage: 5,
    });
    expect(small.results.map((d) => d.id)).toEqual(ids.reverse().slice(5, 10));

    const other = await newSite("vercel");
    const error = await hostingProvider("vercel")
      .listDeployments(other.id, { next: "garbage" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).details.status).toBe(400);
  });
});

describe("the public site at the site's url", () => {
  it("answers 404 'Site not deployed yet' until a deploy is published, then the page", async () => {
    const hosting = hostingProvider("netlify");
    const site = await newSite("netlify", 'Bob\'s <b>"Bakery"</b>');

    const before = await page(site.id);
    expect(before.status).toBe(404);
    expect(await before.text()).toContain("Site not deployed yet");

    const deploy = await hosting.triggerDeployment(site.id, { triggerKey: "p" });
    expect((await page(site.id)).status).toBe(404);
    const ready = await settle("netlify", site.id, deploy.id);

    const after = await page(site.id);
    expect(after.status).toBe(200);
    expect(after.headers.get("Content-Type")).toContain("text/html");
    const body = await after.text();
    expect(body).toContain("Published with StackShift");
    expect(body).toContain("Bob&#39;s &lt;b&gt;&quot;Bakery&quot;&lt;/b&gt;");
    expect(body).not.toContain("<b>");
    expect(body).toContain(deploy.id);
    expect(body).toContain(`datetime="${ready.updatedAt}"`);

    // The deploy's permalink serves that deploy.
    const permalink = await call(
      publicSite as never,
      makeRequest(`/local/sites/${site.id}?deploy=${deploy.id}`),
      { siteId: site.id },
    );
    expect(permalink.status).toBe(200);
  });

  it("answers 404 for an unknown site and for a deploy that is not ready", async () => {
    expect((await page("no-such-site")).status).toBe(404);
    const site = await newSite("vercel");
    const deploy = await hostingProvider("vercel").triggerDeployment(site.id, { triggerKey: "x" });
    const res = await call(
      publicSite as never,
      makeRequest(`/local/sites/${site.id}?deploy=${deploy.id}`),
      { siteId: site.id },
    );
    expect(res.status).toBe(404);
    const nul = await call(publicSite as never, makeRequest(`/local/sites/${site.id}?deploy=%00`), {
      siteId: site.id,
    });
    expect(nul.status).toBe(404);
  });
});

describe("custom domains", () => {
  /** A fresh apex domain per test (local sites keep their domains between tests). */
  const apex = () => `acme-${randomUUID().slice(0, 8)}.com`;

  async function siteRow(siteId: string) {
    const [row] = await db().select().from(localSites).where(eq(localSites.id, siteId));
    return row;
  }

  /** Moves the domain's set time into the past: the time the test controls. */
  async function backdate(siteId: string, seconds: number) {
    await db()
      .update(localSites)
      .set({ domainSetAt: new Date(Date.now() - seconds * 1000) })
      .where(eq(localSites.id, siteId));
  }

  it("sets the domain with the records for apex and subdomains", async () => {
    const hosting = hostingProvider("netlify");
    const site = await newSite("netlify");
    const domain = apex();
    const state = await hosting.setCustomDomain(site.id, domain);
    expect(state).toEqual({
      domain,
      verified: false,
      ssl: false,
      records: [
        { type: "A", name: "@", value: "203.0.113.10" },
        { type: "CNAME", name: "www", value: `${site.id}.local.stackshift.test` },
      ],
    });
    expect((await hosting.getSite(site.id)).customDomain).toBe(domain);
    expect((await siteRow(site.id)).domainSetAt).toBeInstanceOf(Date);

    const other = await newSite("vercel");
    const shop = await hostingProvider("vercel").setCustomDomain(other.id, `eu.shop.${apex()}`);
    expect(shop.records).toEqual([
      { type: "CNAME", name: "eu.shop", value: `${other.id}.local.stackshift.test` },
    ]);
  });

  it("setting the same domain again keeps its time; another one replaces it", async () => {
    const hosting = hostingProvider("vercel");
    const site = await newSite("vercel");
    const domain = apex();
    await hosting.setCustomDomain(site.id, domain);
    await backdate(site.id, 60);
    const setAt = (await siteRow(site.id)).domainSetAt;

    expect(await hosting.setCustomDomain(site.id, domain)).toMatchObject({ verified: true });
    expect((await siteRow(site.id)).domainSetAt).toEqual(setAt);

    const replacement = `www.${apex()}`;
    expect(await hosting.setCustomDomain(site.id, replacement)).toMatchObject({
      domain: replacement,
      verified: false,
    });
    const row = await siteRow(site.id);
    expect(row.customDomain).toBe(replacement);
    expect(row.domainSetAt!.getTime()).toBeGreaterThan(setAt!.getTime());
  });

  it("verifies LOCAL_DOMAIN_VERIFY_SECONDS (default 5) after the domain was set", async () => {
    const hosting = hostingProvider("netlify");
    const site = await newSite("netlify");
    const domain = `shop.${apex()}`;
    await hosting.setCustomDomain(site.id, domain);
    expect(await hosting.getDomainStatus(site.id, domain)).toMatchObject({
      verified: false,
      ssl: false,
    });
    await backdate(site.id, 4);
    expect((await hosting.getDomainStatus(site.id, domain)).verified).toBe(false);
    await backdate(site.id, 6);
    expect(await hosting.getDomainStatus(site.id, domain)).toEqual({
      domain,
      verified: true,
      ssl: true,
      records: [{ type: "CNAME", name: "shop", value: `${site.id}.local.stackshift.test` }],
    });

    process.env.LOCAL_DOMAIN_VERIFY_SECONDS = "0";
    resetEnv();
    const now = await newSite("vercel");
    const instant = apex();
    expect(await hostingProvider("vercel").setCustomDomain(now.id, instant)).toMatchObject({
      verified: true,
      ssl: true,
    });

    const elsewhere = await hosting.getDomainStatus(site.id, apex()).catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(ProviderError);
    expect((elsewhere as ProviderError).details).toMatchObject({ status: 404 });
  });

  it('a domain whose first label is "unverified" never verifies', async () => {
    process.env.LOCAL_DOMAIN_VERIFY_SECONDS = "0";
    resetEnv();
    const hosting = hostingProvider("vercel");
    const site = await newSite("vercel");
    const domain = `unverified.${apex()}`;
    expect(await hosting.setCustomDomain(site.id, domain)).toMatchObject({
      verified: false,
      ssl: false,
      records: [{ type: "CNAME", name: "unverified" }],
    });
    await backdate(site.id, 3600);
    expect(await hosting.getDomainStatus(site.id, domain)).toMatchObject({
      verified: false,
      ssl: false,
    });
  });

  it('refuses a domain whose first label is "fail-domain" (422, not retryable)', async () => {
    const hosting = hostingProvider("netlify");
    const site = await newSite("netlify");
    const error = await hosting
      .setCustomDomain(site.id, `fail-domain.${apex()}`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    const refused = error as ProviderError;
    expect(refused.message).toBe("The provider refused the domain");
    expect(refused.details).toMatchObject({ status: 422, code: "unprocessable" });
    expect(refused.retryable).toBe(false);
    expect(await siteRow(site.id)).toMatchObject({ customDomain: null, domainSetAt: null });

    const missing = await hosting.setCustomDomain("no-such-site", apex()).catch((e) => e);
    expect((missing as ProviderError).details.status).toBe(404);
  });

  it("the other flavour's provider leaves a site's domain alone; removal clears its set time", async () => {
    const hosting = hostingProvider("netlify");
    const site = await newSite("netlify");
    const domain = apex();
    await hosting.setCustomDomain(site.id, domain);
    // The other provider's site with that id does not exist: nothing happens.
    await hostingProvider("vercel").removeCustomDomain(site.id, domain);
    expect((await siteRow(site.id)).customDomain).toBe(domain);

    await hosting.removeCustomDomain(site.id, domain);
    expect(await siteRow(site.id)).toMatchObject({ customDomain: null, domainSetAt: null });
    expect((await hosting.getSite(site.id)).customDomain).toBeNull();
  });
});

describe("environment variables", () => {
  const envOf = async (siteId: string) => {
    const [row] = await db()
      .select({ env: localSites.env })
      .from(localSites)
      .where(eq(localSites.id, siteId));
    return row.env;
  };

  it("keeps every one of several variables set at once", async () => {
    const hosting = hostingProvider("vercel");
    const site = await newSite("vercel");
    await Promise.all(
      ["A", "B", "C", "D"].map((key) => hosting.setEnvironmentVariable(site.id, key, key)),
    );
    expect(await envOf(site.id)).toEqual({ A: "A", B: "B", C: "C", D: "D" });
  });

  it("setting on an unknown site (or the other provider's) is a permanent 404; removing is done", async () => {
    const site = await newSite("netlify");
    for (const [provider, siteId] of [
      ["netlify", "no-such-site"],
      ["netlify", "bad id\u0000"],
      ["vercel", site.id],
    ] as const) {
      const error = await hostingProvider(provider)
        .setEnvironmentVariable(siteId, "A", "1")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).details).toMatchObject({
        provider: `local-${provider}`,
        status: 404,
      });
      expect((error as ProviderError).retryable).toBe(false);
      await expect(
        hostingProvider(provider).setEnvironmentVariable(siteId, "A", null),
      ).resolves.toBeUndefined();
    }
    expect(await envOf(site.id)).toEqual({});
  });
});
