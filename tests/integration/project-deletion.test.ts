/**
 * Deleting a project from its Settings page: the name typed to confirm, the owner and platform
 * admins only, everything of it gone from our database at once (the lists no longer show it),
 * and the cleanup job removing its local site and content studio (again without harm).
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localSites, localStudios, members, projects, projectSites, users } from "~/db/schema";
import { action as settingsAction } from "~/routes/_app._project.sites.settings.$studioId";
import { loader as listLoader } from "~/routes/api.app._index";
import {
  cleanUpDeletedProject,
  PROJECT_CLEANUP_JOB,
} from "~/services/projects/project-deletion.server";
import {
  call,
  createUser,
  insertProject,
  makeRequest,
  runQueuedJobs,
  sessionCookie,
} from "../helpers";
import { toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Dora Deleter" });
  ownerCookie = await sessionCookie(owner.id);
});

/** A project with a local site and a local content studio, as provisioning leaves it. */
async function provisionedProject(name: string) {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const studioProjectId = `studio${tag}`;
  await db()
    .insert(localStudios)
    .values({ id: studioProjectId, displayName: name, idempotencyKey: `k-${tag}` });
  const project = await insertProject(owner.id, { name, studioSanityId: studioProjectId });
  const siteId = `site-${tag}`;
  await db()
    .insert(localSites)
    .values({ id: siteId, provider: "netlify", name, idempotencyKey: `i-${tag}` });
  await db().insert(projectSites).values({ projectId: project.id, provider: "netlify", siteId });
  return { project, siteId, studioProjectId };
}

/** A platform admin of this worker's database (made once). */
async function platformAdminCookie() {
  const [existing] = await db().select().from(users).where(eq(users.email, "admin@example.com"));
  return sessionCookie(existing?.id ?? (await createUser({ email: "admin@example.com" })).id);
}

const remove = (studioId: string, cookie: string, confirmName: string) =>
  call(
    settingsAction,
    makeRequest(`/sites/settings/${studioId}`, {
      cookie,
      form: { intent: "project-delete", confirmName },
    }),
    { studioId },
  );

describe("deleting a project", () => {
  it("wants the project's name typed, and deletes nothing otherwise", async () => {
    const { project } = await provisionedProject("Careful Bakery");
    const res = await remove(project.studioId, ownerCookie, "Careful");
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.confirmName).toEqual(["Type the project's name exactly to delete it"]);
    expect(await db().select().from(projects).where(eq(projects.id, project.id))).toHaveLength(1);
  });

  it("removes it from our database at once, then its site and studio through the job", async () => {
    const { project, siteId, studioProjectId } = await provisionedProject("Closing Bakery");
    const member = await createUser();
    await addMember(project.id, member, "editor");
    const res = await remove(project.studioId, ownerCookie, "Closing Bakery");
    expect(res).toHaveRedirect("/sites");
    expect(await toastOf(res)).toMatchObject({
      type: "success",
      title: "Project Closing Bakery deleted",
    });
    expect(await db().select().from(projects).where(eq(projects.id, project.id))).toHaveLength(0);
    expect(await db().select().from(members).where(eq(members.projectId, project.id))).toHaveLength(
      0,
    );
    const list = await call(listLoader, makeRequest("/api/app?limit=100", { cookie: ownerCookie }));
    const listed = ((await list.json()) as { data: { studioId: string }[] }).data;
    expect(listed.map((p) => p.studioId)).not.toContain(project.studioId);
    // The providers' site and studio go with the job.
    expect(await db().select().from(localSites).where(eq(localSites.id, siteId))).toHaveLength(1);
    expect(await runQueuedJobs(PROJECT_CLEANUP_JOB)).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(localSites).where(eq(localSites.id, siteId))).toHaveLength(0);
    expect(
      await db().select().from(localStudios).where(eq(localStudios.id, studioProjectId)),
    ).toHaveLength(0);
    // A retried job after everything is gone does no harm.
    await expect(
      cleanUpDeletedProject({
        name: "Closing Bakery",
        studioProjectId,
        sites: [{ provider: "netlify", siteId }],
      }),
    ).resolves.toBeUndefined();
  });

  it("is for the owner and platform admins, not admin members", async () => {
    const { project } = await provisionedProject("Guarded Bakery");
    const admin = await createUser();
    await addMember(project.id, admin, "admin");
    const refused = await remove(project.studioId, await sessionCookie(admin.id), "Guarded Bakery");
    expect(refused.status).toBe(403);
    expect(await db().select().from(projects).where(eq(projects.id, project.id))).toHaveLength(1);
    const paCookie = await platformAdminCookie();
    const res = await remove(project.studioId, paCookie, "Guarded Bakery");
    expect(res).toHaveRedirect("/sites");
    expect(await db().select().from(projects).where(eq(projects.id, project.id))).toHaveLength(0);
  });
});
