/**
 * Sessions end on the server after 7 days without a request (idle) and 30 days after sign-in
 * (absolute), and the sessions.purge job deletes the rows of ended ones. Ages are set on the real
 * rows; requests go through getOptionalUser and a protected loader.
 */
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { sessionRowId } from "~/services/accounts/sessions.server";
import { JOBS } from "~/jobs/index.server";
import { loader as sitesLoader } from "~/routes/_app.sites._index";
import {
  getOptionalUser,
  getSession,
  SESSION_IDLE_TIMEOUT_MS,
  SESSION_LIFETIME_MS,
  SESSION_TOUCH_AFTER_MS,
  sessionStorage,
} from "~/web/session.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const fromNow = (ms: number) => new Date(Date.now() + ms);

/** A signed-in user, their cookie and the id of the session row behind it (its sha256). */
async function signedIn() {
  const user = await createUser();
  const cookie = await sessionCookie(user.id);
  const session = await getSession(makeRequest("/", { cookie }));
  return { user, cookie, id: sessionRowId(session.id) };
}

async function rowOf(id: string) {
  const [row] = await db().select().from(sessions).where(eq(sessions.id, id));
  return row;
}

async function setRow(id: string, values: { lastSeenAt?: Date; expiresAt?: Date }) {
  await db().update(sessions).set(values).where(eq(sessions.id, id));
}

describe("session timeouts", () => {
  it("are 7 days idle, 30 days absolute, and lastSeenAt is written at most every 5 minutes", () => {
    expect(SESSION_IDLE_TIMEOUT_MS).toBe(7 * DAY);
    expect(SESSION_LIFETIME_MS).toBe(30 * DAY);
    expect(SESSION_TOUCH_AFTER_MS).toBe(5 * 60_000);
  });

  it("a new session ends 30 days after sign-in and was just seen", async () => {
    const { id } = await signedIn();
    const row = await rowOf(id);
    expect(Math.abs(row.expiresAt.getTime() - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
    expect(Math.abs(row.lastSeenAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("a session unused for 8 days no longer signs the user in", async () => {
    const { cookie, id } = await signedIn();
    await setRow(id, { lastSeenAt: ago(8 * DAY) });
    expect(await getOptionalUser(makeRequest("/", { cookie }))).toBeNull();
    const res = await call(sitesLoader, makeRequest("/sites", { cookie }));
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/auth/login?redirectTo=%2Fsites");
    // Reading an idle session does not revive it.
    expect((await rowOf(id)).lastSeenAt.getTime()).toBeLessThan(ago(7 * DAY).getTime());
  });

  it("a session last used a day ago still signs the user in, and its lastSeenAt moves", async () => {
    const { user, cookie, id } = await signedIn();
    await setRow(id, { lastSeenAt: ago(1 * DAY) });
    expect((await getOptionalUser(makeRequest("/", { cookie })))?.id).toBe(user.id);
    expect(Date.now() - (await rowOf(id)).lastSeenAt.getTime()).toBeLessThan(60_000);
    const res = await call(sitesLoader, makeRequest("/sites", { cookie }));
    expect(res.status).toBe(200);
  });

  it("a session seen a minute ago is read without writing lastSeenAt", async () => {
    const { user, cookie, id } = await signedIn();
    const seen = ago(60_000);
    await setRow(id, { lastSeenAt: seen });
    expect((await getOptionalUser(makeRequest("/", { cookie })))?.id).toBe(user.id);
    expect((await rowOf(id)).lastSeenAt.getTime()).toBe(seen.getTime());
  });

  it("a session past its absolute end is over, however active", async () => {
    const { cookie, id } = await signedIn();
    await setRow(id, { expiresAt: ago(1000), lastSeenAt: new Date() });
    expect(await getOptionalUser(makeRequest("/", { cookie }))).toBeNull();
  });

  it("saving the session again does not push its end forward", async () => {
    const { cookie, id } = await signedIn();
    const end = fromNow(2 * DAY);
    await setRow(id, { expiresAt: end });
    const session = await getSession(makeRequest("/", { cookie }));
    session.set("note", "changed");
    await sessionStorage().commitSession(session);
    const row = await rowOf(id);
    expect(row.data).toMatchObject({ note: "changed" });
    expect(row.expiresAt.getTime()).toBe(end.getTime());
  });
});

describe("the sessions.purge job", () => {
  it("is scheduled every 30 minutes", () => {
    expect(JOBS.find((job) => job.name === "sessions.purge")?.schedule).toBe("*/30 * * * *");
  });

  it("deletes idle and expired sessions and keeps live ones", async () => {
    const idle = await signedIn();
    const expired = await signedIn();
    const recent = await signedIn();
    const fresh = await signedIn();
    await setRow(idle.id, { lastSeenAt: ago(8 * DAY) });
    await setRow(expired.id, { expiresAt: ago(1000) });
    await setRow(recent.id, { lastSeenAt: ago(6 * DAY) });

    await JOBS.find((job) => job.name === "sessions.purge")!.handler({});

    const left = await db()
      .select({ id: sessions.id })
      .from(sessions)
      .where(inArray(sessions.id, [idle.id, expired.id, recent.id, fresh.id]));
    expect(left.map((r) => r.id).sort()).toEqual([recent.id, fresh.id].sort());
    expect((await getOptionalUser(makeRequest("/", { cookie: recent.cookie })))?.id).toBe(
      recent.user.id,
    );
  });
});
