/**
 * Input rules of webhooks, shared by the page's form, its action, the JSON API and the OpenAPI
 * document. No server imports.
 */
import { z } from "zod";
import { UUID } from "~/utils/uuid";
import { PROJECT_EVENT_TYPES, type ProjectEventType } from "../events/catalog";

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
