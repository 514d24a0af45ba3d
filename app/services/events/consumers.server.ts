/**
 * The fan-out: each event goes to every consumer in EVENT_CONSUMERS, in one transaction per
 * event, once (`fanned_out_at`). A consumer turns the event into its own durable work (rows and
 * jobs in the same transaction), so a consumer joins with one line in the list below.
 */
import { eq } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { projectEvents } from "~/db/schema";
import { notificationConsumer } from "~/services/notifications/index.server";
import { webhookConsumer } from "~/services/webhooks/index.server";

export type StoredEvent = typeof projectEvents.$inferSelect;

export type EventConsumer = {
  name: string;
  /** Called once per event inside the fan-out's transaction; must only write rows and jobs. */
  take: (tx: Tx, event: StoredEvent) => Promise<void>;
};

export const EVENT_CONSUMERS: EventConsumer[] = [webhookConsumer, notificationConsumer];

/** The fan-out job: idempotent (a re-run after its commit finds `fannedOutAt` set). */
export async function fanOutEvent(eventId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(eventId)) return;
  await db().transaction(async (tx) => {
    const [event] = await tx
      .select()
      .from(projectEvents)
      .where(eq(projectEvents.id, eventId))
      .for("update");
    if (!event || event.fannedOutAt) return;
    for (const consumer of EVENT_CONSUMERS) await consumer.take(tx, event);
    await tx
      .update(projectEvents)
      .set({ fannedOutAt: new Date() })
      .where(eq(projectEvents.id, event.id));
  });
}
