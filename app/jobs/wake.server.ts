/**
 * Waking a queue's worker when a job is sent, rather than having every worker poll twice a
 * second. Measured before this: an idle `npm start` (PGlite, 21 queues polled every 0.5 s) kept
 * 13 % of a core busy doing nothing, and four idle servers a quarter of a two-core machine.
 *
 * Every send also notifies JOB_CHANNEL (pg_notify, in the sender's transaction when it has one:
 * PostgreSQL delivers a notification at commit, so a worker never wakes before the job is
 * visible). Each process listens (PGlite: its one session; PostgreSQL: the presence connection,
 * orphans.server.ts) and wakes its worker of that queue at once, or at the job's start time when
 * the job is delayed. A worker that finds a full batch looks again at once (queue.server.ts), so
 * a backlog drains without pauses. Workers still poll every IDLE_POLL_SECONDS for what nothing
 * announces: pg-boss's own retries, cron schedules, a job due later than LONGEST_TIMER_MS.
 */
import type pg from "pg";
import type PgBoss from "pg-boss";
import { database } from "~/db/client.server";

export const JOB_CHANNEL = "stackshift_jobs";
/** How often an idle worker looks anyway (pg-boss's own default). */
export const IDLE_POLL_SECONDS = 2;
/** A job due further off than this is left to the polling: no timer for tomorrow's retry. */
const LONGEST_TIMER_MS = 10 * 60_000;

type Notice = { q: string; at?: number };

const wakers = new Map<string, () => void>();
const timers = new Set<NodeJS.Timeout>();
let unlisten: (() => Promise<void>) | undefined;

/** Called by work(): how to wake this process's worker of `name`. */
export function registerWaker(name: string, wake: () => void) {
  wakers.set(name, wake);
}

/** Wakes this process's worker of `name`, if it has one. */
export function wake(name: string) {
  wakers.get(name)?.();
}

/** The notification's payload: the queue, and when the job falls due if that is later than now. */
export function noticeFor(name: string, startAfter: PgBoss.SendOptions["startAfter"]): string {
  let at: number | undefined;
  if (typeof startAfter === "number") at = Date.now() + startAfter * 1000;
  else if (startAfter instanceof Date) at = startAfter.getTime();
  else if (typeof startAfter === "string") at = Date.parse(startAfter);
  const notice: Notice = at !== undefined && at > Date.now() ? { q: name, at } : { q: name };
  return JSON.stringify(notice);
}

/** A notification heard: wake the queue's worker now, or set a timer for a delayed job. */
export function heard(payload: string) {
  let notice: Notice;
  try {
    notice = JSON.parse(payload) as Notice;
  } catch {
    return;
  }
  if (typeof notice.q !== "string" || !wakers.has(notice.q)) return;
  const delay = typeof notice.at === "number" ? notice.at - Date.now() : 0;
  if (delay <= 0) return wake(notice.q);
  if (delay > LONGEST_TIMER_MS) return;
  // A little after the due time: pg-boss compares start_after with the database's clock.
  const timer = setTimeout(() => {
    timers.delete(timer);
    wake(notice.q);
  }, delay + 50);
  timer.unref();
  timers.add(timer);
}

/** PostgreSQL: the presence connection listens (and listens again after a reconnect). */
export async function hearJobsOn(client: pg.Client) {
  client.on("notification", (message) => {
    if (message.channel === JOB_CHANNEL && message.payload) heard(message.payload);
  });
  await client.query(`listen ${JOB_CHANNEL}`);
}

/** PGlite: the process's one session listens. */
export async function listenForJobs() {
  const current = database();
  if (current.listen && !unlisten) unlisten = await current.listen(JOB_CHANNEL, heard);
}

export async function stopWaking() {
  wakers.clear();
  for (const timer of timers) clearTimeout(timer);
  timers.clear();
  const stop = unlisten;
  unlisten = undefined;
  await stop?.().catch(() => undefined);
}
