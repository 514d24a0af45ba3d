/**
 * How long project events are kept: 30 days, with their webhook deliveries (the delivery log) and
 * any digest items (cascade). A delivery retries for 24 hours at most, so a month-old event has
 * nothing left to send; a month of log is what a team looks back through when a receiver was
 * down over a holiday (GitHub keeps 3 days for redelivery, Stripe 30 days of events). Events not
 * yet fanned out are never purged: that would lose what they owe. The hourly job also removes a
 * deleted project's webhooks once its `project.deleted` delivery has had its retries.
 */
import { and, isNotNull, lt, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projectEvents } from "~/db/schema";
import { purgeWebhooksOfDeletedProjects } from "~/services/webhooks/index.server";

export const EVENT_RETENTION_DAYS = 30;
export const EVENTS_PURGE_JOB = "events.purge";
/** Rows per delete: short transactions, so the purge never holds writers up for long. */
const BATCH = 2000;

export async function purgeOldEvents(now = new Date()) {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  let events = 0;
  for (;;) {
    const gone = await db()
      .delete(projectEvents)
      .where(
        sql`${projectEvents.id} in (${db()
          .select({ id: projectEvents.id })
          .from(projectEvents)
          .where(and(lt(projectEvents.createdAt, cutoff), isNotNull(projectEvents.fannedOutAt)))
          .limit(BATCH)})`,
      )
      .returning({ id: projectEvents.id });
    events += gone.length;
    if (gone.length < BATCH) break;
  }
  const webhooks = await purgeWebhooksOfDeletedProjects(now);
  return { events, webhooks };
}
