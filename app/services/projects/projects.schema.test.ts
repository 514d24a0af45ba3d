import { describe, expect, it } from "vitest";
import { sanitizeProjectName, sanitizeProjectNameInput } from "./project-name";
import { createProjectSchema, listProjectsSchema, projectName } from "./projects.schema";

describe("sanitizeProjectName", () => {
  it("trims the ends and collapses inner whitespace, tabs and line breaks to one space", () => {
    expect(sanitizeProjectName("  My \t  new\n\r site  ")).toBe("My new site");
    expect(sanitizeProjectName("a\u00a0\u2003b\u2028c")).toBe("a b c");
  });

  it("strips control and zero-width characters", () => {
    expect(sanitizeProjectName("Ac\u0000me\u0007")).toBe("Acme");
    expect(sanitizeProjectName("Ac\u200bme\u200c\u200d\ufeff")).toBe("Acme");
    // Bidi overrides could make a name read differently from what is stored.
    expect(sanitizeProjectName("\u202eevil\u202c site")).toBe("evil site");
    expect(sanitizeProjectName("lone\ud800 surrogate")).toBe("lone surrogate");
  });

  it("normalises to NFC, so look-alike spellings are stored the same", () => {
    expect(sanitizeProjectName("Cafe\u0301")).toBe("Caf\u00e9");
  });

  it("keeps letters of any script, digits, punctuation and emoji", () => {
    expect(sanitizeProjectName("Ünïcødé 東京 42 — café & co. 🚀")).toBe(
      "Ünïcødé 東京 42 — café & co. 🚀",
    );
  });
});

describe("sanitizeProjectNameInput (as you type)", () => {
  it("keeps a trailing space so the next word can be typed", () => {
    expect(sanitizeProjectNameInput("My ")).toBe("My ");
    expect(sanitizeProjectNameInput("My   site")).toBe("My site");
  });

  it("drops leading whitespace and invisible characters", () => {
    expect(sanitizeProjectNameInput("  \u200bMy")).toBe("My");
  });

  it("stops at 64 characters, counting emoji as one", () => {
    expect(Array.from(sanitizeProjectNameInput("🚀".repeat(70)))).toHaveLength(64);
  });
});

describe("projectName", () => {
  it("returns the sanitized name", () => {
    expect(projectName.parse("  Acme \u200b Site ")).toBe("Acme Site");
  });

  it.each([
    ["", "Name is required"],
    ["   \u200b\u0000  ", "Name is required"],
    ["--- !!! ---", "Name must contain a letter or a digit"],
    ["x".repeat(65), "Name must be at most 64 characters"],
  ])("refuses %j with %j", (input, message) => {
    const result = projectName.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(message);
  });

  it("accepts 64 characters, and counts code points rather than UTF-16 units", () => {
    expect(projectName.safeParse("x".repeat(64)).success).toBe(true);
    expect(projectName.safeParse(`a${"🚀".repeat(63)}`).success).toBe(true);
    expect(projectName.safeParse(`a${"🚀".repeat(64)}`).success).toBe(false);
  });

  it("refuses a non-string", () => {
    expect(projectName.safeParse(42).success).toBe(false);
    expect(projectName.safeParse(null).success).toBe(false);
  });
});

describe("createProjectSchema", () => {
  it("requires an idempotency key and a known site type", () => {
    expect(createProjectSchema.safeParse({ name: "A" }).success).toBe(false);
    expect(
      createProjectSchema.safeParse({ name: "A", siteType: "agency", idempotencyKey: "key-12345" })
        .success,
    ).toBe(false);
    expect(
      createProjectSchema.safeParse({ name: "A", idempotencyKey: "has spaces in it" }).success,
    ).toBe(false);
    expect(createProjectSchema.parse({ name: " A ", idempotencyKey: "key-12345" })).toEqual({
      name: "A",
      idempotencyKey: "key-12345",
    });
  });
});

describe("listProjectsSchema", () => {
  it("clamps the limit to 50 and refuses nonsense", () => {
    expect(listProjectsSchema.parse({ limit: "500" }).limit).toBe(50);
    expect(listProjectsSchema.parse({ limit: "7" }).limit).toBe(7);
    expect(listProjectsSchema.safeParse({ limit: "abc" }).success).toBe(false);
    expect(listProjectsSchema.safeParse({ limit: "0" }).success).toBe(false);
    expect(listProjectsSchema.safeParse({ limit: "2.5" }).success).toBe(false);
  });
});

describe("the Create New form's parsing (conform)", () => {
  it("says 'Name is required' for a name that sanitizes to nothing", async () => {
    const { parseWithZod } = await import("@conform-to/zod/v4");
    const { reviewProjectSchema } = await import("./projects.schema");
    for (const name of ["", "  ", " \u200b\u0000 "]) {
      const form = new FormData();
      form.set("name", name);
      const reply = parseWithZod(form, { schema: reviewProjectSchema }).reply();
      expect(reply.error?.name).toEqual(["Name is required"]);
    }
  });
});
