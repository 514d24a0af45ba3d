import { database, withBootLock } from "~/db/client.server";
import { hostingJobs } from "~/providers/hosting/jobs.server";
import { accessRequestJobs } from "~/services/platform/index.server";
import { accountJobs } from "~/services/accounts/index.server";
import { addonJobs } from "~/services/addons/index.server";
import { domainJobs } from "~/services/domains/index.server";
import { keyRotationJobs } from "~/services/platform/index.server";
import { deliver, MAIL_JOB } from "~/services/core/index.server";
import { memberJobs } from "~/services/members/index.server";
import { sessionJobs } from "~/services/accounts/index.server";
import { studioAccessJobs } from "~/services/studio/index.server";
import { socialJobs } from "~/services/integrations/index.server";
import { newsletterJobs } from "~/services/newsletter/index.server";
import { externalDeletionJobs } from "~/services/projects/index.server";
import { projectDeletionJobs } from "~/services/projects/index.server";
import { eventJobs } from "~/services/events/index.server";
import { webhookJobs } from "~/services/webhooks/index.server";
import { notificationJobs } from "~/services/notifications/index.server";
import { lifecycleJobs } from "./lifecycle.server";
import { queue, startQueue, watchOrphanedJobs, work } from "./queue.server";
import type { JobDefinition } from "./types";

const mailJobs: JobDefinition[] = [
  // Ten at a time: a burst of invitations or form notifications is sent at 20 a second.
  { name: MAIL_JOB, handler: async (data) => deliver(String(data.id)), batchSize: 10 },
];

/** Every job of the app; each capability declares its own list. */
export const JOBS: JobDefinition[] = [
  ...mailJobs,
  ...accountJobs,
  ...accessRequestJobs,
  ...lifecycleJobs,
  ...hostingJobs,
  ...memberJobs,
  ...studioAccessJobs,
  ...domainJobs,
  ...addonJobs,
  ...sessionJobs,
  ...socialJobs,
  ...newsletterJobs,
  ...projectDeletionJobs,
  ...externalDeletionJobs,
  ...keyRotationJobs,
  ...eventJobs,
  ...webhookJobs,
  ...notificationJobs,
];
export const QUEUES = JOBS.map((job) => job.name);

/**
 * Under the boot lock (entry.server.tsx): starts this process's queue, creates the queues a new
 * database or a new version lacks and sets the cron schedules.
 */
export async function prepareJobs() {
  await startQueue(QUEUES);
  for (const job of JOBS) {
    if (job.schedule) await queue().schedule(job.name, job.schedule);
  }
}

/** After the boot lock: retries what a stopped process left running (orphans.server.ts), then works. */
export async function runJobs() {
  await watchOrphanedJobs();
  for (const job of JOBS) {
    await work(job.name, job.handler, { batchSize: job.batchSize });
  }
}

/** Both steps, for callers that did not take the boot lock themselves (tests). */
export async function startJobs() {
  await withBootLock(database(), prepareJobs);
  await runJobs();
}
