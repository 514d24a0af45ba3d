/**
 * The audit log (docs/decisions/026-audit-log.md): every support access to a project and every
 * project deletion, kept after the project is gone. A project's Activity Log goes with the
 * project (event_logs cascade); these rows have no foreign key and outlive it, so an owner can
 * still see what the platform's staff did to a project they no longer have.
 *
 * Append-only: this module only inserts. Nothing in the app updates or deletes an audit row,
 * and the database refuses to (a trigger, drizzle/0019_audit_log.sql).
 */
import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { auditLog, projects } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";

export const AUDIT_ACTIONS = ["support.viewed", "support.changed", "project.deleted"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditEntry = {
  action: AuditAction;
  actor: Pick<User, "id" | "email">;
  project: { id: string; name: string; ownerId: string | null };
  details?: Record<string, unknown>;
};

/** Appends one row, in the caller's transaction (so it commits exactly with the change). */
export async function appendAudit(tx: Queryable, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actor.id,
    actorEmail: entry.actor.email.toLowerCase(),
    projectId: entry.project.id,
    projectName: entry.project.name,
    projectOwnerId: entry.project.ownerId,
    details: entry.details ?? {},
  });
}

/** `appendAudit` for a project known by id only: its name and owner read in `tx`. */
export async function appendAuditFor(
  tx: Queryable,
  projectId: string,
  entry: Omit<AuditEntry, "project">,
): Promise<void> {
  const [project] = await tx
    .select({ id: projects.id, name: projects.name, ownerId: projects.ownerId })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!project) return;
  await appendAudit(tx, { ...entry, project });
}

/** A row of 'Support on deleted projects' (user settings). */
export type SupportHistoryEntry = {
  id: string;
  projectName: string;
  /** What happened, in the words of the project's Activity Log. */
  what: string;
  actorEmail: string;
  at: string;
};

/** At most this many rows on the settings page: the newest. */
export const SUPPORT_HISTORY_LIMIT = 100;

const WORDS: Record<AuditAction, string> = {
  "support.viewed": "Viewed the project",
  "support.changed": "Made a change",
  "project.deleted": "Deleted the project",
};

/**
 * What the platform's staff did on the projects `user` owned that are now deleted: support
 * access (views and changes) and the deletion itself when a platform admin deleted it. Projects
 * still there show the same in their Activity Log.
 */
export async function supportHistoryOf(user: User): Promise<SupportHistoryEntry[]> {
  const deleted = db()
    .select({ id: auditLog.projectId })
    .from(auditLog)
    .where(and(eq(auditLog.projectOwnerId, user.id), eq(auditLog.action, "project.deleted")));
  const rows = await db()
    .select()
    .from(auditLog)
    .where(
      and(
        inArray(auditLog.projectId, deleted),
        or(
          inArray(auditLog.action, ["support.viewed", "support.changed"]),
          and(
            eq(auditLog.action, "project.deleted"),
            sql`(${auditLog.details}->>'byPlatformAdmin')::boolean`,
          ),
        ),
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(SUPPORT_HISTORY_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    projectName: row.projectName,
    what:
      typeof row.details.what === "string" && row.action !== "project.deleted"
        ? capitalise(row.details.what)
        : (WORDS[row.action as AuditAction] ?? row.action),
    actorEmail: row.actorEmail,
    at: row.createdAt.toISOString(),
  }));
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
