/** Shared setup of the studio tests: a project provisioned with the configured content studio. */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { members, projects } from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import type { User } from "~/services/accounts/accounts.server";
import { createProject } from "~/services/projects/projects.server";
import type { createUser } from "../helpers";

export type TestUser = Awaited<ReturnType<typeof createUser>>;

export function asUser(row: TestUser): User {
  return { id: row.id, name: row.name, email: row.email, isAdmin: false };
}

let seq = 0;

/**
 * Creates a project for `owner` and does what provisioning does for the studio: creates it,
 * records its id and URL on the project and invites the owner (unless `invite` is false).
 */
export async function provisionedProject(owner: TestUser, options: { invite?: boolean } = {}) {
  seq += 1;
  const { project } = await createProject(asUser(owner), {
    name: `Studio test ${seq}`,
    idempotencyKey: `studio-test-${seq}-${Math.random()}`,
  });
  const provider = contentStudioProvider();
  const studio = await provider.createStudio({
    displayName: project.name,
    idempotencyKey: project.idempotencyKey,
  });
  await db()
    .update(projects)
    .set({ studioSanityId: studio.projectId, studioUrl: studio.studioUrl })
    .where(eq(projects.id, project._id));
  if (options.invite !== false) {
    await provider.inviteMember(studio.projectId, { email: owner.email, role: "administrator" });
  }
  return { ...project, studioSanityId: studio.projectId, studioUrl: studio.studioUrl };
}

export async function addMember(
  projectId: string,
  user: { id: string; email: string },
  role: "editor" | "developer" | "admin" = "editor",
  status: "invited" | "accepted" = "accepted",
) {
  await db()
    .insert(members)
    .values({ projectId, userId: user.id, invitedEmail: user.email, role, status });
}
