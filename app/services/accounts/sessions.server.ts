/**
 * Sign-in sessions (rows of `sessions`; the cookie carries only the id, app/web/session.server.ts).
 * A session ends at the first of: logout, its absolute lifetime, or a week without a request.
 * Rows are keyed by the sha256 of the id (`sessionRowId`), so a database dump or a backup holds
 * no id that would sign anyone in (docs/decisions/024-a-link-only-shows.md).
 */
import { createHash } from "node:crypto";
import { and, eq, lte, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { sessions, users } from "~/db/schema";
import { rememberUserRow } from "./accounts.server";
import type { JobDefinition } from "~/jobs/types";

const DAY_MS = 86_400_000;
/** Absolute lifetime from sign-in, however active the session is (never pushed forward). */
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
/** A session with no request for this long is over. */
export const SESSION_IDLE_TIMEOUT_MS = 7 * DAY_MS;
/** lastSeenAt is written only when older than this, so most requests write nothing. */
export const SESSION_TOUCH_AFTER_MS = 5 * 60_000;

export type SessionData = { userId?: string; idToken?: string; [key: string]: unknown };

/** The row id of the session whose cookie carries `id` (hex sha256; the migration matches it). */
export function sessionRowId(id: string) {
  return createHash("sha256").update(id, "utf8").digest("hex");
}

function columnsOf(data: SessionData) {
  return {
    data: data as Record<string, unknown>,
    userId: typeof data.userId === "string" ? data.userId : null,
    idToken: typeof data.idToken === "string" ? data.idToken : null,
  };
}

export async function createSessionRow(id: string, data: SessionData, now = new Date()) {
  await db()
    .insert(sessions)
    .values({
      id: sessionRowId(id),
      ...columnsOf(data),
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
      lastSeenAt: now,
    });
}

// With its account, so a page view reads the session and the signed-in user in one statement.
const sessionAndUserById = prepared((database) =>
  database
    .select({ session: sessions, user: users })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder("id")))
    .limit(1)
    .prepare("session_and_user_by_id"),
);

/** The session's data while it is live (not expired, not idle), recording that it was seen. */
export async function readSessionRow(id: string, now = new Date()): Promise<SessionData | null> {
  const rowId = sessionRowId(id);
  const [found] = await sessionAndUserById().execute({ id: rowId });
  if (!found) return null;
  const { session: row, user } = found;
  const seenAgo = now.getTime() - row.lastSeenAt.getTime();
  if (row.expiresAt <= now || seenAgo >= SESSION_IDLE_TIMEOUT_MS) return null;
  if (seenAgo > SESSION_TOUCH_AFTER_MS) {
    await db().update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, rowId));
  }
  // The view's getUser takes the account from here instead of reading it again.
  if (user) rememberUserRow(user);
  return { ...row.data, userId: row.userId ?? undefined, idToken: row.idToken ?? undefined };
}

/** Saves the data; expiresAt stays as set at sign-in. */
export async function updateSessionRow(id: string, data: SessionData) {
  await db()
    .update(sessions)
    .set(columnsOf(data))
    .where(eq(sessions.id, sessionRowId(id)));
}

/**
 * Removes `key` from the session's data if it still holds `value`: true for one caller only, so a
 * value meant to be used once (a passkey challenge) is used once even by two requests at once.
 */
export async function takeSessionEntry(id: string, key: string, value: unknown): Promise<boolean> {
  const taken = await db()
    .update(sessions)
    .set({ data: sql`${sessions.data} - ${key}::text` })
    .where(
      and(
        eq(sessions.id, sessionRowId(id)),
        sql`${sessions.data} -> ${key}::text = ${JSON.stringify(value)}::jsonb`,
      ),
    )
    .returning({ id: sessions.id });
  return taken.length > 0;
}

export async function deleteSessionRow(id: string) {
  await db()
    .delete(sessions)
    .where(eq(sessions.id, sessionRowId(id)));
}

/** Deletes expired and idle sessions; returns how many. */
export async function purgeSessions(now = new Date()): Promise<number> {
  const idleSince = new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS);
  const deleted = await db()
    .delete(sessions)
    .where(or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleSince)))
    .returning({ id: sessions.id });
  return deleted.length;
}

export const PURGE_SESSIONS_JOB = "sessions.purge";

export const sessionJobs: JobDefinition[] = [
  {
    name: PURGE_SESSIONS_JOB,
    handler: async () => {
      await purgeSessions();
    },
    schedule: "*/30 * * * *",
  },
];
