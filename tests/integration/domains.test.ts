/**
 * Custom domains: the dashboard's Domain Settings (loader and the dialog's form, posted as a
 * plain form), PUT /api/app/domains, the re-check job and /sites/domains, on the local hosting
 * provider (the default) against PostgreSQL.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { projectSites } from "~/db/schema";
import { hostingProvider } from "~/providers/hosting/index.server";
import { action as domainsApi } from "~/routes/api.app.domains";
import {
  action as dashboardAction,
  loader as dashboardLoader,
} from "~/routes/_app._project.sites.$studioId/route";
import { loader as domainsPage } from "~/routes/_app.sites.domains";
import { DOMAIN_TAKEN_MESSAGE } from "~/services/domains/domains.schema";
import {
  applyDomain,
  checkDomain,
  DOMAIN_APPLY_JOB,
  DOMAIN_CHECK_JOB,
  DOMAIN_REMOVE_JOB,
  removeDomain,
} from "~/services/domains/domain-jobs.server";
import type { DomainSettingsView } from "~/services/domains/domains.server";
import { resetEnv } from "~/utils/env.server";
import { call, makeRequest } from "../helpers";
import { locationOf } from "../setup/matchers";
import { startVercelStandIn, withLiveVercel, type VercelStandIn } from "../stand-ins/vercel";
import {
  acceptedMember,
  actor,
  eventsOf,
  ownedProject,
  withVercelSite,
  type Actor,
} from "./members-support";

/** A project whose primary site (Vercel, a business site) exists at the local provider. */
async function projectWithSite(owner: Actor) {
  const project = await ownedProject(owner);
  const site = await withVercelSite(project, "domains");
  return { ...project, siteId: site.id };
}

async function settings(cookie: string, studioId: string) {
  const res = await call(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie }), {
    studioId,
  });
  expect(res.status).toBe(200);
  return (await res.json()).domains as DomainSettingsView;
}

function post(cookie: string, studioId: string, form: Record<string, string>) {
  return call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, {
      cookie,
      form: { intent: "domain-change", redirectTo: `/sites/${studioId}?domain=edit`, ...form },
    }),
    { studioId },
  );
}

function put(cookie: string | undefined, body: unknown) {
  return call(domainsApi, makeRequest("/api/app/domains", { method: "PUT", cookie, json: body }));
}

const unique = () => `d${Math.random().toString(36).slice(2, 10)}`;

async function jobsNamed(name: string, domain: string) {
  const jobs = (await db().execute(
    sql`select data from pgboss.job where name = ${name} and data->>'domain' = ${domain}`,
  )) as unknown as { rows: { data: Record<string, unknown> }[] };
  return jobs.rows.map((r) => r.data);
}

beforeEach(() => {
  process.env.LOCAL_DOMAIN_VERIFY_SECONDS = "0";
  resetEnv();
});
afterEach(() => {
  delete process.env.LOCAL_DOMAIN_VERIFY_SECONDS;
  resetEnv();
});

describe("Domain Settings on the dashboard (forms without JavaScript)", () => {
  it("sets a domain (pending, with its DNS records), verifies it through the job, and reverts it", async () => {
    const owner = await actor({ name: "Dora Owner" });
    const project = await projectWithSite(owner);
    const domain = `www.${unique()}.example`;
    // The provider sees the records only later (10 minutes, then "now" for the re-check below).
    process.env.LOCAL_DOMAIN_VERIFY_SECONDS = "600";
    resetEnv();

    const before = await settings(owner.cookie, project.studioId);
    expect(before).toMatchObject({ canEdit: true, perSite: true });
    expect(before.sites).toMatchObject([{ provider: "vercel", primary: true, domain: null }]);

    const res = await post(owner.cookie, project.studioId, { domain: ` ${domain.toUpperCase()} ` });
    expect(res.status).toBe(302);
    expect(locationOf(res)).toBe(`/sites/${project.studioId}`);
    expect(res.headers.get("Set-Cookie")).toContain("toast");

    const pending = (await settings(owner.cookie, project.studioId)).sites[0];
    expect(pending).toMatchObject({ domain, status: "pending" });
    expect(pending.records.length).toBeGreaterThan(0);
    const [check] = await jobsNamed(DOMAIN_CHECK_JOB, domain);
    expect(check).toMatchObject({ projectId: project._id, provider: "vercel", domain });

    // The re-check job, once the provider sees the records: verified, with SSL.
    process.env.LOCAL_DOMAIN_VERIFY_SECONDS = "0";
    resetEnv();
    await checkDomain({ projectId: project._id, provider: "vercel", domain, attempt: 0 });
    const verified = (await settings(owner.cookie, project.studioId)).sites[0];
    expect(verified).toMatchObject({ domain, status: "verified", ssl: true });

    const reverted = await post(owner.cookie, project.studioId, { domain: "" });
    expect(reverted.status).toBe(302);
    expect((await settings(owner.cookie, project.studioId)).sites[0]).toMatchObject({
      domain: null,
      status: null,
      records: [],
    });
    const [removal] = await jobsNamed(DOMAIN_REMOVE_JOB, domain);
    await removeDomain(removal as { provider: "vercel"; siteId: string; domain: string });
    expect((await hostingProvider("vercel").getSite(project.siteId)).customDomain).toBeNull();

    const events = await eventsOf(project._id, "domains.");
    expect(events.map((e) => [e.type, e.content])).toEqual([
      ["domains.set", `Dora Owner set the custom domain to ${domain}`],
      ["domains.reverted", `Dora Owner reverted the custom domain ${domain}`],
    ]);
  });

  it("keeps the dialog open with the message beside the field for an invalid or taken domain", async () => {
    const owner = await actor();
    const project = await projectWithSite(owner);
    const invalid = await post(owner.cookie, project.studioId, { domain: "https://example.com/x" });
    expect(invalid.status).toBe(400);
    const body = await invalid.json();
    expect(body.result.error.domain).toEqual(["Enter the domain only, without https:// or a path"]);

    const other = await projectWithSite(owner);
    const domain = `${unique()}.example`;
    expect((await post(owner.cookie, other.studioId, { domain })).status).toBe(302);
    const taken = await post(owner.cookie, project.studioId, { domain });
    expect(taken.status).toBe(400);
    expect((await taken.json()).result.error.domain).toEqual([DOMAIN_TAKEN_MESSAGE]);
    expect((await settings(owner.cookie, project.studioId)).sites[0].domain).toBeNull();
  });

  it("refuses what the provider refuses, and writes nothing", async () => {
    const owner = await actor();
    const project = await projectWithSite(owner);
    const res = await post(owner.cookie, project.studioId, {
      domain: `fail-domain.${unique()}.example`,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).result.error.domain).toEqual([
      "The hosting provider refused this domain",
    ]);
    expect((await settings(owner.cookie, project.studioId)).sites[0].domain).toBeNull();
    expect(await eventsOf(project._id, "domains.")).toEqual([]);
  });

  it("lets editors read the domain but not change it", async () => {
    const owner = await actor();
    const project = await projectWithSite(owner);
    const editor = await acceptedMember(owner, project, "editor");
    const view = await settings(editor.cookie, project.studioId);
    expect(view.canEdit).toBe(false);
    const res = await post(editor.cookie, project.studioId, { domain: `${unique()}.example` });
    expect(res.status).toBe(302);
    expect(res.headers.get("Set-Cookie")).toContain("toast");
    expect((await settings(owner.cookie, project.studioId)).sites[0].domain).toBeNull();
  });
});

describe("PUT /api/app/domains", () => {
  it("updates and reverts for admins; 400 for a bad body, 403 for an editor, 401 anonymous", async () => {
    const owner = await actor();
    const project = await projectWithSite(owner);
    const admin = await acceptedMember(owner, project, "admin");
    const domain = `shop.${unique()}.example`;
    const set = await put(admin.cookie, {
      type: "site",
      action: "update",
      domain,
      studioId: project.studioId,
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ ok: true, action: "update", domain, changed: true });
    const again = await put(admin.cookie, { action: "update", domain, studioId: project.studioId });
    expect(await again.json()).toMatchObject({ changed: false });

    expect(
      (await put(admin.cookie, { action: "update", domain: "", studioId: project.studioId }))
        .status,
    ).toBe(400);
    expect(
      (await put(admin.cookie, { action: "move", domain, studioId: project.studioId })).status,
    ).toBe(400);
    const editor = await acceptedMember(owner, project, "editor");
    expect(
      (await put(editor.cookie, { action: "revert", domain: "", studioId: project.studioId }))
        .status,
    ).toBe(403);
    expect(
      (await put(undefined, { action: "revert", domain: "", studioId: project.studioId })).status,
    ).toBe(401);
    const stranger = await actor();
    expect(
      (await put(stranger.cookie, { action: "revert", domain: "", studioId: project.studioId }))
        .status,
    ).toBe(404);

    const revert = await put(owner.cookie, {
      action: "revert",
      domain: "",
      studioId: project.studioId,
    });
    expect(await revert.json()).toEqual({
      ok: true,
      action: "revert",
      domain: null,
      changed: true,
    });
    const [row] = await db()
      .select()
      .from(projectSites)
      .where(and(eq(projectSites.projectId, project._id), eq(projectSites.provider, "vercel")));
    expect(row.customDomain).toBeNull();
  });

  it("answers 409 while the project's site does not exist yet", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const res = await put(owner.cookie, {
      action: "update",
      domain: `${unique()}.example`,
      studioId: project.studioId,
    });
    expect(res.status).toBe(409);
  });
});

describe("a hosting provider that fails", () => {
  let standIn: VercelStandIn;
  beforeAll(async () => {
    standIn = await startVercelStandIn();
  });
  afterAll(async () => {
    await standIn.close();
  });

  it("keeps the change pending, and the job sets it at the provider once it answers", async () => {
    await withLiveVercel(standIn, async () => {
      const owner = await actor();
      const project = await projectWithSite(owner);
      const domain = `${unique()}.example`;
      // Down for the dashboard's own attempt and the job's first two.
      standIn.fail({ method: "POST", path: /\/domains$/, status: 503, times: 3 });
      expect((await post(owner.cookie, project.studioId, { domain })).status).toBe(302);
      const saved = (await settings(owner.cookie, project.studioId)).sites[0];
      expect(saved).toMatchObject({ domain, status: "pending", records: [] });
      expect(saved.error).toMatch(/not answering/);

      const [job] = await jobsNamed(DOMAIN_APPLY_JOB, domain);
      const data = job as { projectId: string; provider: "vercel"; domain: string };
      await expect(applyDomain(data)).rejects.toThrow();
      await expect(applyDomain(data)).rejects.toThrow();
      await applyDomain(data);
      const applied = (await settings(owner.cookie, project.studioId)).sites[0];
      expect(applied).toMatchObject({ domain, error: null });
      expect(applied.records.length).toBeGreaterThan(0);
      // The provider holds the same domain the dashboard shows.
      const added = standIn.requests.filter(
        (r) => r.method === "POST" && /\/domains$/.test(r.path),
      );
      expect(added.at(-1)?.body).toMatchObject({ name: domain });
      expect(await jobsNamed(DOMAIN_CHECK_JOB, domain)).not.toEqual([]);
    });
  });
});

describe("/sites/domains", () => {
  it("lists the domains of the user's projects only, searchable", async () => {
    const owner = await actor();
    const mine = await projectWithSite(owner);
    const domain = `${unique()}.example`;
    expect((await post(owner.cookie, mine.studioId, { domain })).status).toBe(302);
    const stranger = await actor();

    const list = async (cookie: string, q = "") => {
      const res = await call(domainsPage, makeRequest(`/sites/domains?q=${q}`, { cookie }));
      return (await res.json()) as { domains: { domain: string; studioId: string }[] };
    };
    expect((await list(owner.cookie)).domains).toContainEqual(
      expect.objectContaining({ domain, studioId: mine.studioId, provider: "vercel" }),
    );
    expect((await list(owner.cookie, domain.slice(0, 6))).domains.map((d) => d.domain)).toEqual([
      domain,
    ]);
    expect((await list(stranger.cookie)).domains.map((d) => d.domain)).not.toContain(domain);
  });
});
