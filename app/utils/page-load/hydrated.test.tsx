import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { useHydrated } from "./hydrated";

describe("useHydrated", () => {
  it("is false in the server's render (the version without JavaScript)", () => {
    function Probe() {
      return <p>{useHydrated() ? "interactive" : "plain"}</p>;
    }
    expect(renderToString(<Probe />)).toBe("<p>plain</p>");
  });
});
