import { describe, expect, it } from "vitest";
import { contrastRatio, NEWSLETTER_DEFAULTS, readableBrandText } from "./newsletter-rules";

describe("readableBrandText", () => {
  it("keeps a brand colour that is readable on white and slate-50", () => {
    expect(readableBrandText("#1d4ed8")).toBe("#1d4ed8");
    expect(readableBrandText("#000000")).toBe("#000000");
  });

  it("darkens the spec's default #296EFF (4.4:1 on white) just enough to reach 4.5:1", () => {
    expect(contrastRatio(NEWSLETTER_DEFAULTS.brandColor, "#ffffff")).toBeLessThan(4.5);
    const text = readableBrandText(NEWSLETTER_DEFAULTS.brandColor);
    expect(text).not.toBe(NEWSLETTER_DEFAULTS.brandColor.toLowerCase());
    expect(contrastRatio(text, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(text, "#f8fafc")).toBeGreaterThanOrEqual(4.5);
    // One 5 % step darker, not black.
    expect(text).toBe("#2769f2");
  });

  it("darkens even white and yellow to a readable shade", () => {
    for (const colour of ["#ffffff", "#ffff00", "#7fdbff"]) {
      expect(contrastRatio(readableBrandText(colour), "#f8fafc")).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("gives a dark slate for a value that is not #rrggbb", () => {
    expect(readableBrandText("red")).toBe("#1e293b");
  });
});
