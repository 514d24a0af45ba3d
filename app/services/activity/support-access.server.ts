/**
 * Support access, written down: a platform admin's view of or change to a project they neither own
 * nor belong to goes to the project's Activity Log and to the audit log (decision 011).
 * withProjectAction calls this for each action of a support actor (`isSupport`, whose rule is
 * permissions.server.ts's); callers pass only such actors.
 */
import { eventLogs } from "~/db/schema";
import type { Queryable } from "~/db/client.server";
import type { User } from "~/services/accounts/index.server";
import { appendAuditFor } from "./audit-log.server";
import { emitProjectEvent } from "~/services/events/index.server";
import type { Action, Actor } from "~/services/permissions/index.server";

/**
 * Actions that only read: support access for them is logged at most once per admin, project
 * and hour. Every other action a support actor is allowed is a change, logged each time.
 */
const READ_ACTIONS: ReadonlySet<Action> = new Set([
  "project.view",
  "activity.view",
  "members.view-all",
  "theme.preview",
  "devconsole.launch",
]);

const CHANGE_WORDS: Partial<Record<Action, string>> = {
  "members.add": "added a member",
  "members.remove": "removed a member",
  "members.change-role": "changed a member's role",
  "domain.edit": "changed the domain",
  "addons.toggle": "changed an add-on",
  "schema.raise": "raised the StackShift version",
  "payments.add": "added a payment account",
  "payments.remove": "removed a payment account",
  "social.link": "linked a social account",
  "social.unlink": "unlinked a social account",
  "newsletter.edit": "changed the newsletter settings",
  "forms.manage": "changed a form or its submissions",
  "project.rename": "renamed the project",
  "project.delete": "deleted the project",
};

/**
 * Writes 'Support access by {name}' to the project's Activity Log for a support `actor`, and
 * the same to the audit log (audit-log.server.ts), which outlives the project. Pass the
 * transaction of the change, so a change and its entries commit together. Views go through a
 * unique index on (project, admin, hour) (event_logs_support_view_hour_idx), which makes the
 * once-per-hour rule hold across concurrent requests and server instances; the audit row is
 * written exactly when the Activity Log's is. `change` names a change that has no action of its
 * own (e.g. 'resent the studio invitation of ...').
 */
export async function recordSupportAccess(
  tx: Queryable,
  user: User,
  actor: Actor,
  action: Action,
  change?: string,
): Promise<void> {
  if (!actor.project) return;
  const read = !change && READ_ACTIONS.has(action);
  const what = read ? "viewed the project" : (change ?? CHANGE_WORDS[action] ?? "made a change");
  const type = read ? "support.viewed" : "support.changed";
  const written = await tx
    .insert(eventLogs)
    .values({
      projectId: actor.project.id,
      type,
      content: `Support access by ${user.name}: ${what}`,
      metadata: { role: "platform admin", email: user.email },
      actorId: user.id,
    })
    .onConflictDoNothing()
    .returning({ key: eventLogs.key });
  if (written.length === 0) return;
  await emitProjectEvent(tx, {
    projectId: actor.project.id,
    type: "support.access",
    payload: { access: read ? "viewed" : "changed", what },
  });
  // A deletion writes its own audit row (project-deletion.server.ts), with who was told.
  if (action === "project.delete") return;
  await appendAuditFor(tx, actor.project.id, {
    action: type,
    actor: user,
    details: { what, permission: action, name: user.name },
  });
}
