/**
 * Provisioning through the real local providers and pg-boss workers: a
 * created project gets a studio, a site on its primary provider and a first deployment, and
 * every step is idempotent when a run dies after any provider call.
 */
import { and, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  localDeploys,
  localSites,
  localStudioInvites,
  localStudios,
  outbox,
  projects,
  projectSites,
} from "~/db/schema";
import { ProviderError } from "~/providers/errors";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { hostingProvider } from "~/providers/hosting/index.server";
import type { HostingProviderName } from "~/providers/hosting/types";
import { getUser } from "~/services/accounts/accounts.server";
import { createProject } from "~/services/projects/projects.server";
import { siteName, type LifecycleProviders } from "~/services/lifecycle/common.server";
import { provisionProject } from "~/services/lifecycle/provision.server";
import { resumeStalledProjects } from "~/services/lifecycle/sweep.server";
import { createUser, sessionCookie } from "../helpers";
import {
  configure,
  createThroughApi,
  projectRow,
  startWorkers,
  waitFor,
  waitForStatus,
} from "./lifecycle-support";

beforeAll(async () => {
  configure({
    PROVIDERS: "local",
    LOCAL_DEPLOY_STEP_SECONDS: "0.2",
    LOCAL_DEPLOY_FAILURE_RATE: "0",
    AUTO_DEPLOY_AFTER_MINUTES: "15",
  });
  await startWorkers();
});

async function counts(projectId: string, siteId?: string | null) {
  const [studios] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(localStudios)
    .where(eq(localStudios.idempotencyKey, `${projectId}:studio`));
  const [sites] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(localSites)
    .where(like(localSites.idempotencyKey, `${projectId}:%`));
  const [initial] = siteId
    ? await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(localDeploys)
        .where(
          and(eq(localDeploys.siteId, siteId), eq(localDeploys.triggerKey, `${projectId}:initial`)),
        )
    : [{ n: 0 }];
  return { studios: studios.n, sites: sites.n, initialDeploys: initial.n };
}

describe("provisioning a created project", () => {
  it("creates the studio, the site on the second provider for business, deploys and reaches success", async () => {
    const owner = await createUser();
    const created = await createThroughApi(await sessionCookie(owner.id), {
      name: "Acme Business Site",
    });
    const row = await waitForStatus(created._id, ["success", "failed"]);
    expect(row.siteCreationStatus).toBe("success");
    expect(row.studioCreationStatus).toBe("success");
    expect(row.isSiteOnVercel).toBe(true);
    expect(row.studioSanityId).toMatch(/^[a-z0-9]{8}$/);
    expect(row.studioUrl).toContain(`/local/studio/${row.studioSanityId}`);
    expect(row.siteId).toMatch(/^prj_/);
    expect(row.siteUrl).toContain(`/local/sites/${row.siteId}`);
    expect(row.lastProvisionError).toBeNull();
    expect(row.siteDetails).toMatchObject({
      state: "READY",
      ssl: true,
      published_deploy: { id: expect.any(String) },
      targets: { production: { readyState: "READY" } },
    });

    const sites = await db().select().from(projectSites).where(eq(projectSites.projectId, row.id));
    expect(sites).toEqual([
      expect.objectContaining({ provider: "vercel", siteId: row.siteId, url: row.siteUrl }),
    ]);
    const [site] = await db().select().from(localSites).where(eq(localSites.id, row.siteId!));
    expect(site.name).toBe(siteName(row));
    expect(site.name).toBe(`acme-business-site-${row.studioId}`);

    const [studio] = await db()
      .select()
      .from(localStudios)
      .where(eq(localStudios.id, row.studioSanityId!));
    expect(studio.displayName).toBe("Acme Business Site");
    expect(studio.datasets).toEqual(["production"]);
    expect(studio.corsOrigins).toEqual(["http://localhost:3000"]);
    const invites = await db()
      .select()
      .from(localStudioInvites)
      .where(eq(localStudioInvites.studioId, studio.id));
    expect(invites).toEqual([
      expect.objectContaining({ email: owner.email, role: "administrator", sentCount: 1 }),
    ]);
    expect(await counts(row.id, row.siteId)).toEqual({ studios: 1, sites: 1, initialDeploys: 1 });
  });

  it("puts an enterprise site on the first provider", async () => {
    const admin = await createUser({ email: "admin@example.com" });
    const created = await createThroughApi(await sessionCookie(admin.id), {
      name: "Enterprise One",
      siteType: "enterprise",
    });
    const row = await waitForStatus(created._id, ["success", "failed"]);
    expect(row.siteCreationStatus).toBe("success");
    expect(row.isSiteOnVercel).toBe(false);
    const [site] = await db().select().from(localSites).where(eq(localSites.id, row.siteId!));
    expect(site.provider).toBe("netlify");
    expect(row.siteDetails).toMatchObject({
      state: "ready",
      published_deploy: { id: expect.any(String) },
    });
  });

  it("marks a site whose deployment fails as failed, with the provider's reason", async () => {
    const owner = await createUser();
    const created = await createThroughApi(await sessionCookie(owner.id), {
      name: "Will fail-deploy",
    });
    const row = await waitForStatus(created._id, ["success", "failed"]);
    expect(row.siteCreationStatus).toBe("failed");
    expect(row.studioCreationStatus).toBe("success");
    expect(row.lastProvisionError).toContain("fail-deploy");
    expect(row.permanentErrorAt).toBeNull();
    expect(row.siteDetails?.state).toBe("ERROR");
  });
});

/** The real local providers, with a "crash" (a plain Error) right after the n-th call returns. */
function crashingAfter(n: number): { providers: LifecycleProviders; calls: string[] } {
  const calls: string[] = [];
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          const result = await value.apply(obj, args);
          calls.push(String(prop));
          if (calls.length === n) throw new Error(`crash after ${String(prop)}`);
          return result;
        };
      },
    });
  return {
    calls,
    providers: {
      studio: () => wrap(contentStudioProvider()),
      hosting: (name: HostingProviderName) => wrap(hostingProvider(name)),
    },
  };
}

describe("idempotent steps", () => {
  // The calls one provisioning run makes, in order.
  const STEPS = [
    "createStudio",
    "ensureDataset",
    "addCorsOrigin",
    "invitationStatus",
    "inviteMember",
    "createSite",
    "triggerDeployment",
  ];

  it.each(STEPS.map((step, i) => [step, i + 1] as const))(
    "a run that dies right after %s is finished by the next run, with no duplicates",
    async (_step, n) => {
      const owner = await createUser();
      const user = (await getUser(owner.id))!;
      const { project } = await createProject(user, {
        name: `Crash ${n}`,
        idempotencyKey: `crash-${n}-${Date.now()}`,
      });
      const crashing = crashingAfter(n);
      await expect(provisionProject(project._id, crashing.providers)).rejects.toThrow(/crash/);
      expect(crashing.calls).toEqual(STEPS.slice(0, n));
      // The next attempt, and a duplicate one, run to the end.
      await provisionProject(project._id);
      await provisionProject(project._id);
      const row = await waitForStatus(project._id, ["success", "failed"]);
      expect(row.siteCreationStatus).toBe("success");
      expect(await counts(row.id, row.siteId)).toEqual({
        studios: 1,
        sites: 1,
        initialDeploys: 1,
      });
      const invites = await db()
        .select()
        .from(localStudioInvites)
        .where(eq(localStudioInvites.studioId, row.studioSanityId!));
      expect(invites.map((i) => i.sentCount)).toEqual([1]);
      const mails = await db()
        .select()
        .from(outbox)
        .where(and(eq(outbox.to, owner.email), like(outbox.subject, "%content studio%")));
      expect(mails).toHaveLength(1);
    },
  );

  it("records a retryable provider error and rethrows it; a permanent one fails the project", async () => {
    const owner = await createUser();
    const user = (await getUser(owner.id))!;
    const failing = (status: number): LifecycleProviders => ({
      studio: contentStudioProvider,
      hosting: (name) => ({
        ...hostingProvider(name),
        name,
        createSite: async () => {
          throw new ProviderError(`vendor said ${status}`, { provider: name, status });
        },
      }),
    });

    const { project } = await createProject(user, {
      name: "Flaky vendor",
      idempotencyKey: `flaky-${Date.now()}`,
    });
    await expect(provisionProject(project._id, failing(503))).rejects.toThrow("vendor said 503");
    let row = await projectRow(project._id);
    expect(row.siteCreationStatus).toBe("pending");
    expect(row.studioCreationStatus).toBe("success");
    expect(row.lastProvisionError).toBe("vendor said 503");

    await provisionProject(project._id, failing(422));
    row = await projectRow(project._id);
    expect(row.siteCreationStatus).toBe("failed");
    expect(row.lastProvisionError).toBe("vendor said 422");
    expect(row.siteId).toBeNull();
    // A failed project waits for a retry: provisioning again does nothing.
    await provisionProject(project._id);
    expect((await projectRow(project._id)).siteCreationStatus).toBe("failed");
  });

  it("resumes a project whose provisioning job was lost (nobody touched it for a while)", async () => {
    const owner = await createUser();
    const user = (await getUser(owner.id))!;
    // Created without enqueueing provisioning: as if the instance died right after the commit.
    const { project } = await createProject(user, {
      name: "Orphaned",
      idempotencyKey: `orphan-${Date.now()}`,
    });
    expect(await resumeStalledProjects()).not.toContain(project._id);
    await db()
      .update(projects)
      .set({ updatedAt: sql`now() - interval '5 minutes'` })
      .where(eq(projects.id, project._id));
    expect(await resumeStalledProjects()).toContain(project._id);
    const row = await waitForStatus(project._id, ["success", "failed"]);
    expect(row.siteCreationStatus).toBe("success");
    expect(await counts(row.id, row.siteId)).toEqual({ studios: 1, sites: 1, initialDeploys: 1 });
  });
});

describe("creating through the UI action", () => {
  it("enqueues provisioning too", async () => {
    const { action } = await import("~/routes/_app.sites._index");
    const { call, makeRequest } = await import("../helpers");
    const owner = await createUser();
    const res = await call(
      action,
      makeRequest("/sites", {
        cookie: await sessionCookie(owner.id),
        form: { intent: "create", name: "From the dialog", idempotencyKey: `ui-${Date.now()}` },
      }),
    );
    expect(res.status).toBe(302);
    const row = await waitFor(
      async () => {
        const [p] = await db()
          .select()
          .from(projects)
          .where(and(eq(projects.ownerId, owner.id), eq(projects.siteCreationStatus, "success")));
        return p;
      },
      { what: "the dialog's project to provision" },
    );
    expect(row.name).toBe("From the dialog");
  });
});
