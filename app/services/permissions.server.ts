import { and, eq } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { members } from "~/db/schema";
import type { User } from "./accounts.server";

/**
 * The one place that answers "may actor X do Y on project P" (ARCHITECTURE.md). It starts with
 * project access and the site-type choice; later issues add the member, domain and add-on rules.
 */
export type ProjectRole = "owner" | "admin" | "developer" | "editor";
export type ProjectAccess = ProjectRole | "none";

/**
 * The actor's role on a project: its owner, an accepted member's role, or "none". Invited (not
 * yet accepted) members have none, and so do platform admins on projects that are not theirs:
 * being a platform admin does not open other people's projects.
 */
export async function projectAccess(
  user: User,
  project: { id: string; ownerId: string },
  tx: Queryable = db(),
): Promise<ProjectAccess> {
  if (project.ownerId === user.id) return "owner";
  const [row] = await tx
    .select({ role: members.role })
    .from(members)
    .where(
      and(
        eq(members.projectId, project.id),
        eq(members.userId, user.id),
        eq(members.status, "accepted"),
      ),
    )
    .limit(1);
  return row?.role ?? "none";
}

/** Spec section 6: only platform admins may choose the site type when creating a project. */
export function canChooseSiteType(user: User): boolean {
  return user.isAdmin;
}
