import { describe, expect, it } from "vitest";
import { lowPriorityModules } from "./module-priority.server";

describe("lowPriorityModules", () => {
  it("gives every module preload link a low fetch priority and leaves the rest of the page as it is", () => {
    const page =
      '<html><head><link rel="stylesheet" href="/a.css"/></head><body><p>Projects – ünïcode</p>' +
      '<link rel="modulepreload" href="/assets/entry.js"/><link rel="modulepreload" href="/assets/root.js"/>' +
      '<script type="module" async="">import "/assets/entry.js";</script></body></html>';
    const out = lowPriorityModules(Buffer.from(page)).toString("utf8");
    expect(out).toBe(
      page.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"'),
    );
    expect(out.match(/fetchpriority="low"/g)).toHaveLength(2);
    expect(out).toContain('<link rel="stylesheet" href="/a.css"/>');
  });

  it("returns a page without module preloads unchanged", () => {
    const page = Buffer.from("<html><body>Not found</body></html>");
    expect(lowPriorityModules(page)).toBe(page);
  });
});
