/**
 * A ready project for tests that call routes as its owner and members: created through the
 * projects service, with a local content studio, a published local site and both creation
 * statuses "success", as provisioning leaves it (the permission table and the fuzz test).
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { localDeploys, localSites, projects, projectSites } from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import type { User } from "~/services/accounts/accounts.server";
import { createProject } from "~/services/projects/projects.server";
import { primaryProvider } from "~/services/lifecycle/common.server";
import type { createUser } from "../helpers";

/** The actors of the permission table (and of the fuzz test), least to most trusted. */
export const ACTORS = [
  "anonymous",
  "outsider",
  "invited",
  "editor",
  "developer",
  "admin",
  "owner",
  "platformAdmin",
] as const;
export type ActorName = (typeof ACTORS)[number];

export type TestUser = Awaited<ReturnType<typeof createUser>>;
export type ProjectFixture = {
  id: string;
  studioId: string;
  name: string;
  idempotencyKey: string;
  siteId: string;
  studioSanityId: string;
  /** The site's repository (`owner/name`): its End To End Tests runs. */
  repo: string;
};

export const asUser = (row: TestUser): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  isAdmin: row.email === "admin@example.com",
});

export async function makeProject(owner: TestUser, name: string): Promise<ProjectFixture> {
  const { project } = await createProject(asUser(owner), {
    name,
    idempotencyKey: `perm-${randomBytes(6).toString("hex")}`,
  });
  const studio = await contentStudioProvider().createStudio({
    displayName: project.name,
    idempotencyKey: project.idempotencyKey,
  });
  const provider = primaryProvider(project.siteType);
  const siteId = `perm-site-${randomBytes(6).toString("hex")}`;
  const deployId = `perm-dep-${randomBytes(6).toString("hex")}`;
  await db()
    .insert(localSites)
    .values({ id: siteId, provider, name: project.name, idempotencyKey: `idem-${siteId}` });
  await db()
    .insert(localDeploys)
    .values({ id: deployId, siteId, state: provider === "vercel" ? "READY" : "ready" });
  await db()
    .update(localSites)
    .set({ publishedDeployId: deployId })
    .where(eq(localSites.id, siteId));
  await db().insert(projectSites).values({ projectId: project._id, provider, siteId });
  await db()
    .update(projects)
    .set({
      studioSanityId: studio.projectId,
      studioUrl: studio.studioUrl,
      siteId,
      siteDetails: { build_settings: { repo_url: `https://github.com/perm-sites/${siteId}` } },
      isSiteOnVercel: provider === "vercel",
      siteCreationStatus: "success",
      studioCreationStatus: "success",
    })
    .where(eq(projects.id, project._id));
  return {
    id: project._id,
    studioId: project.studioId,
    name: project.name,
    idempotencyKey: project.idempotencyKey,
    siteId,
    studioSanityId: studio.projectId,
    repo: `perm-sites/${siteId}`,
  };
}
