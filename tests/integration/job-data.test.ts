/**
 * Jobs a pg-boss schedule fires carry no data (null): handlers get an empty object, as they do
 * for every job sent without data. The hourly studio reconciliation read `data.after` and failed
 * at every firing before this.
 */
import { describe, expect, it } from "vitest";
import { queue, startQueue, work } from "~/jobs/queue.server";

const QUEUE = "test.scheduled-without-data";

describe("a job sent with no data", () => {
  it("reaches its handler as an empty object and completes", async () => {
    await startQueue([QUEUE]);
    const seen: unknown[] = [];
    await work(QUEUE, async (data) => {
      seen.push(data);
      seen.push(typeof data.after);
    });
    const id = await queue().send(QUEUE, null as unknown as object, { retryLimit: 0 });
    await expect.poll(() => seen, { timeout: 15_000, interval: 200 }).toEqual([{}, "undefined"]);
    await expect
      .poll(async () => (await queue().getJobById(QUEUE, id!))?.state, { timeout: 15_000 })
      .toBe("completed");
  });
});
