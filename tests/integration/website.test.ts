/**
 * The Website page with the local hosting provider: the site's addresses, the published
 * deployment and the earlier ready ones; Roll back publishes an earlier one again (the local
 * site serves it), Redeploy queues a deployment; both logged; editors may not, developers and
 * platform admins may.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, localDeploys, localSites, projects, projectSites, users } from "~/db/schema";
import { action, loader } from "~/routes/_app._project.sites.website.$studioId";
import type { WebsiteView } from "~/services/deployments/website.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Wes Website" });
  ownerCookie = await sessionCookie(owner.id);
});

/** A deployed project: a local Netlify site with two ready deploys, the newer one published. */
async function deployedProject() {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const siteId = `site-${tag}`;
  const project = await insertProject(owner.id, {
    siteCreationStatus: "success",
    studioCreationStatus: "success",
    siteUrl: `http://localhost:3000/local/sites/${siteId}`,
    siteId,
  });
  await db()
    .insert(localSites)
    .values({ id: siteId, provider: "netlify", name: project.name, idempotencyKey: `i-${tag}` });
  await db()
    .insert(localDeploys)
    .values({ id: `old-${tag}`, siteId, state: "ready", title: "First version" });
  await db()
    .insert(localDeploys)
    .values({ id: `new-${tag}`, siteId, state: "ready", title: "Second version" });
  await db()
    .update(localSites)
    .set({ publishedDeployId: `new-${tag}` })
    .where(eq(localSites.id, siteId));
  await db()
    .insert(projectSites)
    .values({
      projectId: project.id,
      provider: "netlify",
      siteId,
      url: `http://localhost:3000/local/sites/${siteId}`,
    });
  return { project, siteId, oldId: `old-${tag}`, newId: `new-${tag}` };
}

async function view(studioId: string, cookie = ownerCookie) {
  const res = await call(loader, makeRequest(`/sites/website/${studioId}`, { cookie }), {
    studioId,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { website: WebsiteView }).website;
}

const post = (studioId: string, form: Record<string, string>, cookie = ownerCookie) =>
  call(action, makeRequest(`/sites/website/${studioId}`, { cookie, form }), { studioId });

describe("the Website page", () => {
  it("shows the addresses, the published deployment and the earlier ready one", async () => {
    const { project, siteId, oldId, newId } = await deployedProject();
    const website = await view(project.studioId);
    expect(website.sites).toEqual([
      {
        provider: "netlify",
        url: `http://localhost:3000/local/sites/${siteId}`,
        customDomain: null,
      },
    ]);
    expect(website.published).toMatchObject({ id: newId, label: "Published" });
    expect(website.rollbackTargets.map((d) => d.id)).toEqual([oldId]);
    expect(website).toMatchObject({ canRedeploy: true, canRollback: true, error: null });
  });

  it("rolls back to an earlier deployment, which the site then serves, and logs it", async () => {
    const { project, siteId, oldId } = await deployedProject();
    const res = await post(project.studioId, { intent: "site-rollback", deployId: oldId });
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Website rolled back" });
    const [site] = await db().select().from(localSites).where(eq(localSites.id, siteId));
    expect(site.publishedDeployId).toBe(oldId);
    expect((await view(project.studioId)).published).toMatchObject({ id: oldId });
    const [event] = await db()
      .select()
      .from(eventLogs)
      .where(and(eq(eventLogs.projectId, project.id), eq(eventLogs.type, "site.rolledBack")));
    expect(event.content).toBe(`Wes Website rolled the website back to deployment ${oldId}`);
    // A deployment that is not the site's.
    const unknown = await post(project.studioId, { intent: "site-rollback", deployId: "nope" });
    expect(await toastOf(unknown)).toMatchObject({ type: "error", title: "Roll back failed" });
  });

  it("redeploys through the deploy job and logs it", async () => {
    const { project } = await deployedProject();
    const res = await post(project.studioId, { intent: "site-redeploy" });
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Redeploy started" });
    const [event] = await db()
      .select()
      .from(eventLogs)
      .where(and(eq(eventLogs.projectId, project.id), eq(eventLogs.type, "site.redeployed")));
    expect(event).toBeDefined();
    const [row] = await db().select().from(projects).where(eq(projects.id, project.id));
    expect(row.siteCreationStatus).toBe("success");
  });

  it("lets developers redeploy, not editors or support", async () => {
    const { project } = await deployedProject();
    const editor = await createUser();
    const developer = await createUser();
    await addMember(project.id, editor, "editor");
    await addMember(project.id, developer, "developer");
    const editorCookie = await sessionCookie(editor.id);
    expect(await view(project.studioId, editorCookie)).toMatchObject({
      canRedeploy: false,
      canRollback: false,
    });
    const refused = await post(project.studioId, { intent: "site-redeploy" }, editorCookie);
    expect(await toastOf(refused)).toMatchObject({ type: "error", title: "Redeploy failed" });
    const ok = await post(
      project.studioId,
      { intent: "site-redeploy" },
      await sessionCookie(developer.id),
    );
    expect(await toastOf(ok)).toMatchObject({ type: "success" });
    const [existing] = await db().select().from(users).where(eq(users.email, "admin@example.com"));
    const pa = existing ?? (await createUser({ email: "admin@example.com" }));
    // Support sees the page but not the buttons, and is refused (decision 011 as amended).
    const paCookie = await sessionCookie(pa.id);
    expect(await view(project.studioId, paCookie)).toMatchObject({
      canRedeploy: false,
      canRollback: false,
    });
    const byPa = await post(project.studioId, { intent: "site-redeploy" }, paCookie);
    expect(await toastOf(byPa)).toMatchObject({ type: "error", title: "Redeploy failed" });
  });
});
