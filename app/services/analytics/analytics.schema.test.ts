import { describe, expect, it } from "vitest";
import {
  MAX_PATH_LENGTH,
  RANGE_MESSAGES,
  daysOf,
  normalizePath,
  parseRange,
  referrerHost,
} from "./analytics.schema";

const NOW = new Date("2026-11-25T10:00:00Z");
const range = (query: string) => parseRange(new URLSearchParams(query), NOW);

describe("the Analytics period", () => {
  it("is the last 30 days, today included, by default and for unknown presets", () => {
    for (const query of ["", "days=12", "days=abc"]) {
      expect(range(query)).toEqual({
        range: { from: "2026-10-27", to: "2026-11-25", days: 30 },
        preset: 30,
        errors: null,
      });
    }
  });

  it("takes the 7 and 90 day presets", () => {
    expect(range("days=7").range).toEqual({ from: "2026-11-19", to: "2026-11-25", days: 7 });
    expect(range("days=90").range.days).toBe(90);
  });

  it("takes a custom period, both days included", () => {
    expect(range("from=2026-02-27&to=2026-03-02")).toEqual({
      range: { from: "2026-02-27", to: "2026-03-02", days: 4 },
      preset: null,
      errors: null,
    });
  });

  it("answers bad custom periods with errors beside the fields and shows the default", () => {
    expect(range("from=yesterday&to=2026-11-25").errors).toEqual({
      from: [RANGE_MESSAGES.date],
      to: undefined,
    });
    expect(range("from=2026-11-25").errors?.to).toEqual([RANGE_MESSAGES.date]);
    expect(range("from=2026-11-25&to=2026-11-01").errors?.to).toEqual([RANGE_MESSAGES.order]);
    const tooLong = range("from=2024-01-01&to=2026-01-01");
    expect(tooLong.errors?.from).toEqual([RANGE_MESSAGES.span]);
    expect(tooLong.range.days).toBe(30);
    expect(range("from=2026-02-30&to=2026-03-01").errors?.from).toEqual([RANGE_MESSAGES.date]);
  });

  it("lists every day of a period in order", () => {
    expect(daysOf({ from: "2026-12-30", to: "2027-01-02", days: 4 })).toEqual([
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
      "2027-01-02",
    ]);
  });
});

describe("what a page view keeps", () => {
  it("keeps the path without query, fragment, repeated or trailing slashes", () => {
    expect(normalizePath("/")).toBe("/");
    expect(normalizePath("/about/?utm_source=mail&email=a@b.c#team")).toBe("/about");
    expect(normalizePath("https://example.com//blog//post/")).toBe("/blog/post");
    expect(normalizePath("/caf%C3%A9")).toBe("/caf%C3%A9");
    expect(normalizePath("/a\u0000b\n")).toBe("/a%00b");
    expect(normalizePath(`/${"x".repeat(1000)}`)).toHaveLength(MAX_PATH_LENGTH);
  });

  it("cuts the local provider's site root off", () => {
    expect(normalizePath("/local/sites/s1", "/local/sites/s1")).toBe("/");
    expect(normalizePath("/local/sites/s1/about", "/local/sites/s1")).toBe("/about");
    expect(normalizePath("/local/sites/s10", "/local/sites/s1")).toBe("/local/sites/s10");
  });

  it("refuses what is not a path", () => {
    for (const bad of [undefined, null, 42, { toString: () => "/" }, ["/"], "x".repeat(5000)]) {
      expect(normalizePath(bad)).toBeNull();
    }
  });

  it("keeps only the referring host, never the site's own", () => {
    expect(referrerHost("https://www.google.com/search?q=my+name", [])).toBe("google.com");
    expect(referrerHost("http://News.Example.org/a/b", [])).toBe("news.example.org");
    expect(referrerHost("https://shop.example.com/cart", ["shop.example.com"])).toBeNull();
    for (const none of ["", "android-app://com.x", "javascript:alert(1)", "not a url", 7]) {
      expect(referrerHost(none, [])).toBeNull();
    }
  });
});
