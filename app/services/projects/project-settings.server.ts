/**
 * Project settings: raising the schema version (the StackShift template version the site runs),
 * which the cards' and Domain Settings' gates read. Only upwards: a site is never downgraded.
 */
import { and, asc, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { members, projects, users } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { ConflictError, InvalidError, NotFoundError } from "~/services/core";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";
import { LATEST_SCHEMA_VERSION } from "./project-status";
import { queueStudioSync } from "~/services/studio/index.server";
import { hasSecondFactorNow } from "~/services/two-factor/index.server";

export type SchemaVersionView = {
  current: number;
  latest: number;
  /** Platform admins, while the project is below the latest version. */
  canRaise: boolean;
};

export async function getSchemaVersion(user: User, studioId: string): Promise<SchemaVersionView> {
  const { actor, project: row } = await projectForAction(user, studioId, "project.view");
  const current = row.schemaVersion;
  return {
    current,
    latest: LATEST_SCHEMA_VERSION,
    canRaise: can(actor, "schema.raise") && current < LATEST_SCHEMA_VERSION,
  };
}

/**
 * Raises the project's schema version to `to` and logs who did it, in one transaction (the row
 * locked, so two admins raising at once log one change each, in order). 409 when the project is
 * already at `to` or above.
 */
export async function raiseSchemaVersion(
  user: User,
  studioId: string,
  to: number,
): Promise<{ from: number; to: number; name: string }> {
  return withProjectAction(user, studioId, "schema.raise", async ({ project: row, tx }) => {
    const [project] = await tx
      .select({ schemaVersion: projects.schemaVersion, name: projects.name })
      .from(projects)
      .where(eq(projects.id, row.id))
      .for("update");
    const from = project.schemaVersion;
    if (to <= from) {
      throw new ConflictError(`The project is already at StackShift version ${from}.`);
    }
    await tx
      .update(projects)
      .set({ schemaVersion: to, updatedAt: new Date() })
      .where(eq(projects.id, row.id));
    await logEvent(tx, {
      projectId: row.id,
      type: "project.schemaVersion.raised",
      content: `${user.name || user.email} raised the StackShift version from ${from} to ${to}`,
      actorId: user.id,
    });
    return { from, to, name: project.name };
  });
}

export type ProjectSettingsView = {
  name: string;
  canRename: boolean;
  /** The owner and platform admins. */
  canDelete: boolean;
  /** The owner only: the accepted admins ownership may move to. */
  transferTo: { userId: string; name: string; email: string }[] | null;
  /** Every member needs a second factor to open the project (decision 042). */
  requireTwoFactor: boolean;
  /** The owner may switch it. */
  canRequireTwoFactor: boolean;
  /** The owner and admins: the Webhooks page is theirs. */
  canManageWebhooks: boolean;
};

export async function getProjectSettings(
  user: User,
  studioId: string,
): Promise<ProjectSettingsView> {
  const { actor, project: row } = await projectForAction(user, studioId, "project.view");
  const admins = can(actor, "project.transfer")
    ? await db()
        .select({ userId: users.id, name: users.name, email: users.email })
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(
          and(
            eq(members.projectId, row.id),
            eq(members.role, "admin"),
            eq(members.status, "accepted"),
          ),
        )
        .orderBy(asc(users.name))
    : null;
  return {
    name: row.name,
    canRename: can(actor, "project.rename"),
    canDelete: can(actor, "project.delete"),
    transferTo: admins,
    requireTwoFactor: row.requireTwoFactor,
    canRequireTwoFactor: can(actor, "project.require-2fa"),
    canManageWebhooks: can(actor, "webhooks.manage"),
  };
}

export const OWNER_NEEDS_SECOND_FACTOR =
  "Set up a second factor for yourself first (User Settings, Two-factor authentication): the rule applies to you too.";

/**
 * The owner's switch: whether everyone on the project needs a second factor to open it (its
 * pages, its API, support included). Turning it on needs one of the owner's own, so nobody locks
 * themselves out by a click. Logged in the project's Activity Log.
 */
export async function setRequireTwoFactor(
  user: User,
  studioId: string,
  required: boolean,
): Promise<{ changed: boolean }> {
  return withProjectAction(user, studioId, "project.require-2fa", async ({ project, tx }) => {
    if (project.requireTwoFactor === required) return { changed: false };
    if (required && !hasSecondFactorNow(user)) {
      throw new InvalidError(OWNER_NEEDS_SECOND_FACTOR, {
        requireTwoFactor: [OWNER_NEEDS_SECOND_FACTOR],
      });
    }
    await tx
      .update(projects)
      .set({ requireTwoFactor: required, updatedAt: new Date() })
      .where(eq(projects.id, project.id));
    await logEvent(tx, {
      projectId: project.id,
      type: "project.twoFactor.changed",
      content: required
        ? `${user.name || user.email} required a second factor of every member`
        : `${user.name || user.email} stopped requiring a second factor of members`,
      actorId: user.id,
    });
    return { changed: true };
  });
}

/** Renames the project (the name rules of a new project); logged with the old and new name. */
export async function renameProject(user: User, studioId: string, name: string): Promise<void> {
  await withProjectAction(user, studioId, "project.rename", async ({ project, tx }) => {
    const [before] = await tx
      .select({ name: projects.name })
      .from(projects)
      .where(eq(projects.id, project.id))
      .for("update");
    if (before.name === name) return;
    await tx
      .update(projects)
      .set({ name, updatedAt: new Date() })
      .where(eq(projects.id, project.id));
    await logEvent(tx, {
      projectId: project.id,
      type: "project.renamed",
      content: `${user.name || user.email} renamed the project from ${before.name} to ${name}`,
      actorId: user.id,
    });
  });
}

/**
 * Moves ownership to an accepted admin member: they become the owner (their member row goes),
 * the former owner stays as an admin member. One transaction, the project row locked, with the
 * jobs that bring the content studio in line for both.
 */
export async function transferOwnership(
  user: User,
  studioId: string,
  toUserId: string,
): Promise<{ name: string }> {
  return withProjectAction(user, studioId, "project.transfer", async ({ project, tx }) => {
    const [locked] = await tx
      .select({ ownerId: projects.ownerId })
      .from(projects)
      .where(eq(projects.id, project.id))
      .for("update");
    if (locked.ownerId !== user.id) throw new ConflictError("You no longer own this project");
    const [target] = await tx
      .select({ memberId: members.id, name: users.name, email: users.email })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(
        and(
          eq(members.projectId, project.id),
          eq(members.userId, toUserId),
          eq(members.role, "admin"),
          eq(members.status, "accepted"),
        ),
      );
    if (!target) {
      throw new NotFoundError("Ownership can only move to an accepted admin of the project");
    }
    await tx.delete(members).where(eq(members.id, target.memberId));
    await tx
      .update(projects)
      .set({ ownerId: toUserId, updatedAt: new Date() })
      .where(eq(projects.id, project.id));
    await tx.insert(members).values({
      projectId: project.id,
      userId: user.id,
      invitedEmail: user.email,
      role: "admin",
      status: "accepted",
    });
    await logEvent(tx, {
      projectId: project.id,
      type: "project.ownership.transferred",
      content: `${user.name || user.email} transferred the project to ${target.name || target.email}`,
      actorId: user.id,
    });
    await emitProjectEvent(tx, {
      projectId: project.id,
      type: "project.transferred",
      payload: { newOwnerEmail: target.email },
    });
    // The content studio follows both: the new owner administers it, the former one as an admin.
    for (const email of [user.email, target.email]) {
      await queueStudioSync(tx, { projectId: project.id, email });
    }
    return { name: target.name || target.email };
  });
}
