/**
 * The digest: for a person who asked for at most one mail per project every 10 minutes, each
 * wanted event is kept (notification_digest_items) and the first one of a quiet project sends
 * a job delayed by 10 minutes for that person and project; the job mails every event kept
 * since, in one mail, and forgets them. Both sides take the same advisory lock, so an event
 * kept while the job runs is either in its mail or starts the next job, never lost.
 */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { notificationDigestItems, projectEvents } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import { queueMail } from "~/services/core/index.server";
import { notificationMail, peopleOf } from "./notification-mail.server";
import { isNotifiable, wants } from "./schema";
import { modesFor, settingsOf } from "./settings.server";

export const DIGEST_JOB = "notifications.digest";
export const DIGEST_DELAY_SECONDS = 10 * 60;

async function lockDigest(tx: Queryable, userId: string, projectId: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`notification_digest:${userId}:${projectId}`}))`,
  );
}

/** In the fan-out's transaction: keeps the event for the person's next digest of the project. */
export async function addToDigest(
  tx: Queryable,
  userId: string,
  projectId: string,
  eventId: string,
) {
  await lockDigest(tx, userId, projectId);
  const [{ waiting }] = await tx
    .select({ waiting: count() })
    .from(notificationDigestItems)
    .where(
      and(
        eq(notificationDigestItems.userId, userId),
        eq(notificationDigestItems.projectId, projectId),
      ),
    );
  await tx
    .insert(notificationDigestItems)
    .values({ userId, projectId, eventId })
    .onConflictDoNothing();
  // The first event of a quiet project starts the one pending job; later ones join its mail.
  if (waiting === 0) {
    await sendJob(
      DIGEST_JOB,
      { userId, projectId },
      {
        startAfter: DIGEST_DELAY_SECONDS,
        singletonKey: `${userId}:${projectId}`,
        retryLimit: 10,
        retryDelay: 30,
        retryBackoff: true,
      },
      tx,
    );
  }
}

/** The digest job: one mail with the events kept for this person and project, if any. */
export async function sendDigest(userId: string, projectId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(userId) || !/^[0-9a-f-]{36}$/i.test(projectId)) return;
  await db().transaction(async (tx) => {
    await lockDigest(tx, userId, projectId);
    const kept = await tx
      .delete(notificationDigestItems)
      .where(
        and(
          eq(notificationDigestItems.userId, userId),
          eq(notificationDigestItems.projectId, projectId),
        ),
      )
      .returning({ eventId: notificationDigestItems.eventId });
    if (kept.length === 0) return;
    const events = await tx
      .select()
      .from(projectEvents)
      .where(
        inArray(
          projectEvents.id,
          kept.map((k) => k.eventId),
        ),
      )
      .orderBy(asc(projectEvents.createdAt), asc(projectEvents.id));
    // Who they are now: a person who left, or turned these events off since, gets no mail of them.
    const person = (await peopleOf(tx, projectId)).find((p) => p.userId === userId);
    if (!person) return;
    const settings = (await settingsOf(tx, [userId])).get(userId)!;
    const mode = (await modesFor(tx, projectId, [userId])).get(userId) ?? "settings";
    const items = events.flatMap((e) =>
      isNotifiable(e.type) && wants(settings.byRole, person.role, mode, e.type)
        ? [{ type: e.type, payload: e.payload }]
        : [],
    );
    if (items.length === 0) return;
    const last = events[events.length - 1];
    await queueMail(
      tx,
      await notificationMail(
        tx,
        person,
        { id: projectId, studioId: last.studioId, name: last.projectName },
        items,
      ),
    );
  });
}
