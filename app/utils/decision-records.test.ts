/**
 * docs/decisions/ follows its template (docs/decisions/000-template.md): each record is numbered
 * once, its title carries the number of its file, and a `Date: ... Status: ...` line near the top
 * says whether it still holds, so a reader never has to guess which records are current.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DIR = path.resolve(__dirname, "../../docs/decisions");
const records = fs
  .readdirSync(DIR)
  .filter((name) => /^\d{3}-.+\.md$/.test(name) && !name.startsWith("000-"))
  .sort();
const STATUS =
  /^Date: \d{4}-\d{2}-\d{2}(?: \([^)]*\))?\. Status: (accepted|superseded by \d{3})\b/m;

describe("decision records", () => {
  it("are there to check", () => {
    expect(records.length).toBeGreaterThan(20);
  });

  it("each have a number of their own", () => {
    const numbers = records.map((name) => name.slice(0, 3));
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  });

  it("each open with their number and, within five lines, a Date and Status line", () => {
    const problems = records.flatMap((name) => {
      const lines = fs.readFileSync(path.join(DIR, name), "utf8").split("\n");
      const found: string[] = [];
      if (!lines[0].startsWith(`# ${name.slice(0, 3)}: `)) found.push(`${name}: title`);
      if (!STATUS.test(lines.slice(0, 5).join("\n"))) found.push(`${name}: Date/Status line`);
      return found;
    });
    expect(problems).toEqual([]);
  });
});
