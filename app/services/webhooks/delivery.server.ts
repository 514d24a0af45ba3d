/**
 * The delivery job: one attempt of one delivery, signed per Standard Webhooks 1.0 with the
 * `standardwebhooks` package (`webhook-id` is the delivery's id, the same on every retry and on
 * 'Redeliver'; `webhook-signature: v1,<base64>` over `id.timestamp.body`). A failed attempt
 * schedules the next one with backoff (limits.ts) until 24 hours after the event; a webhook
 * whose deliveries have failed for 3 days is switched off and its owner and admins are mailed.
 */
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { db, type Tx } from "~/db/client.server";
import { projectEvents, projects, webhookDeliveries, webhooks } from "~/db/schema";
import { decryptSecret } from "~/utils/secrets.server";
import { log } from "~/utils/logger.server";
import { webhookAttempted } from "~/utils/metrics.server";
import { EVENT_CATALOG, eventEnvelope, isProjectEventType } from "~/services/events";
import { absoluteUrl, queueMail } from "~/services/core/index.server";
import { ownerAndAdmins } from "~/services/projects/index.server";
import { queueDelivery } from "./fan-out.server";
import { FAILING_DAYS_BEFORE_OFF, RETRY_WINDOW_MS, retryDelaySeconds } from "./limits";
import { postWebhook } from "./post.server";

type EventRow = typeof projectEvents.$inferSelect;

/** The body: the event's envelope, or for the Slack format Slack's `text` and `blocks`. */
export function deliveryBody(format: "standard" | "slack", event: EventRow): string {
  const envelope = eventEnvelope(event);
  if (format === "standard") return JSON.stringify(envelope);
  const label = isProjectEventType(event.type) ? EVENT_CATALOG[event.type].label : event.type;
  const details = Object.entries(event.payload)
    .filter(([, value]) => value !== null && typeof value !== "object")
    .map(([key, value]) => `${key}: ${String(value)}`);
  const text = `${label}: ${event.projectName}`;
  return JSON.stringify({
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${label}* (${event.projectName})` } },
      ...(details.length
        ? [{ type: "context", elements: [{ type: "mrkdwn", text: details.join("\n") }] }]
        : []),
    ],
  });
}

export async function deliverWebhook(deliveryId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(deliveryId)) return;
  const [row] = await db()
    .select({ delivery: webhookDeliveries, webhook: webhooks, event: projectEvents })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .innerJoin(projectEvents, eq(projectEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row || row.delivery.status !== "pending") return;
  const { delivery, webhook, event } = row;
  if (!webhook.enabled) {
    await db()
      .update(webhookDeliveries)
      .set({ status: "skipped", responseBody: "Not sent: the webhook is switched off" })
      .where(eq(webhookDeliveries.id, delivery.id));
    return;
  }
  const body = deliveryBody(webhook.format, event);
  const timestamp = new Date();
  const signature = new Webhook(decryptSecret(webhook.secretEncrypted)).sign(
    delivery.id,
    timestamp,
    body,
  );
  const outcome = await postWebhook(webhook.url, body, {
    "webhook-id": delivery.id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signature,
  });
  webhookAttempted(
    event.type,
    outcome.ok ? "success" : outcome.refused ? "refused" : "failure",
    outcome.durationMs / 1000,
  );
  const attempts = delivery.attempts + 1;
  const retryLeft = Date.now() - delivery.createdAt.getTime() < RETRY_WINDOW_MS;
  const wait = retryDelaySeconds(attempts);
  await db().transaction(async (tx) => {
    // The webhook's row first, then its delivery's: the order in which removing a webhook (or its
    // project) locks them, so the two never wait on each other (PostgreSQL would fail one with
    // `deadlock detected`). Removed meanwhile: its delivery went with it.
    const [still] = await tx
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(eq(webhooks.id, webhook.id))
      .for("no key update");
    if (!still) return;
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        status: outcome.ok ? "succeeded" : retryLeft ? "pending" : "failed",
        attempts,
        responseStatus: outcome.status,
        durationMs: outcome.durationMs,
        responseBody: outcome.body,
        lastAttemptAt: timestamp,
        nextAttemptAt: !outcome.ok && retryLeft ? new Date(Date.now() + wait * 1000) : null,
      })
      // Only the attempt that found it pending writes (a Redeliver meanwhile starts anew).
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, "pending")))
      .returning({ id: webhookDeliveries.id });
    if (!updated) return;
    if (outcome.ok) {
      await tx.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, webhook.id));
      return;
    }
    if (retryLeft) await queueDelivery(tx, delivery.id, wait);
    await recordFailure(tx, webhook);
  });
}

/** Notes the failure on the webhook; 3 days of nothing but failures switch it off. */
async function recordFailure(tx: Tx, webhook: typeof webhooks.$inferSelect) {
  const [state] = await tx
    .update(webhooks)
    .set({ failingSince: sql`coalesce(${webhooks.failingSince}, now())` })
    .where(eq(webhooks.id, webhook.id))
    .returning({ failingSince: webhooks.failingSince, enabled: webhooks.enabled });
  const since = state?.failingSince?.getTime();
  if (!state?.enabled || !since) return;
  if (Date.now() - since < FAILING_DAYS_BEFORE_OFF * 24 * 60 * 60 * 1000) return;
  const reason = `Switched off: every delivery failed for ${FAILING_DAYS_BEFORE_OFF} days`;
  await tx
    .update(webhooks)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where(eq(webhooks.id, webhook.id));
  const [project] = await tx.select().from(projects).where(eq(projects.id, webhook.projectId));
  if (!project) return;
  log().warn(
    { area: "webhooks", webhookId: webhook.id, projectId: project.id },
    "webhook switched off after failing for days",
  );
  for (const person of await ownerAndAdmins(tx, project.id, project.ownerId)) {
    await queueMail(tx, {
      to: person.email,
      subject: `A webhook of ${project.name} was switched off`,
      text: [
        "Hello,",
        "",
        `Every delivery to the webhook ${webhook.url} of ${project.name} has failed for ${FAILING_DAYS_BEFORE_OFF} days, so it was switched off and gets no more events.`,
        "",
        `See its delivery log and switch it on again: ${absoluteUrl(`/sites/${project.studioId}/webhooks`)}`,
      ].join("\n"),
    });
  }
}
