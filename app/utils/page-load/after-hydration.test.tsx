import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { afterHydration } from "./after-hydration";

describe("afterHydration", () => {
  it("renders the plain version on the server and loads nothing there", () => {
    const load = vi.fn(() => Promise.resolve({ label: "loaded" }));
    const useThing = afterHydration(load);
    function Probe() {
      const thing = useThing();
      return <p>{thing ? thing.label : "plain"}</p>;
    }
    expect(renderToString(<Probe />)).toBe("<p>plain</p>");
    expect(load).not.toHaveBeenCalled();
  });
});
