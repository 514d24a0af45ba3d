import { eventLogs } from "~/db/schema";
import type { Queryable } from "~/db/client.server";
import { viaToken } from "~/utils/request-memo.server";

/**
 * The activity log's event types. `sites.create` is recorded but hidden
 * from the log.
 */
export const EVENT_TYPES = [
  "sites.create",
  "members.invitation.sent",
  "members.invitation.accepted",
  "members.invitation.declined",
  "members.invitation.revoked",
  "members.leaved",
  "members.removed",
  "members.role.changed",
  "ecommerce.enabled",
  "ecommerce.disabled",
  "newsletter.enabled",
  "newsletter.disabled",
  "socialMedia.enabled",
  "socialMedia.disabled",
  "e2eTests.enabled",
  "e2eTests.disabled",
  "visualTests.enabled",
  "visualTests.disabled",
  "gpt.enabled",
  "gpt.disabled",
  "domains.set",
  "domains.reverted",
  "domains.released",
  "project.schemaVersion.raised",
  "payments.account.added",
  "payments.account.removed",
  "payments.account.connected",
  "social.account.linked",
  "social.account.unlinked",
  "newsletter.settings.saved",
  "newsletter.domain.added",
  "newsletter.domain.verified",
  "newsletter.domain.deleted",
  "newsletter.template.saved",
  "newsletter.template.renamed",
  "newsletter.template.deleted",
  "forms.settings.saved",
  "forms.submission.deleted",
  "forms.submissions.deleted",
  "project.renamed",
  "project.ownership.transferred",
  "project.twoFactor.changed",
  "site.redeployed",
  "site.rolledBack",
  "support.viewed",
  "support.changed",
  "studio.tokens.revoked",
  "webhooks.added",
  "webhooks.removed",
  "webhooks.enabled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Event types never shown in the activity log. */
export const HIDDEN_EVENT_TYPES: ReadonlySet<EventType> = new Set(["sites.create"]);

/**
 * Records one event. Call it with the transaction that makes the change, so the log and the
 * change commit (or roll back) together.
 */
export async function logEvent(
  tx: Queryable,
  event: {
    projectId: string;
    type: EventType;
    content: string;
    label?: string;
    metadata?: { role?: string; email?: string };
    actorId?: string | null;
  },
) {
  // A change a script made with a personal access token says so (decision 029).
  const token = viaToken();
  await tx.insert(eventLogs).values({
    projectId: event.projectId,
    type: event.type,
    content: token ? `${event.content} via token ${token}` : event.content,
    label: event.label ?? null,
    metadata: event.metadata ?? {},
    actorId: event.actorId ?? null,
  });
}
