/**
 * docs/decisions/ follows its template (docs/decisions/000-template.md): each record is numbered
 * once, its title carries the number of its file, and a `Date: ... Status: ...` line near the top
 * says whether it still holds, so a reader never has to guess which records are current. A record
 * and each of its amendments are dated no later than the day they were committed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const DIR = path.resolve(__dirname, "../../docs/decisions");
const records = fs
  .readdirSync(DIR)
  .filter((name) => /^\d{3}-.+\.md$/.test(name) && !name.startsWith("000-"))
  .sort();
const ROOT = path.resolve(DIR, "../..");
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

/**
 * When each record's file and each line of it first reached the history: the earliest commit
 * day (`%cs`) that added it, on any branch (`-m`: records renumbered in a merge are added by the
 * merge), a renamed file counting as added under its new name.
 */
function committedDays() {
  const log = spawnSync(
    "git",
    ["log", "-m", "--no-renames", "--format=@%cs", "-p", "--unified=0", "--", "docs/decisions"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  expect(log.status, log.stderr).toBe(0);
  const files = new Map<string, string>();
  const lines = new Map<string, Map<string, string>>();
  const earliest = (map: Map<string, string>, key: string, day: string) => {
    const known = map.get(key);
    if (!known || day < known) map.set(key, day);
  };
  let day = "";
  let file = "";
  let added = false;
  for (const line of log.stdout.split("\n")) {
    if (/^@\d{4}-\d{2}-\d{2}$/.test(line)) day = line.slice(1);
    else if (line.startsWith("diff --git ")) added = false;
    else if (line === "--- /dev/null") added = true;
    else if (line.startsWith("+++ b/")) {
      file = line.slice("+++ b/".length);
      if (added) earliest(files, file, day);
      if (!lines.has(file)) lines.set(file, new Map());
    } else if (line.startsWith("+") && !line.startsWith("+++")) {
      earliest(lines.get(file)!, line.slice(1), day);
    }
  }
  return { files, lines };
}

describe("decision record dates", () => {
  let history: ReturnType<typeof committedDays>;
  beforeAll(() => {
    history = committedDays();
  });
  // A record or amendment not committed yet is written today.
  const today = new Date().toISOString().slice(0, 10);

  it("are compared with the history of docs/decisions", () => {
    expect(history.files.get("docs/decisions/001-remix-vite-mode.md")).toMatch(/^\d{4}-/);
  });

  it("are no later than the day the record, or the amendment, was committed", () => {
    const problems = records.flatMap((name) => {
      const file = `docs/decisions/${name}`;
      const text = fs.readFileSync(path.join(DIR, name), "utf8");
      const found: string[] = [];
      const dated = text.match(/^Date: (\d{4}-\d{2}-\d{2})/m)?.[1];
      const committed = history.files.get(file) ?? today;
      if (dated && dated > committed) found.push(`${name}: dated ${dated}, committed ${committed}`);
      for (const heading of text.match(/^## Amendment\b.*$/gm) ?? []) {
        const amended = heading.match(/\d{4}-\d{2}-\d{2}/)?.[0];
        if (!amended) continue;
        // Known by its title, which outlives edits to the heading's date or its end.
        const title = heading.slice(heading.indexOf(amended) + amended.length).replace(/^\W+/, "");
        const days = [...(history.lines.get(file) ?? [])]
          .filter(([line]) => line.startsWith("## Amendment") && line.includes(title))
          .map(([, day]) => day);
        const headingCommitted = days.length ? days.sort()[0] : today;
        if (amended > headingCommitted) {
          found.push(`${name}: "${heading}" committed ${headingCommitted}`);
        }
      }
      return found;
    });
    expect(problems).toEqual([]);
  });
});
