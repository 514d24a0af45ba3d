import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database, db } from "~/db/client.server";
import { notificationDigestItems, notificationSettings, outbox, users } from "~/db/schema";
import { work } from "~/jobs/queue.server";
import { deliver, dispatchMail, MAIL_JOB, queueMail } from "~/services/core/mail.server";
import { action as loginAction } from "~/routes/auth.login";
import { fanOutEvent } from "~/services/events/consumers.server";
import { emitProjectEvent } from "~/services/events/emit.server";
import { sendDigest } from "~/services/notifications/digest.server";
import { call, createUser, insertProject, makeRequest } from "../helpers";
import { describeJobWaking } from "../cases/job-waking";

/** The same stack on the embedded database that `npm start` uses by default. */
describe("embedded PGlite", () => {
  it("is the database in use, with every migration applied", async () => {
    expect(database().kind).toBe("pglite");
    const { rows } = await database().raw(
      "select count(*)::int as n from drizzle.__drizzle_migrations",
    );
    expect((rows[0] as { n: number }).n).toBeGreaterThan(0);
  });

  it("stores users with a unique lowercased e-mail", async () => {
    const user = await createUser({ email: "Smoke@Example.com" });
    expect(user.email).toBe("smoke@example.com");
    await expect(
      db().insert(users).values({ name: "Again", email: "smoke@example.com" }),
    ).rejects.toThrow();
  });

  it("logs a user in through the real login action", async () => {
    const user = await createUser();
    const res = await call(
      loginAction,
      makeRequest("/auth/login", { form: { email: user.email, password: user.password } }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Set-Cookie")).toContain("stackshift_session=");
  });

  it("runs queued mail through pg-boss into the local outbox", async () => {
    const id = await queueMail(db(), { to: "x@example.com", subject: "Hello", text: "Body" });
    await work(MAIL_JOB, async (data) => deliver(String(data.id)));
    await dispatchMail([id]);
    await expect
      .poll(async () => (await db().select().from(outbox).where(eq(outbox.id, id)))[0]?.status, {
        timeout: 15_000,
        interval: 200,
      })
      .toBe("kept");
  });

  it("fans an event out to a notification mail, and to a digest (its advisory lock) and back", async () => {
    const owner = await createUser();
    const project = await insertProject(owner.id);
    const emit = (key: string) =>
      db().transaction((tx) =>
        emitProjectEvent(tx, {
          projectId: project.id,
          type: "deployment.failed",
          payload: { deploymentId: null, permanent: false, errorPageUrl: "http://x/e" },
          dedupeKey: key,
        }),
      );
    await fanOutEvent((await emit("smoke-1"))!);
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, owner.email));
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    await db()
      .insert(notificationSettings)
      .values({ userId: owner.id, byRole: { owner: ["deployment.failed"] }, digest: true });
    await fanOutEvent((await emit("smoke-2"))!);
    expect(await db().select().from(notificationDigestItems)).toHaveLength(1);
    await sendDigest(owner.id, project.id);
    expect(await db().select().from(notificationDigestItems)).toHaveLength(0);
    expect(await db().select().from(outbox).where(eq(outbox.to, owner.email))).toHaveLength(2);
  });
});

// The same notifications on PGlite's one session as on PostgreSQL's presence connection.
describeJobWaking();
