import { describe, expect, it } from "vitest";
import { buildsHref, numberedPages } from "./builds-view";

describe("buildsHref", () => {
  it("links page numbers and cursors on the dashboard URL", () => {
    expect(buildsHref("abc", {})).toBe("/sites/abc");
    expect(buildsHref("abc", { page: 1 })).toBe("/sites/abc");
    expect(buildsHref("abc", { page: 3 })).toBe("/sites/abc?page=3");
    expect(buildsHref("abc", { next: "170000" })).toBe("/sites/abc?next=170000");
    expect(buildsHref("abc", { prev: "a b" })).toBe("/sites/abc?prev=a+b");
  });
});

describe("numberedPages", () => {
  it("shows the current page, up to three before it and the next when there is one", () => {
    expect(numberedPages(1, false)).toEqual([{ label: "1", page: 1, current: true }]);
    expect(numberedPages(1, true).map((p) => p.page)).toEqual([1, 2]);
    expect(numberedPages(6, true).map((p) => [p.page, p.current])).toEqual([
      [3, false],
      [4, false],
      [5, false],
      [6, true],
      [7, false],
    ]);
  });
});
