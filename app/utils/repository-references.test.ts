/**
 * A reader with only this repository can follow every comment and document: source files under
 * app/, server/, scripts/ and tests/, the documents under docs/ and `.env.example` may point into
 * docs/ (or at other files of the repository), but not at documents that live elsewhere (the
 * product brief, the issue tracker, shared notes). They state the rule they follow in their own
 * words instead.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const DIRS = ["app", "server", "scripts", "tests", "docs"];
const FILES = [".env.example", "README.md"];
const SOURCE = /\.(ts|tsx|mjs|js|cjs|md)$/;

/** Citations of documents outside the repository. */
const OUTSIDE: [RegExp, string][] = [
  [/\b(ARCHITECTURE|CONTRACT|STYLE|SPEC|PROVIDERS|DESIGN-CARD)\.md\b/, "a shared document"],
  [/provider-contracts\//, "the shared provider contracts"],
  [/\bspec(ification)?'?s? (section|§)/i, "a section of the product brief"],
  [/\bspec(ification)? \d/i, "a section of the product brief"],
  [/\(spec\b/i, "the product brief"],
  [/\bissues? #?\d+\b/i, "an issue of the tracker"],
];

/**
 * The one exception: the specification client states the product brief's entities as a client
 * written from the brief alone would, each field citing the brief's line (SPEC.md:NNN), so that a
 * reader holding the brief can check every field. It may name that brief and no other document.
 */
const SPEC_CLIENT = path.join(ROOT, "tests/spec-client/entities.ts");
const BRIEF_CITATIONS = new Set([
  "a shared document",
  "a section of the product brief",
  "the product brief",
]);
const OTHER_SHARED = /\b(ARCHITECTURE|CONTRACT|STYLE|PROVIDERS|DESIGN-CARD)\.md\b/;

function sourceFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile() || !SOURCE.test(entry.name)) return [];
    const file = path.join(entry.parentPath, entry.name);
    return file.includes(`${path.sep}node_modules${path.sep}`) ? [] : [file];
  });
}

/**
 * `docs/...` and `*.md` paths named in the text that do not exist in the repository. A path
 * inside a URL (after a "/" or a host name) is the vendor's, not ours.
 */
function missingDocs(text: string): string[] {
  const named = text.match(/(?<![\w./-])(?:docs\/[\w./-]+|[\w-]+\.md)\b/g) ?? [];
  return named.filter((ref) => {
    const clean = ref.replace(/[.)]+$/, "");
    if (clean.startsWith("docs/")) return !fs.existsSync(path.join(ROOT, clean));
    return !fs.existsSync(path.join(ROOT, clean)) && !fs.existsSync(path.join(ROOT, "docs", clean));
  });
}

describe("source comments and documents point only into this repository", () => {
  const files = [
    ...DIRS.flatMap(sourceFiles),
    ...FILES.map((file) => path.join(ROOT, file)).filter((file) => fs.existsSync(file)),
  ].filter((f) => f !== __filename);

  it("finds the source files, the tests, the documents and .env.example", () => {
    expect(files.length).toBeGreaterThan(50);
    for (const dir of ["tests", "docs"]) {
      expect(
        files.some((f) => f.startsWith(path.join(ROOT, dir, path.sep))),
        dir,
      ).toBe(true);
    }
    expect(files).toContain(path.join(ROOT, ".env.example"));
  });

  it("cite no document outside the repository", () => {
    const problems: string[] = [];
    for (const file of files) {
      const lines = fs.readFileSync(file, "utf8").split("\n");
      const readsTheBrief = file === SPEC_CLIENT;
      lines.forEach((line, i) => {
        for (const [pattern, what] of OUTSIDE) {
          // The brief's citations only: another shared document is still refused.
          if (readsTheBrief && BRIEF_CITATIONS.has(what) && !OTHER_SHARED.test(line)) continue;
          if (pattern.test(line)) {
            problems.push(`${path.relative(ROOT, file)}:${i + 1} cites ${what}: ${line.trim()}`);
          }
        }
        for (const ref of missingDocs(line).filter((r) => !(readsTheBrief && r === "SPEC.md"))) {
          problems.push(
            `${path.relative(ROOT, file)}:${i + 1} names ${ref}, not in the repository`,
          );
        }
      });
    }
    expect(problems).toEqual([]);
  });
});
