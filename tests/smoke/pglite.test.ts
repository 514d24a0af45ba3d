import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database, db } from "~/db/client.server";
import { outbox, users } from "~/db/schema";
import { work } from "~/jobs/queue.server";
import { deliver, dispatchMail, MAIL_JOB, queueMail } from "~/services/mail.server";
import { action as loginAction } from "~/routes/auth.login";
import { call, createUser, makeRequest } from "../helpers";
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
});

// The same notifications on PGlite's one session as on PostgreSQL's presence connection.
describeJobWaking();
