import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lazyPart, loadAllParts } from "./lazy-part";

describe("lazyPart", () => {
  it("renders a loaded part in place, without a Suspense boundary, after its marker", async () => {
    const Part = lazyPart("test-part", async () => ({ text }: { text: string }) => <b>{text}</b>);
    await loadAllParts();
    expect(renderToString(<Part text="hello" />)).toBe(
      '<template data-lazy-part="test-part"></template><b>hello</b>',
    );
  });

  it("loads a part that another part's code declares", async () => {
    let Inner: ComponentType | null = null;
    const Outer = lazyPart("test-outer", async () => {
      Inner = lazyPart("test-inner", async () => () => <i>inner</i>);
      const Declared = Inner;
      return () => <Declared />;
    });
    await loadAllParts();
    expect(Inner).not.toBeNull();
    expect(renderToString(<Outer />)).toContain("<i>inner</i>");
    expect(renderToString(<Outer />)).not.toContain("<!--$");
  });
});
