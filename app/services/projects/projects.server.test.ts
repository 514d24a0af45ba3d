import { describe, expect, it } from "vitest";
import { newStudioId } from "./projects.server";

describe("newStudioId", () => {
  it("is short, URL-safe and varies", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newStudioId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]{12}$/);
  });
});
