import { afterAll, afterEach, beforeAll, expect } from "vitest";

/**
 * The hooks of a describe block that talks to one stand-in: starts it before the block (handing
 * it to `started`, where the test builds its adapter), checks after each test that every answer
 * and request still fitted the vendor's contract (`violations`), and closes it after the block.
 */
export function withStandIn<S extends { violations: unknown[]; close(): Promise<void> }>(
  start: () => Promise<S>,
  started: (standIn: S) => void,
) {
  let standIn: S | undefined;
  beforeAll(async () => {
    standIn = await start();
    started(standIn);
  });
  afterEach(() => {
    expect(standIn?.violations).toEqual([]);
  });
  afterAll(async () => {
    await standIn?.close();
  });
}
