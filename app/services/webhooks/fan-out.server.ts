/**
 * The webhooks' consumer of project events: one delivery row per subscribed, enabled webhook,
 * with its job, in the fan-out's transaction (at least once: the job exists exactly when the
 * delivery does). Over the hourly limit, the row is written as skipped and nothing is sent.
 */
import { and, arrayContains, count, eq, gt, inArray, sql } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { type projectEvents, webhookDeliveries, webhooks } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import { MAX_DELIVERIES_PER_HOUR } from "./limits";

export const WEBHOOK_DELIVERY_JOB = "webhooks.deliver";
/** Crash recovery only: the delivery schedules its own retries (delivery.server.ts). */
export const DELIVERY_JOB_OPTIONS = { retryLimit: 5, retryDelay: 10, retryBackoff: true } as const;

export async function queueDelivery(tx: Tx, deliveryId: string, startAfterSeconds = 0) {
  await sendJob(
    WEBHOOK_DELIVERY_JOB,
    { deliveryId },
    { ...DELIVERY_JOB_OPTIONS, startAfter: startAfterSeconds },
    tx,
  );
}

export const webhookConsumer = {
  name: "webhooks",
  async take(tx: Tx, event: typeof projectEvents.$inferSelect) {
    const targets = await tx
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(
        and(
          eq(webhooks.projectId, event.projectId),
          eq(webhooks.enabled, true),
          arrayContains(webhooks.events, [event.type]),
        ),
      );
    if (targets.length === 0) return;
    const [{ lastHour }] = await tx
      .select({ lastHour: count() })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(
        and(
          eq(webhooks.projectId, event.projectId),
          gt(webhookDeliveries.createdAt, sql`now() - interval '1 hour'`),
          inArray(webhookDeliveries.status, ["pending", "succeeded", "failed"]),
        ),
      );
    let room = MAX_DELIVERIES_PER_HOUR - lastHour;
    for (const target of targets) {
      const over = room <= 0;
      const [delivery] = await tx
        .insert(webhookDeliveries)
        .values({
          webhookId: target.id,
          eventId: event.id,
          eventType: event.type,
          ...(over
            ? {
                status: "skipped" as const,
                responseBody: `Not sent: the project's limit of ${MAX_DELIVERIES_PER_HOUR} deliveries an hour was reached`,
              }
            : { nextAttemptAt: new Date() }),
        })
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id });
      if (!delivery || over) continue;
      room -= 1;
      await queueDelivery(tx, delivery.id);
    }
  },
};
