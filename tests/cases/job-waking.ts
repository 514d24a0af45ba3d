/**
 * A sent job wakes its queue's worker through the database's notifications (app/jobs/
 * wake.server.ts), on PostgreSQL (the presence connection listens) and on PGlite (its one
 * session does): run by tests/integration/job-wake.test.ts and the PGlite smoke suite.
 */
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { sendJob, startQueue } from "~/jobs/queue.server";
import { registerWaker } from "~/jobs/wake.server";

/** Waits a while; long enough for a notification that was sent to have arrived. */
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeJobWaking() {
  describe("a sent job wakes its worker", () => {
    it("when the transaction that sent it commits, not before, and never when it rolls back", async () => {
      const name = "test.wake-commit";
      await startQueue([name]);
      let woken = 0;
      registerWaker(name, () => (woken += 1));

      await db().transaction(async (tx) => {
        await sendJob(name, { n: 1 }, {}, tx);
        await settle(300);
        expect(woken, "no wake-up before the commit").toBe(0);
      });
      await expect.poll(() => woken, { timeout: 5_000 }).toBe(1);

      await expect(
        db().transaction(async (tx) => {
          await sendJob(name, { n: 2 }, {}, tx);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      await settle(300);
      expect(woken, "a rolled-back send wakes nobody").toBe(1);

      await sendJob(name, { n: 3 });
      await expect.poll(() => woken, { timeout: 5_000 }).toBe(2);
    });

    it("when a delayed job falls due, not when it is sent", async () => {
      const name = "test.wake-delayed";
      await startQueue([name]);
      const wokenAt: number[] = [];
      registerWaker(name, () => wokenAt.push(Date.now()));
      const sentAt = Date.now();
      await sendJob(name, {}, { startAfter: 1 });
      await expect.poll(() => wokenAt.length, { timeout: 5_000 }).toBe(1);
      expect(wokenAt[0] - sentAt).toBeGreaterThanOrEqual(1_000);
    });
  });
}
