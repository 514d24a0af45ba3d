/**
 * Project settings: raising the schema version (the StackShift template version the site runs),
 * which the cards' and Domain Settings' gates read. Only upwards: a site is never downgraded.
 */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects } from "~/db/schema";
import type { User } from "./accounts.server";
import { logEvent } from "./activity.server";
import { ConflictError, NotFoundError } from "./errors";
import { authorizeOn, can, projectRowFor, requireProjectAction } from "./permissions.server";
import { LATEST_SCHEMA_VERSION } from "./project-status";

export type SchemaVersionView = {
  current: number;
  latest: number;
  /** Platform admins, while the project is below the latest version. */
  canRaise: boolean;
};

export async function getSchemaVersion(user: User, studioId: string): Promise<SchemaVersionView> {
  const actor = await requireProjectAction(user, studioId, "project.view");
  const row = (await projectRowFor(user, studioId))!;
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
  const row = await projectRowFor(user, studioId);
  if (!row) throw new NotFoundError("Project not found");
  return db().transaction(async (tx) => {
    await authorizeOn(user, row, "schema.raise", tx);
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
