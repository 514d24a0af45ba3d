/** What other areas may use of webhooks: the page, the API and the jobs. */
import type { JobDefinition } from "~/jobs/types";
import { deliverWebhook } from "./delivery.server";
import { WEBHOOK_DELIVERY_JOB } from "./fan-out.server";

export {
  addWebhook,
  enableWebhook,
  listDeliveries,
  listWebhooks,
  onWebhooksProject,
  projectOfWebhook,
  redeliver,
  removeWebhook,
  type DeliveryView,
  type WebhookView,
} from "./webhooks.server";
export { MAX_DELIVERIES_PER_HOUR, MAX_WEBHOOKS_PER_PROJECT } from "./limits";

export const webhookJobs: JobDefinition[] = [
  { name: WEBHOOK_DELIVERY_JOB, handler: (data) => deliverWebhook(String(data.deliveryId)) },
];
export * from "./fan-out.server";
export * from "./retention.server";
export * from "./webhooks.server";
