import { database, withBootLock } from "~/db/client.server";
import { hostingJobs } from "~/providers/hosting/jobs.server";
import { accessRequestJobs } from "~/services/access-requests.server";
import { accountJobs } from "~/services/account-tokens.server";
import { addonJobs } from "~/services/addons.server";
import { domainJobs } from "~/services/domain-jobs.server";
import { keyRotationJobs } from "~/services/key-rotation.server";
import { deliver, MAIL_JOB } from "~/services/mail.server";
import { memberJobs } from "~/services/member-studio-job.server";
import { sessionJobs } from "~/services/sessions.server";
import { studioAccessJobs } from "~/services/studio-access.server";
import { socialJobs } from "~/services/social-accounts.server";
import { newsletterJobs } from "~/services/newsletter-domains.server";
import { externalDeletionJobs } from "~/services/external-deletions.server";
import { projectDeletionJobs } from "~/services/project-deletion.server";
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
