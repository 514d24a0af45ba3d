/**
 * A person's notification settings: the events by role (or the defaults), the digest, and a
 * choice per project over them. Read by the Notifications page and the notification consumer.
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { members, notificationProjectOverrides, notificationSettings, projects } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import type { ProjectRole } from "~/services/events";
import {
  eventsFor,
  NOTIFICATION_DEFAULTS,
  NOTIFICATION_ROLES,
  type ByRole,
  type NotificationSettingsInput,
  type ProjectMode,
} from "./schema";

/** Saved events of a role, kept to what the role may be mailed (the catalogue may change). */
function cleanByRole(saved: Record<string, string[]> | null | undefined): ByRole {
  const out = { ...NOTIFICATION_DEFAULTS };
  if (!saved) return out;
  for (const role of NOTIFICATION_ROLES) {
    const allowed = eventsFor(role);
    out[role] = allowed.filter((type) => (saved[role] ?? []).includes(type));
  }
  return out;
}

export type PersonSettings = { byRole: ByRole; digest: boolean };

/** The settings of these people (the defaults for those who never saved any). */
export async function settingsOf(
  tx: Queryable,
  userIds: string[],
): Promise<Map<string, PersonSettings>> {
  const out = new Map<string, PersonSettings>();
  for (const id of userIds) out.set(id, { byRole: cleanByRole(null), digest: false });
  if (userIds.length === 0) return out;
  const rows = await tx
    .select()
    .from(notificationSettings)
    .where(inArray(notificationSettings.userId, userIds));
  for (const row of rows) {
    out.set(row.userId, { byRole: cleanByRole(row.byRole), digest: row.digest });
  }
  return out;
}

/** The projects a person is in (owner or accepted member), with their role, by name. */
export async function projectsOf(
  tx: Queryable,
  userId: string,
): Promise<{ id: string; studioId: string; name: string; role: ProjectRole }[]> {
  const rows = await tx
    .select({
      id: projects.id,
      studioId: projects.studioId,
      name: projects.name,
      ownerId: projects.ownerId,
      memberRole: members.role,
    })
    .from(projects)
    .leftJoin(
      members,
      and(
        eq(members.projectId, projects.id),
        eq(members.userId, userId),
        eq(members.status, "accepted"),
      ),
    )
    .where(or(eq(projects.ownerId, userId), sql`${members.id} is not null`))
    .orderBy(sql`lower(${projects.name})`, projects.id)
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    studioId: r.studioId,
    name: r.name,
    role: r.ownerId === userId ? "owner" : (r.memberRole ?? "editor"),
  }));
}

/** What the Notifications page shows. */
export async function getNotificationSettings(user: User) {
  const [settings, list, overrides] = await Promise.all([
    settingsOf(db(), [user.id]),
    projectsOf(db(), user.id),
    db()
      .select()
      .from(notificationProjectOverrides)
      .where(eq(notificationProjectOverrides.userId, user.id)),
  ]);
  const mine = settings.get(user.id)!;
  return {
    byRole: mine.byRole,
    digest: mine.digest,
    projects: list.map((p) => ({
      ...p,
      mode: (overrides.find((o) => o.projectId === p.id)?.mode ?? "settings") as ProjectMode,
    })),
  };
}

/**
 * Saves the page's form in one transaction. Events a role may not be mailed are dropped, and
 * projects the person is not in are left alone (a stale or hand-made form changes nothing there).
 */
export async function saveNotificationSettings(user: User, input: NotificationSettingsInput) {
  await db().transaction(async (tx) => {
    const byRole = {} as ByRole;
    for (const role of NOTIFICATION_ROLES) {
      const allowed = eventsFor(role);
      byRole[role] = allowed.filter((type) => input[role].includes(type));
    }
    await tx
      .insert(notificationSettings)
      .values({ userId: user.id, byRole, digest: input.digest })
      .onConflictDoUpdate({
        target: notificationSettings.userId,
        set: { byRole, digest: input.digest, updatedAt: new Date() },
      });
    const mine = new Set((await projectsOf(tx, user.id)).map((p) => p.id));
    for (const { projectId, mode } of input.projects) {
      if (!mine.has(projectId)) continue;
      await setProjectMode(tx, user.id, projectId, mode);
    }
  });
}

/** One person's choice for one project ('settings' removes the override). */
export async function setProjectMode(
  tx: Queryable,
  userId: string,
  projectId: string,
  mode: ProjectMode,
) {
  if (mode === "settings") {
    await tx
      .delete(notificationProjectOverrides)
      .where(
        and(
          eq(notificationProjectOverrides.userId, userId),
          eq(notificationProjectOverrides.projectId, projectId),
        ),
      );
    return;
  }
  await tx
    .insert(notificationProjectOverrides)
    .values({ userId, projectId, mode })
    .onConflictDoUpdate({
      target: [notificationProjectOverrides.userId, notificationProjectOverrides.projectId],
      set: { mode, updatedAt: new Date() },
    });
}

/** The overrides of these people for one project. */
export async function modesFor(
  tx: Queryable,
  projectId: string,
  userIds: string[],
): Promise<Map<string, ProjectMode>> {
  const out = new Map<string, ProjectMode>();
  if (userIds.length === 0) return out;
  const rows = await tx
    .select()
    .from(notificationProjectOverrides)
    .where(
      and(
        eq(notificationProjectOverrides.projectId, projectId),
        inArray(notificationProjectOverrides.userId, userIds),
      ),
    );
  for (const row of rows) out.set(row.userId, row.mode);
  return out;
}
