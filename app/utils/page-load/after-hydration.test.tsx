import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { afterHydration, inTurn } from "./after-hydration";

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

  it("swaps in what each component loaded one task after another, not all in one", () => {
    vi.useFakeTimers();
    try {
      const swapped: string[] = [];
      for (const name of ["menu", "picker", "toasts"]) inTurn(() => swapped.push(name));
      expect(swapped).toEqual([]);
      vi.advanceTimersByTime(0);
      expect(swapped).toEqual(["menu"]);
      vi.advanceTimersByTime(16);
      expect(swapped).toEqual(["menu", "picker"]);
      vi.advanceTimersByTime(16);
      expect(swapped).toEqual(["menu", "picker", "toasts"]);
      // A later one starts at once again.
      vi.advanceTimersByTime(16);
      inTurn(() => swapped.push("badge"));
      vi.advanceTimersByTime(0);
      expect(swapped).toEqual(["menu", "picker", "toasts", "badge"]);
    } finally {
      vi.useRealTimers();
    }
  });
});
