/**
 * A project's webhooks: add (the `whsec_` secret is returned once, then kept encrypted), list,
 * remove, switch on again, their delivery log, and 'Redeliver'. The owner and admins
 * (`webhooks.manage`); each change is in the Activity Log.
 */
import { randomBytes } from "node:crypto";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { db } from "~/db/client.server";
import { webhookDeliveries, webhooks } from "~/db/schema";
import { UUID } from "~/utils/uuid";
import { encryptSecret } from "~/utils/secrets.server";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { ConflictError, InvalidError, NotFoundError } from "~/services/core";
import { ProjectNotFoundError, withProjectAction } from "~/services/permissions/index.server";
import { webhookUrlProblem } from "./address-guard.server";
import { queueDelivery } from "./fan-out.server";
import { MAX_WEBHOOKS_PER_PROJECT } from "./limits";
import type { WebhookInput } from "./schema";

export type WebhookView = {
  id: string;
  url: string;
  format: "standard" | "slack";
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  /** The newest delivery's outcome, for the list (null before the first event). */
  lastDelivery: {
    status: DeliveryView["status"];
    responseStatus: number | null;
    at: string;
  } | null;
};

export type DeliveryView = {
  id: string;
  eventType: string;
  status: "pending" | "succeeded" | "failed" | "skipped";
  attempts: number;
  responseStatus: number | null;
  durationMs: number | null;
  responseBody: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
};

const viewOf = (
  row: typeof webhooks.$inferSelect,
  lastDelivery: WebhookView["lastDelivery"] = null,
): WebhookView => ({
  id: row.id,
  url: row.url,
  format: row.format,
  events: row.events,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
  lastDelivery,
});

/** A new signing secret in Standard Webhooks' form: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret() {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export async function listWebhooks(user: User, studioId: string): Promise<WebhookView[]> {
  return withProjectAction(
    user,
    studioId,
    "webhooks.manage",
    async ({ project, tx }) => {
      const rows = await tx
        .select()
        .from(webhooks)
        .where(eq(webhooks.projectId, project.id))
        .orderBy(desc(webhooks.createdAt));
      if (!rows.length) return [];
      // The newest delivery of each, in one statement (DISTINCT ON over the webhook's index).
      const latest = await tx
        .selectDistinctOn([webhookDeliveries.webhookId], {
          webhookId: webhookDeliveries.webhookId,
          status: webhookDeliveries.status,
          responseStatus: webhookDeliveries.responseStatus,
          createdAt: webhookDeliveries.createdAt,
          lastAttemptAt: webhookDeliveries.lastAttemptAt,
        })
        .from(webhookDeliveries)
        .where(
          inArray(
            webhookDeliveries.webhookId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(webhookDeliveries.webhookId, desc(webhookDeliveries.createdAt));
      const byWebhook = new Map(latest.map((d) => [d.webhookId, d]));
      return rows.map((row) => {
        const d = byWebhook.get(row.id);
        return viewOf(
          row,
          d
            ? {
                status: d.status,
                responseStatus: d.responseStatus,
                at: (d.lastAttemptAt ?? d.createdAt).toISOString(),
              }
            : null,
        );
      });
    },
    { mode: "read" },
  );
}

/** Adds a webhook; the answer carries the secret, the only time it is shown. */
export async function addWebhook(
  user: User,
  studioId: string,
  input: WebhookInput,
): Promise<WebhookView & { secret: string }> {
  await withProjectAction(user, studioId, "webhooks.manage", () => undefined, { mode: "check" });
  // Outside the transaction: a DNS answer may take seconds.
  const problem = await webhookUrlProblem(input.url);
  if (problem) throw new InvalidError(problem, { url: [problem] });
  const secret = newWebhookSecret();
  const row = await withProjectAction(
    user,
    studioId,
    "webhooks.manage",
    async ({ project, tx }) => {
      const [{ existing }] = await tx
        .select({ existing: count() })
        .from(webhooks)
        .where(eq(webhooks.projectId, project.id));
      if (existing >= MAX_WEBHOOKS_PER_PROJECT) {
        throw new ConflictError(`A project can have at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks`);
      }
      const [created] = await tx
        .insert(webhooks)
        .values({
          projectId: project.id,
          url: input.url,
          format: input.format,
          events: [...new Set(input.events)],
          secretEncrypted: encryptSecret(secret),
          createdBy: user.id,
        })
        .returning();
      await logEvent(tx, {
        projectId: project.id,
        type: "webhooks.added",
        content: `${user.name || user.email} added a webhook to ${new URL(input.url).host}`,
        actorId: user.id,
      });
      return created;
    },
  );
  return { ...viewOf(row), secret };
}

/** A malformed id names nothing: a 404, never the uuid column's error. */
function mustBeId(id: string, what: "Webhook" | "Delivery") {
  if (!UUID.test(id)) throw new NotFoundError(`${what} not found`);
}

export async function removeWebhook(user: User, studioId: string, webhookId: string) {
  mustBeId(webhookId, "Webhook");
  await withProjectAction(user, studioId, "webhooks.manage", async ({ project, tx }) => {
    const [gone] = await tx
      .delete(webhooks)
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.projectId, project.id)))
      .returning();
    if (!gone) throw new NotFoundError("Webhook not found");
    await logEvent(tx, {
      projectId: project.id,
      type: "webhooks.removed",
      content: `${user.name || user.email} removed the webhook to ${new URL(gone.url).host}`,
      actorId: user.id,
    });
  });
}

/** Switches a webhook on again (after it was switched off for failing); its failures restart. */
export async function enableWebhook(user: User, studioId: string, webhookId: string) {
  mustBeId(webhookId, "Webhook");
  await withProjectAction(user, studioId, "webhooks.manage", async ({ project, tx }) => {
    const [row] = await tx
      .update(webhooks)
      .set({ enabled: true, disabledReason: null, failingSince: null, updatedAt: new Date() })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.projectId, project.id)))
      .returning();
    if (!row) throw new NotFoundError("Webhook not found");
    await logEvent(tx, {
      projectId: project.id,
      type: "webhooks.enabled",
      content: `${user.name || user.email} switched on the webhook to ${new URL(row.url).host}`,
      actorId: user.id,
    });
  });
}

/** The delivery log of one webhook, newest first (the latest 50). */
export async function listDeliveries(
  user: User,
  studioId: string,
  webhookId: string,
): Promise<DeliveryView[]> {
  mustBeId(webhookId, "Webhook");
  return withProjectAction(
    user,
    studioId,
    "webhooks.manage",
    async ({ project, tx }) => {
      const rows = await tx
        .select({ delivery: webhookDeliveries })
        .from(webhookDeliveries)
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(and(eq(webhooks.id, webhookId), eq(webhooks.projectId, project.id)))
        .orderBy(desc(webhookDeliveries.createdAt))
        .limit(50);
      return rows.map(({ delivery: d }) => ({
        id: d.id,
        eventType: d.eventType,
        status: d.status,
        attempts: d.attempts,
        responseStatus: d.responseStatus,
        durationMs: d.durationMs,
        responseBody: d.responseBody,
        createdAt: d.createdAt.toISOString(),
        lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
      }));
    },
    { mode: "read" },
  );
}

/** 'Redeliver': the same delivery (same `webhook-id`) is sent again now, whatever it did before. */
export async function redeliver(
  user: User,
  studioId: string,
  deliveryId: string,
  /** When the address names the webhook too (the API), the delivery must be one of its. */
  webhookId?: string,
) {
  mustBeId(deliveryId, "Delivery");
  if (webhookId !== undefined) mustBeId(webhookId, "Delivery");
  await withProjectAction(user, studioId, "webhooks.manage", async ({ project, tx }) => {
    const [owned] = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhooks.projectId, project.id),
          webhookId === undefined ? undefined : eq(webhooks.id, webhookId),
        ),
      );
    if (!owned) throw new NotFoundError("Delivery not found");
    await tx
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, owned.id));
    await queueDelivery(tx, owned.id);
  });
}

/**
 * The project a webhook (or, with `delivery`, a delivery) belongs to, for the API's addresses
 * that name only the webhook: its project's _id, which every function above takes as the
 * project reference and checks the caller's rights on. An id that names nothing is a 404.
 */
export async function projectOfWebhook(id: string, { delivery = false } = {}): Promise<string> {
  if (!UUID.test(id))
    throw new NotFoundError(delivery ? "Delivery not found" : "Webhook not found");
  const [row] = delivery
    ? await db()
        .select({ projectId: webhooks.projectId })
        .from(webhookDeliveries)
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(eq(webhookDeliveries.id, id))
    : await db()
        .select({ projectId: webhooks.projectId })
        .from(webhooks)
        .where(eq(webhooks.id, id));
  if (!row) throw new NotFoundError(delivery ? "Delivery not found" : "Webhook not found");
  return row.projectId;
}

/**
 * Runs `work` on the project of webhook `id` (projectOfWebhook). A webhook of a project hidden
 * from the caller answers as an unknown id does, 'Webhook not found': 'Project not found' would
 * tell a prober that the id exists somewhere.
 */
export async function onWebhooksProject<T>(
  id: string,
  work: (projectId: string) => Promise<T>,
): Promise<T> {
  const projectId = await projectOfWebhook(id);
  try {
    return await work(projectId);
  } catch (error) {
    if (error instanceof ProjectNotFoundError) throw new NotFoundError("Webhook not found");
    throw error;
  }
}
