import { describe, expect, it } from "vitest";
import { InvalidError } from "./errors";
import {
  decodeCursor,
  decodeTimeCursor,
  encodeCursor,
  encodeTimeCursor,
  likePattern,
} from "./keyset.server";

const ID = "0b7c2f0e-8f3a-4f5e-9b1d-2a6c3e4f5a6b";

describe("cursors", () => {
  it("round-trip createdAt with microseconds and the id", () => {
    const cursor = encodeCursor("2026-01-02T03:04:05.123456Z", ID);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ createdAt: "2026-01-02T03:04:05.123456Z", id: ID });
  });

  it.each([
    ["not base64 at all!", "garbage"],
    [Buffer.from("not json").toString("base64url"), "not JSON"],
    [Buffer.from(JSON.stringify({ a: 1 })).toString("base64url"), "not a pair"],
    [encodeCursor("2026-01-02T03:04:05.123Z", ID), "millisecond timestamp"],
    [encodeCursor("2026-13-02T03:04:05.123456Z", ID), "month 13"],
    [encodeCursor("2026-02-30T03:04:05.123456Z", ID), "30 February"],
    [encodeCursor("0000-01-01T00:00:00.000000Z", ID), "year 0"],
    [encodeCursor("2026-01-02T03:04:05.123456Z", "1; drop table projects"), "not a uuid"],
    ["", "empty"],
    ["a".repeat(600), "too long"],
  ])("refuse %j (%s) with InvalidError", (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(InvalidError);
  });
});

describe("likePattern", () => {
  it("takes % and _ literally", () => {
    expect(likePattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });
});

describe("time cursors", () => {
  it("round-trip the time and the id", () => {
    const at = new Date("2026-01-02T03:04:05.123Z");
    expect(decodeTimeCursor(encodeTimeCursor(at, ID))).toEqual({ at, id: ID });
  });

  it("start the list over for a cursor we did not issue", () => {
    for (const cursor of [undefined, "", "a".repeat(201), "bm90IGEgY3Vyc29y"]) {
      expect(decodeTimeCursor(cursor)).toBeNull();
    }
    expect(decodeTimeCursor(encodeTimeCursor(new Date(), "1; drop table"))).toBeNull();
  });
});
