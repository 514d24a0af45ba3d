/**
 * A deleted project's webhooks: kept while its `project.deleted` delivery may still be retried
 * (24 hours, RETRY_WINDOW_MS), then removed with their deliveries and encrypted secrets. The
 * events' hourly purge calls this (events/retention.server.ts).
 */
import { and, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { webhooks } from "~/db/schema";
import { RETRY_WINDOW_MS } from "./limits";

/** An hour beyond the retries' window: the last retry has run by then. */
const AFTER_DELETION_MS = RETRY_WINDOW_MS + 60 * 60 * 1000;

export async function purgeWebhooksOfDeletedProjects(now = new Date()) {
  const cutoff = new Date(now.getTime() - AFTER_DELETION_MS);
  const gone = await db()
    .delete(webhooks)
    .where(
      and(
        sql`not exists (select 1 from projects p where p.id = ${webhooks.projectId})`,
        sql`exists (select 1 from project_events e
                    where e.project_id = ${webhooks.projectId} and e.type = 'project.deleted'
                      and e.created_at < ${cutoff})`,
      ),
    )
    .returning({ id: webhooks.id });
  return gone.length;
}
