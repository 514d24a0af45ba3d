/**
 * Input rules of webhooks, shared by the page's form, its action, the JSON API and the OpenAPI
 * document. No server imports.
 */
import { z } from "zod";
import { UUID } from "~/utils/uuid";
import { PROJECT_EVENT_TYPES, type ProjectEventType } from "~/services/events";

export const WEBHOOK_FORMATS = ["standard", "slack"] as const;

export const webhookInputSchema = z.object({
  url: z
    .string({ error: "Enter the address to send events to" })
    .trim()
    .min(1, "Enter the address to send events to")
    .max(2000, "The address is too long"),
  events: z
    .array(z.enum(PROJECT_EVENT_TYPES as [ProjectEventType, ...ProjectEventType[]]), {
      error: "Choose at least one event",
    })
    .min(1, "Choose at least one event"),
  format: z.enum(WEBHOOK_FORMATS).default("standard"),
});
export type WebhookInput = z.infer<typeof webhookInputSchema>;

/** The page's commands on one webhook (Remove, Switch on) and one delivery (Redeliver). */
export const webhookIdSchema = z.object({
  webhookId: z.string({ error: "Choose a webhook" }).regex(UUID, "Choose a webhook"),
});
export const deliveryIdSchema = z.object({
  deliveryId: z.string({ error: "Choose a delivery" }).regex(UUID, "Choose a delivery"),
});

const studioId = z
  .string({ error: "studioId is required" })
  .trim()
  .min(1, "studioId is required")
  .max(100);

/** GET /api/app/webhooks?studioId= */
export const webhookQuerySchema = z.object({ studioId });
/** POST /api/app/webhooks {studioId, url, events, format} */
export const webhookApiInputSchema = webhookInputSchema.extend({ studioId });

const deliveryStatus = z.enum(["pending", "succeeded", "failed", "skipped"]);

/** The JSON API's body of a webhook (WebhookView). */
export const webhookBody = z.object({
  id: z.string(),
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe("Why it was switched off, while it is"),
  createdAt: z.string(),
  lastDelivery: z
    .object({ status: deliveryStatus, responseStatus: z.number().int().nullable(), at: z.string() })
    .nullable(),
});
/** POST /api/app/webhooks answers the webhook with its signing secret: the only time it is shown. */
export const webhookCreatedBody = webhookBody.extend({
  secret: z.string().describe("The `whsec_` signing secret (Standard Webhooks), shown only here"),
});
export const webhookListBody = z.object({ data: z.array(webhookBody) });

/** The JSON API's body of a delivery (DeliveryView): its id is the `webhook-id` header. */
export const deliveryBody = z.object({
  id: z.string(),
  eventType: z.string(),
  status: deliveryStatus,
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  responseBody: z.string().nullable().describe("The response's first 1 KB, or why none came"),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
});
export const deliveryListBody = z.object({ data: z.array(deliveryBody) });
