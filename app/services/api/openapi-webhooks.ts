/**
 * The OpenAPI operations of a project's webhooks, and the document's `webhooks` section: each
 * event of the catalogue as the POST a receiver gets (docs/decisions/047-project-events-and-webhooks.md).
 * A table of its own that openapi-operations.ts merges into the document's. Pure data.
 */
import { z } from "zod";
import { errorBody, okFlagBody } from "./api.schema";
import { EVENT_CATALOG, PROJECT_EVENT_TYPES } from "~/services/events";
import type { Method, Operation } from "./openapi-operations";
import {
  deliveryListBody,
  webhookApiInputSchema,
  webhookCreatedBody,
  webhookListBody,
  webhookQuerySchema,
} from "~/services/webhooks";

const ERRORS = { 400: errorBody, 401: errorBody, 404: errorBody };
const WRITE_ERRORS = { ...ERRORS, 403: errorBody, 413: errorBody, 415: errorBody };

export const WEBHOOK_API: Record<string, Partial<Record<Method, Operation>>> = {
  "/api/app/webhooks": {
    get: {
      operationId: "listWebhooks",
      tags: ["Webhooks"],
      summary:
        "The project's webhooks, newest first, each with its last delivery (owner and admins)",
      query: webhookQuerySchema,
      responses: { 200: webhookListBody, ...ERRORS, 403: errorBody },
    },
    post: {
      operationId: "addWebhook",
      tags: ["Webhooks"],
      summary:
        "Adds a webhook {studioId, url, events, format}; the answer carries its whsec_ signing secret, shown only this once",
      body: webhookApiInputSchema,
      responses: { 201: webhookCreatedBody, ...WRITE_ERRORS, 409: errorBody },
    },
  },
  "/api/app/webhooks/{id}": {
    delete: {
      operationId: "removeWebhook",
      tags: ["Webhooks"],
      summary: "Removes a webhook and its delivery log",
      pathParams: ["id"],
      responses: { 200: okFlagBody, ...WRITE_ERRORS },
    },
  },
  "/api/app/webhooks/{id}/deliveries": {
    get: {
      operationId: "listWebhookDeliveries",
      tags: ["Webhooks"],
      summary: "A webhook's delivery log, newest first (the latest 50)",
      pathParams: ["id"],
      responses: { 200: deliveryListBody, ...ERRORS, 403: errorBody },
    },
  },
  "/api/app/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
    post: {
      operationId: "redeliverWebhookDelivery",
      tags: ["Webhooks"],
      summary: "Sends a delivery again now, with the same webhook-id (202: queued)",
      pathParams: ["id", "deliveryId"],
      responses: { 202: okFlagBody, ...WRITE_ERRORS },
    },
  },
};

/** The body every delivery carries (Standard Webhooks' shape): the event's type, time and data. */
function envelopeOf(type: keyof typeof EVENT_CATALOG) {
  return z.object({
    type: z.literal(type),
    timestamp: z.string().describe("When the event happened (ISO 8601)"),
    data: EVENT_CATALOG[type].payload.extend({
      project: z.object({ studioId: z.string(), name: z.string() }),
    }),
  });
}

/** One entry per event type: its label, who may subscribe, and the body's schema. */
export const WEBHOOK_EVENTS = PROJECT_EVENT_TYPES.map((type) => ({
  type,
  label: EVENT_CATALOG[type].label,
  roles: [...EVENT_CATALOG[type].roles],
  body: envelopeOf(type),
}));
