/**
 * What other areas may use of personal notifications: the Notifications page's service, the
 * unsubscribe link, the consumer (events/consumers.server.ts) and the jobs.
 * docs/decisions/049-personal-notifications.md.
 */
import type { JobDefinition } from "~/jobs/types";
import { DIGEST_JOB, sendDigest } from "./digest.server";
import { purgeUnsubscribeTokens } from "./unsubscribe.server";

export { notificationConsumer } from "./consumer.server";
export { getNotificationSettings, saveNotificationSettings } from "./settings.server";
export { pendingUnsubscribe, unsubscribe, unsubscribePath } from "./unsubscribe.server";
export { DIGEST_JOB } from "./digest.server";

export const notificationJobs: JobDefinition[] = [
  {
    name: DIGEST_JOB,
    handler: (data) => sendDigest(String(data.userId), String(data.projectId)),
  },
  { name: "notifications.purge", schedule: "41 * * * *", handler: () => purgeUnsubscribeTokens() },
];
export * from "./consumer.server";
