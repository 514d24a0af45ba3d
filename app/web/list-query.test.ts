import { describe, expect, it } from "vitest";
import { listParams, searchText } from "./list-query";

describe("a list's search and page from its address", () => {
  it("reads the search as one clean lowercase line of at most 200 characters", () => {
    expect(searchText("  ACME\u0000 \n Co\u200b ")).toBe("acme co");
    expect(searchText(null)).toBe("");
    expect(searchText("x".repeat(300))).toHaveLength(200);
  });

  it("reads ?q= and ?cursor=, or the names a page gives them", () => {
    expect(listParams(new URLSearchParams("q=Shop&cursor=abc"))).toEqual({
      query: "shop",
      cursor: "abc",
    });
    expect(
      listParams(new URLSearchParams("pq=Shop&pcursor="), { q: "pq", cursor: "pcursor" }),
    ).toEqual({
      query: "shop",
      cursor: null,
    });
    expect(
      listParams(new URLSearchParams(`after=${"c".repeat(600)}`), { cursor: "after" }).cursor,
    ).toHaveLength(512);
  });
});
