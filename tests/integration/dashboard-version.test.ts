import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, queriesRun } from "~/db/client.server";
import {
  eventLogs,
  localDeploys,
  members,
  paymentAccounts,
  projects,
  projectSites,
  users,
} from "~/db/schema";
import { loader as dashboardLoader } from "~/routes/_app._project.sites.$studioId/route";
import { loader as versionLoader } from "~/routes/_app.sites.$studioId_.version";
import { forgetSite } from "~/services/core/provider-cache.server";
import { call, createUser, makeRequest, projectOnLocalSite, sessionCookie } from "../helpers";

/**
 * The dashboard's data version: what the page's loader hands the 30 s refresh, and what
 * /sites/{id}/version answers (304 while nothing changed). Every kind of change the dashboard
 * shows must change it: rows added, edited and deleted, an account renamed, a new deploy.
 */

const setup = () => projectOnLocalSite("Vera Version");

async function pageVersion(cookie: string, studioId: string): Promise<string> {
  const res = await call(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie }), {
    studioId,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { dataVersion: string }).dataVersion;
}

function askVersion(cookie: string | undefined, studioId: string, version?: string) {
  const headers = version ? { "If-None-Match": `"${version}"` } : undefined;
  return call(versionLoader, makeRequest(`/sites/${studioId}/version`, { cookie, headers }), {
    studioId,
  });
}

describe("the dashboard's data version", () => {
  it("is the same from the page and the version route, and answers 304 while nothing changed", async () => {
    const { project, cookie } = await setup();
    const version = await pageVersion(cookie, project.studioId);
    expect(version).toMatch(/^[\w-]{22}$/);

    const fresh = await askVersion(cookie, project.studioId);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("ETag")).toBe(`"${version}"`);
    expect(await fresh.json()).toEqual({ version });

    const unchanged = await askVersion(cookie, project.studioId, version);
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe("");
    // Asking again is no change either.
    expect(await pageVersion(cookie, project.studioId)).toBe(version);
  });

  it("changes with each kind of change the dashboard shows", async () => {
    const { owner, project, siteId, cookie } = await setup();
    const seen = new Set<string>();
    const expectChanged = async (what: string) => {
      const version = await pageVersion(cookie, project.studioId);
      expect(seen.has(version), `${what} changes the version`).toBe(false);
      seen.add(version);
      // The route agrees with the page, and the old version is no longer current.
      expect((await askVersion(cookie, project.studioId, version)).status).toBe(304);
    };
    await expectChanged("the start");

    await db().update(projects).set({ name: "Renamed project" }).where(eq(projects.id, project.id));
    await expectChanged("the project renamed");

    const member = await createUser({ name: "Milo Member" });
    const [row] = await db()
      .insert(members)
      .values({
        projectId: project.id,
        userId: member.id,
        invitedEmail: member.email,
        status: "accepted",
        role: "editor",
      })
      .returning();
    await expectChanged("a member added");

    await db().update(users).set({ name: "Milo Renamed" }).where(eq(users.id, member.id));
    await expectChanged("a member's account renamed");

    await db().update(users).set({ name: "Vera Renamed" }).where(eq(users.id, owner.id));
    await expectChanged("the owner renamed");

    await db().update(members).set({ role: "admin" }).where(eq(members.id, row!.id));
    await expectChanged("a member's role");

    await db().delete(members).where(eq(members.id, row!.id));
    await expectChanged("a member removed");

    await db()
      .insert(paymentAccounts)
      .values({
        projectId: project.id,
        accountName: "Shop",
        publishableKey: `pk_test_${randomUUID()}`,
        secretKeyEncrypted: "sealed",
        secretKeyLast4: "4242",
        apiVersion: "2024-06-20",
      });
    await expectChanged("a payment account added");

    await db()
      .update(projectSites)
      .set({ customDomain: `shop-${randomUUID().slice(0, 8)}.example` })
      .where(eq(projectSites.projectId, project.id));
    await expectChanged("a site's domain");

    await db().insert(eventLogs).values({
      projectId: project.id,
      type: "project.updated",
      content: "Something happened",
    });
    await expectChanged("an activity entry");

    // A new deploy at the provider: seen once the provider cache has it (here: forgotten, as
    // after our own deploy; otherwise within the cache's fresh window).
    await db()
      .insert(localDeploys)
      .values({ id: `dep-${randomUUID()}`, siteId, state: "building", title: "New deploy" });
    forgetSite("netlify", siteId);
    await expectChanged("a deploy at the provider");
  });

  it("answers an unchanged check with two queries: the session with its account, the project with its digest", async () => {
    const { project, cookie } = await setup();
    const version = await pageVersion(cookie, project.studioId);
    // The first check fills the provider cache (the page's read may have been another page).
    expect((await askVersion(cookie, project.studioId, version)).status).toBe(304);
    const before = queriesRun();
    const unchanged = await askVersion(cookie, project.studioId, version);
    expect(unchanged.status).toBe(304);
    expect(queriesRun() - before).toBe(2);
  });

  it("is the page's version for an accepted member too", async () => {
    const { project } = await setup();
    const member = await createUser();
    await db().insert(members).values({
      projectId: project.id,
      userId: member.id,
      invitedEmail: member.email,
      status: "accepted",
      role: "editor",
    });
    const cookie = await sessionCookie(member.id);
    const version = await pageVersion(cookie, project.studioId);
    expect((await askVersion(cookie, project.studioId, version)).status).toBe(304);
  });

  it("is 404 for someone outside the project, and asks a signed-out visitor to sign in", async () => {
    const { project } = await setup();
    const stranger = await createUser();
    const hidden = await askVersion(await sessionCookie(stranger.id), project.studioId);
    expect(hidden.status).toBe(404);
    const signedOut = await askVersion(undefined, project.studioId);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth\/login/);
  });
});
