import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { splashSchema } from "./studio.schema";

/** The fields of a form body. */
function formOf(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("splashSchema", () => {
  it("leaves the checkbox optional in the browser's constraints, so an unticked box submits", () => {
    expect(getZodConstraint(splashSchema).hideSplash?.required).toBe(false);
  });

  it("reads a ticked box as true and an absent one as false", () => {
    for (const [fields, hide] of [
      [{ hideSplash: "on" }, true],
      [{ hideSplash: "true" }, true],
      [{}, false],
    ] as const) {
      const submission = parseWithZod(formOf(fields), { schema: splashSchema });
      expect(submission.status === "success" && submission.value.hideSplash).toBe(hide);
    }
  });
});
