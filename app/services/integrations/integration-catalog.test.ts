import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INTEGRATION_IDS, INTEGRATIONS, integrationLogo } from "./integration-catalog";

/**
 * The elements of an XML text as a stack would read them: throws on a closing tag that does not
 * close the open one, on text outside the root, or on tags left open. Returns the root's name
 * and attributes and the text of each element by name (enough to check a small SVG).
 */
function readXml(text: string) {
  const body = text.replace(/^<\?xml[^>]*\?>\s*/, "").replace(/<!--[\s\S]*?-->/g, "");
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>/g;
  const open: string[] = [];
  const texts = new Map<string, string>();
  let root: { name: string; attributes: Record<string, string> } | null = null;
  let last = 0;
  for (const match of body.matchAll(tag)) {
    const between = body.slice(last, match.index);
    if (between.includes("<") || between.includes(">")) throw new Error(`bad markup: ${between}`);
    if (!open.length && between.trim()) throw new Error(`text outside the root: ${between}`);
    if (open.length && between.trim()) texts.set(open.at(-1)!, between.trim());
    last = match.index + match[0].length;
    const [, closing, name, rawAttributes, selfClosing] = match;
    if (closing) {
      if (open.pop() !== name) throw new Error(`</${name}> closes nothing open`);
      continue;
    }
    if (!root) {
      if (open.length) throw new Error("two roots");
      const attributes = Object.fromEntries(
        [...rawAttributes.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]),
      );
      root = { name, attributes };
    } else if (!open.length) {
      throw new Error(`a second root <${name}>`);
    }
    if (!selfClosing) open.push(name);
  }
  if (open.length) throw new Error(`left open: ${open.join(", ")}`);
  if (body.slice(last).trim()) throw new Error("text after the root");
  if (!root) throw new Error("no root element");
  return { root, texts };
}

describe("integration logos", () => {
  it("has an id for every catalogue entry and for the AI Newsletter", () => {
    expect(INTEGRATION_IDS).toEqual([...INTEGRATIONS.map((e) => e.slug), "newsletter"]);
  });

  for (const id of INTEGRATION_IDS) {
    it(`${id}: public${integrationLogo(id)} is an SVG with a viewBox and a title`, () => {
      const file = path.join(process.cwd(), "public", integrationLogo(id));
      expect(fs.existsSync(file), file).toBe(true);
      const text = fs.readFileSync(file, "utf8");
      const { root, texts } = readXml(text);
      expect(root.name).toBe("svg");
      expect(root.attributes.xmlns).toBe("http://www.w3.org/2000/svg");
      const box = (root.attributes.viewBox ?? "")
        .trim()
        .split(/[\s,]+/)
        .map(Number);
      expect(box, "viewBox: min-x min-y width height").toHaveLength(4);
      expect(box.every(Number.isFinite)).toBe(true);
      expect(box[2]).toBeGreaterThan(0);
      expect(box[3]).toBeGreaterThan(0);
      expect(texts.get("title"), "a <title> with text").toBeTruthy();
      // Drawn here, and safe as an <img> or opened by itself: no script, nothing fetched.
      expect(text).not.toMatch(/<script|on\w+=|href="(?!#)/i);
    });
  }

  it("rejects what is not an SVG: the check above can fail", () => {
    expect(() => readXml("<svg><title>x</svg>")).toThrow();
    expect(readXml('<svg viewBox="0 0 1 1"><title>x</title></svg>').texts.get("title")).toBe("x");
  });
});
