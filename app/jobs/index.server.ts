import { deliver, MAIL_JOB } from "~/services/mail.server";
import { startQueue, work } from "./queue.server";

/** Every queue the app uses, created at boot. */
export const QUEUES = [MAIL_JOB];

/** Starts the queue and registers this instance's workers. */
export async function startJobs() {
  await startQueue(QUEUES);
  await work(MAIL_JOB, async (data) => deliver(String(data.id)));
}
