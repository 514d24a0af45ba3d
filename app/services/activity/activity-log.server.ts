/**
 * Reading a project's Activity Log, newest first. Events are written by `logEvent`
 * (activity.server.ts) in the transaction of the change they record.
 */
import { and, count, desc, eq, notInArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { eventLogs } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { EVENT_TYPES, HIDDEN_EVENT_TYPES, type EventType } from "./activity.server";
import { InvalidError } from "~/services/core";
import { projectForAction } from "~/services/permissions/index.server";

/** The dashboard shows the 3 latest events; 'Show more' expands to at most 1000. */
export const ACTIVITY_DEFAULT_LIMIT = 3;
export const ACTIVITY_MAX_LIMIT = 1000;

/** One entry, with the field names of the JSON API's `eventLogs[]`. */
export type ActivityEntry = {
  _key: string;
  type: string;
  content: string;
  /** The specification's metadata{role,email}: null when the event has none (a key added). */
  metadata: { role: string | null; email: string | null };
  /** ISO 8601. */
  timestamp: string;
  /** Human-readable type, e.g. 'Invitation sent'. */
  label: string;
};

export type ActivityPage = {
  entries: ActivityEntry[];
  /** Visible events in all (hidden types excluded), to tell whether 'Show more' has more. */
  total: number;
};

/** Labels of the known types. A type added to EVENT_TYPES must get one here (checked by tsc). */
export const EVENT_LABELS: Record<EventType, string> = {
  "sites.create": "Project created",
  "members.invitation.sent": "Invitation sent",
  "members.invitation.accepted": "Invitation accepted",
  "members.invitation.declined": "Invitation declined",
  "members.invitation.revoked": "Invitation revoked",
  "members.leaved": "Member left",
  "members.removed": "Member removed",
  "members.role.changed": "Role changed",
  "ecommerce.enabled": "Ecommerce enabled",
  "ecommerce.disabled": "Ecommerce disabled",
  "newsletter.enabled": "AI Newsletter enabled",
  "newsletter.disabled": "AI Newsletter disabled",
  "socialMedia.enabled": "Social Media enabled",
  "socialMedia.disabled": "Social Media disabled",
  "e2eTests.enabled": "End To End Tests enabled",
  "e2eTests.disabled": "End To End Tests disabled",
  "visualTests.enabled": "Visual tests enabled",
  "visualTests.disabled": "Visual tests disabled",
  "gpt.enabled": "GPT enabled",
  "gpt.disabled": "GPT disabled",
  "domains.set": "Custom domain set",
  "project.schemaVersion.raised": "StackShift version raised",
  "payments.account.added": "Stripe account added",
  "payments.account.removed": "Stripe account removed",
  "payments.account.connected": "Stripe account connected",
  "social.account.linked": "Instagram account linked",
  "social.account.unlinked": "Instagram account unlinked",
  "newsletter.settings.saved": "Newsletter settings saved",
  "newsletter.domain.added": "Sender domain added",
  "newsletter.domain.verified": "Sender domain verified",
  "newsletter.domain.deleted": "Sender domain deleted",
  "newsletter.template.saved": "Newsletter template saved",
  "newsletter.template.renamed": "Newsletter template renamed",
  "newsletter.template.deleted": "Newsletter template deleted",
  "forms.settings.saved": "Form settings saved",
  "forms.submission.deleted": "Form submission deleted",
  "forms.submissions.deleted": "Form submissions deleted",
  "project.renamed": "Project renamed",
  "project.ownership.transferred": "Ownership transferred",
  "project.twoFactor.changed": "Second factor rule changed",
  "site.redeployed": "Website redeployed",
  "site.rolledBack": "Website rolled back",
  "domains.reverted": "Custom domain reverted",
  "domains.released": "Custom domain released",
  "support.viewed": "Support access",
  "support.changed": "Support access",
  "studio.tokens.revoked": "Studio API tokens revoked",
  "webhooks.added": "Webhook added",
  "webhooks.removed": "Webhook removed",
  "webhooks.enabled": "Webhook switched on",
};

const KNOWN = new Set<string>(EVENT_TYPES);

/**
 * The label of a type: ours for known types, else the type made readable ("a.b.c" -> "A b c"),
 * so rows written by a newer version still read well.
 */
export function eventLabel(type: string): string {
  if (KNOWN.has(type)) return EVENT_LABELS[type as EventType];
  const words = type
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[._\-\s]+/)
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : "Activity";
}

/** A limit within 1..1000; anything unusable is the default 3. */
export function activityLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return ACTIVITY_DEFAULT_LIMIT;
  return Math.min(Math.max(Math.trunc(limit), 1), ACTIVITY_MAX_LIMIT);
}

/**
 * The project's activity log, newest first, without hidden types (sites.create). Owner and
 * accepted members only ("activity.view"); everyone else gets NotFoundError.
 */
export async function listActivity(
  user: User | null,
  projectId: string,
  opts: { limit?: number } = {},
): Promise<ActivityPage> {
  const { project } = await projectForAction(user, projectId, "activity.view");
  const where = and(
    eq(eventLogs.projectId, project.id),
    notInArray(eventLogs.type, [...HIDDEN_EVENT_TYPES]),
  );
  const [rows, [totals]] = await Promise.all([
    db()
      .select()
      .from(eventLogs)
      .where(where)
      // Events of one transaction share a timestamp; the key keeps their order stable.
      .orderBy(desc(eventLogs.timestamp), desc(eventLogs.key))
      .limit(activityLimit(opts.limit)),
    db().select({ total: count() }).from(eventLogs).where(where),
  ]);
  return {
    entries: rows.map(toEntry),
    total: Number(totals?.total ?? 0),
  };
}

/** The JSON API's page size of event logs (GET /api/app/{id}). */
export const EVENT_LOG_PAGE = 20;

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A keyset page of the activity log for the JSON API: newest first, `nextCursor` (the last entry's
 * key) fetches the rest. The cursor row's own timestamp is read in SQL, so microseconds are kept.
 */
export async function listActivityPage(
  user: User | null,
  projectId: string,
  opts: { cursor?: string; limit?: number } = {},
): Promise<{ entries: ActivityEntry[]; nextCursor: string | null }> {
  const { project } = await projectForAction(user, projectId, "activity.view");
  if (opts.cursor !== undefined && !KEY.test(opts.cursor)) {
    throw new InvalidError("Invalid cursor", { eventLogsCursor: ["Invalid cursor"] });
  }
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? EVENT_LOG_PAGE), 1), 100);
  const rows = await db()
    .select()
    .from(eventLogs)
    .where(
      and(
        eq(eventLogs.projectId, project.id),
        notInArray(eventLogs.type, [...HIDDEN_EVENT_TYPES]),
        opts.cursor
          ? sql`(${eventLogs.timestamp}, ${eventLogs.key}) < (select c.timestamp, c.key from ${eventLogs} c where c.key = ${opts.cursor} and c.project_id = ${project.id})`
          : undefined,
      ),
    )
    .orderBy(desc(eventLogs.timestamp), desc(eventLogs.key))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    entries: page.map(toEntry),
    nextCursor: rows.length > limit ? page[page.length - 1].key : null,
  };
}

function toEntry(row: typeof eventLogs.$inferSelect): ActivityEntry {
  return {
    _key: row.key,
    type: row.type,
    content: row.content,
    metadata: pickMetadata(row.metadata),
    timestamp: row.timestamp.toISOString(),
    label: row.label || eventLabel(row.type),
  };
}

function pickMetadata(value: unknown): ActivityEntry["metadata"] {
  const out: ActivityEntry["metadata"] = { role: null, email: null };
  if (value && typeof value === "object") {
    const { role, email } = value as Record<string, unknown>;
    if (typeof role === "string") out.role = role;
    if (typeof email === "string") out.email = email;
  }
  return out;
}
