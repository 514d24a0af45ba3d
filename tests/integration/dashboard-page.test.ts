import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localDeploys, localSites, members, projects, projectSites } from "~/db/schema";
import { loader } from "~/routes/_app._project.sites.$studioId/route";
import { callProjectPage, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";

/**
 * A site on the built-in hosting provider with `count` deploys (oldest first): deploy 1 is the
 * published one and deploy 2 failed. The project points at it as its primary site.
 */
async function withSite(
  project: typeof projects.$inferSelect,
  provider: "netlify" | "vercel",
  count: number,
) {
  const siteId = `site-${randomUUID()}`;
  await db()
    .insert(localSites)
    .values({ id: siteId, provider, name: project.name, idempotencyKey: `idem-${siteId}` });
  const ids: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const id = `dep-${i}-${randomUUID().slice(0, 8)}`;
    ids.push(id);
    const failed = i === 2;
    await db()
      .insert(localDeploys)
      .values({
        id,
        siteId,
        state: provider === "netlify" ? (failed ? "error" : "ready") : failed ? "ERROR" : "READY",
        title: `Deploy number ${i}`,
        branch: "main",
        commitRef: `abcdef${i}`,
        errorMessage: failed ? "Build script returned non-zero exit code" : null,
      });
  }
  if (count > 0) {
    await db()
      .update(localSites)
      .set({ publishedDeployId: ids[0] })
      .where(eq(localSites.id, siteId));
  }
  await db()
    .update(projects)
    .set({ siteId, isSiteOnVercel: provider === "vercel" })
    .where(eq(projects.id, project.id));
  await db().insert(projectSites).values({ projectId: project.id, provider, siteId });
  return { siteId, ids };
}

const get = async (cookie: string | undefined, studioId: string, query = "") =>
  callProjectPage(loader, makeRequest(`/sites/${studioId}${query}`, { cookie }), { studioId });

type Builds = {
  ok: boolean;
  message?: string;
  request: { page?: number; next?: string; prev?: string };
  results: { id: string; title: string; label: string | null }[];
  latestDeployment: { id: string } | null;
  pagination: { prev: string | null; next: string | null };
  isSiteOnVercel: boolean;
};

describe("/sites/{studioId} (the project dashboard)", () => {
  it("shows the project, its statuses and its builds to the owner", async () => {
    const owner = await createUser({ name: "Olive Owner" });
    const project = await insertProject(owner.id, {
      siteCreationStatus: "success",
      studioCreationStatus: "success",
      siteCustomDomain: "olive.example",
      siteUrl: "https://olive.netlify.example",
      siteType: "enterprise",
      inviteToProjectAccepted: true,
      studioSanityId: "sanity-olive",
      studioAndSitePreviewToken: "dashboard-secret",
      siteDetails: { state: "current", ssl: false, published_deploy: { id: "x" } },
    });
    const { ids } = await withSite(project, "netlify", 3);
    const res = await get(await sessionCookie(owner.id), project.studioId);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("dashboard-secret");
    expect(text).not.toContain(project.idempotencyKey);
    const body = JSON.parse(text);
    expect(body.project).toMatchObject({
      name: project.name,
      owner: { name: "Olive Owner" },
      badge: { state: "getting-ready", label: "Getting Ready", isNew: true },
      live: true,
      upgradeTo: 3,
      address: "https://olive.example/",
      providers: [
        { provider: "netlify", label: "Primary" },
        { provider: "vercel", label: "Deployed" },
      ],
    });
    expect(body.viewer).toEqual({ name: "Olive Owner", email: owner.email });
    expect(body.accepted).toBe(true);
    expect(body.failure).toBeNull();
    const builds: Builds = body.builds;
    expect(builds.ok).toBe(true);
    expect(builds.isSiteOnVercel).toBe(false);
    // Newest first; the published deploy is 'Published', the failed one 'Error'.
    expect(builds.results.map((d) => [d.id, d.label])).toEqual([
      [ids[2], null],
      [ids[1], "Error"],
      [ids[0], "Published"],
    ]);
    expect(builds.latestDeployment?.id).toBe(ids[0]);
    expect(builds.pagination).toEqual({ prev: null, next: null });
  });

  it("shows accepted members and support the dashboard, invitees the invitation card; outsiders get 404", async () => {
    const owner = await createUser();
    const editor = await createUser();
    const invited = await createUser();
    const outsider = await createUser();
    const admin = await createUser({ email: "admin@example.com" });
    const project = await insertProject(owner.id);
    await db()
      .insert(members)
      .values([
        {
          projectId: project.id,
          userId: editor.id,
          invitedEmail: editor.email,
          status: "accepted",
        },
        {
          projectId: project.id,
          userId: invited.id,
          invitedEmail: invited.email,
          status: "invited",
        },
      ]);
    const ok = await get(await sessionCookie(editor.id), project.studioId);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.project).toMatchObject({ role: "editor", isOwner: false });
    // No studio yet: the invitation cannot have been accepted.
    expect(body.accepted).toBe(false);
    // No site yet: an empty list, not an error.
    expect(body.builds).toMatchObject({ ok: true, results: [], latestDeployment: null });
    expect(body.project.badge).toMatchObject({ state: "building", label: "In Progress" });

    const cookie = await sessionCookie(outsider.id);
    expect((await get(cookie, project.studioId)).status).toBe(404);
    // The permission check comes first: bad input from a non-member is still a 404.
    expect((await get(cookie, project.studioId, "?page=abc")).status).toBe(404);
    // A platform admin outside the project sees it as support (decision 011).
    const support = await get(await sessionCookie(admin.id), project.studioId);
    expect(support.status).toBe(200);
    expect((await support.json()).project).toMatchObject({ role: "support", isOwner: false });
    // The invitee gets the invitation card, never the project, whatever the input.
    for (const search of ["", "?page=abc"]) {
      const card = await get(await sessionCookie(invited.id), project.studioId, search);
      expect(card.status).toBe(200);
      const body = await card.json();
      expect(body.project).toBeUndefined();
      expect(body.invitation).toMatchObject({ state: "valid", viewer: "invitee" });
    }
    expect((await get(await sessionCookie(owner.id), "no-such-studio")).status).toBe(404);
    const anonymous = await get(undefined, project.studioId);
    expect(anonymous.status).toBe(302);
    expect(anonymous).toHaveRedirect(/^\/auth\/login\?redirectTo=/);
  });

  it("pages a Netlify site's builds by number from ?page=", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const project = await insertProject(owner.id, { siteType: "enterprise" });
    const { ids } = await withSite(project, "netlify", 12);
    const first: Builds = (await (await get(cookie, project.studioId)).json()).builds;
    expect(first.results).toHaveLength(10);
    expect(first.pagination).toEqual({ prev: null, next: "2" });
    const second: Builds = (await (await get(cookie, project.studioId, "?page=2")).json()).builds;
    expect(second.request).toEqual({ page: 2 });
    expect(second.results.map((d) => d.id)).toEqual([ids[1], ids[0]]);
    expect(second.results.map((d) => d.label)).toEqual(["Error", "Published"]);
    expect(second.pagination).toEqual({ prev: "1", next: null });
    expect(second.latestDeployment?.id).toBe(ids[0]);
  });

  it("pages a Vercel site's builds by cursor from ?next= and ?prev=", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const project = await insertProject(owner.id, { siteType: "business" });
    const { ids } = await withSite(project, "vercel", 13);
    const first = await (await get(cookie, project.studioId)).json();
    expect(first.project.providers).toMatchObject([
      { provider: "netlify", label: "Not Deployed" },
      { provider: "vercel", label: "Primary" },
    ]);
    const page1: Builds = first.builds;
    expect(page1.isSiteOnVercel).toBe(true);
    expect(page1.results).toHaveLength(10);
    expect(page1.pagination.prev).toBeNull();
    expect(page1.pagination.next).toEqual(expect.any(String));

    const next = encodeURIComponent(page1.pagination.next!);
    const page2: Builds = (await (await get(cookie, project.studioId, `?next=${next}`)).json())
      .builds;
    expect(page2.request).toEqual({ next: page1.pagination.next });
    expect(page2.results.map((d) => d.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(page2.pagination.next).toBeNull();
    expect(page2.pagination.prev).toEqual(expect.any(String));

    const prev = encodeURIComponent(page2.pagination.prev!);
    const back: Builds = (await (await get(cookie, project.studioId, `?prev=${prev}`)).json())
      .builds;
    expect(back.results.map((d) => d.id)).toEqual(page1.results.map((d) => d.id));
  });

  it("answers bad page input with 400 and the reason, never 500", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const netlify = await insertProject(owner.id, { siteType: "enterprise" });
    await withSite(netlify, "netlify", 2);
    const vercel = await insertProject(owner.id);
    await withSite(vercel, "vercel", 2);
    const cases: [string, string][] = [
      [netlify.studioId, "?page=abc"],
      [netlify.studioId, "?page=0"],
      [netlify.studioId, "?page=-3"],
      [netlify.studioId, "?page=1.5"],
      [netlify.studioId, "?page=99999999"],
      [netlify.studioId, "?page=2&next=c1"],
      [netlify.studioId, "?next=%3Cscript%3E"],
      [netlify.studioId, `?next=${"c".repeat(500)}`],
      // Cursors on a page-numbered site, and a cursor the provider does not know.
      [netlify.studioId, "?next=c1"],
      [vercel.studioId, "?page=2"],
      [vercel.studioId, "?next=garbage"],
    ];
    for (const [studioId, query] of cases) {
      const res = await get(cookie, studioId, query);
      expect(res.status, query).toBe(400);
      // Still the dashboard, with the reason where the builds would be.
      const body = await res.json();
      expect(body.project.studioId, query).toBe(studioId);
      expect(body.builds, query).toMatchObject({ ok: false, invalid: true });
      expect(body.builds.message, query).toEqual(expect.any(String));
    }
    // Empty values are no value: the first page.
    expect((await get(cookie, netlify.studioId, "?page=&next=&prev=")).status).toBe(200);
  });

  it("keeps the dashboard up when the hosting provider fails, with a generic message", async () => {
    const owner = await createUser();
    const project = await insertProject(owner.id, { siteId: "site-that-is-gone" });
    const res = await get(await sessionCookie(owner.id), project.studioId);
    expect(res.status).toBe(200);
    const text = await res.text();
    const builds: Builds = JSON.parse(text).builds;
    expect(builds.ok).toBe(false);
    expect(builds.message).toBe(
      "The hosting provider reported an error. Our team has the details.",
    );
    // The provider's own words ("Site site-that-is-gone not found") stay in the server log.
    expect(text).not.toContain("Site site-that-is-gone not found");
  });

  it("links a failed deployment to the retry page, and a permanent one to the error page", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const failed = await insertProject(owner.id, { siteCreationStatus: "failed" });
    const permanent = await insertProject(owner.id, {
      siteCreationStatus: "failed",
      deployRetryCount: 3,
      permanentErrorAt: new Date(),
    });
    const fine = await insertProject(owner.id, { siteCreationStatus: "deployed" });
    const failure = async (studioId: string) =>
      (await (await get(cookie, studioId)).json()).failure;
    expect(await failure(failed.studioId)).toEqual({ permanent: false });
    expect(await failure(permanent.studioId)).toEqual({ permanent: true });
    expect(await failure(fine.studioId)).toBeNull();
    const body = await (await get(cookie, failed.studioId)).json();
    expect(body.project.badge).toMatchObject({ state: "error", label: "Build Error" });
  });
});

describe("the Members table of a large project", () => {
  it("renders the first 20 rows with the total, and all of them with ?members=all", async () => {
    const owner = await createUser();
    const project = await insertProject(owner.id);
    await db()
      .insert(members)
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          projectId: project.id,
          invitedEmail: `row-${i}-${project.id}@example.com`,
          status: "invited" as const,
        })),
      );
    const cookie = await sessionCookie(owner.id);
    const first = await (await get(cookie, project.studioId)).json();
    // The owner's row and 19 members of 26 rows in all.
    expect(first.members.members).toHaveLength(20);
    expect(first.members.total).toBe(26);
    // Every address still counts as taken for the invite form.
    expect(first.members.takenEmails).toHaveLength(26);
    const all = await (await get(cookie, project.studioId, "?members=all")).json();
    expect(all.members.members).toHaveLength(26);
    expect(all.members.total).toBe(26);
  });
});
