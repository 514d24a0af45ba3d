/**
 * README's "Where things are" is the newcomer's map: every folder of the repository, of app/ and
 * of tests/ is named in it (as `name/`), so a folder added without a line there fails here.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

function mapText() {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## Where things are");
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end);
}

/** Folders of `tree` as git has them (build output and data directories are not in git). */
function folders(tree: string) {
  const out = execFileSync(
    "git",
    ["ls-tree", "-d", "--name-only", tree === "." ? "HEAD" : `HEAD:${tree}`],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  return out.split("\n").filter((name) => name && !name.startsWith("."));
}

describe("README's map of the repository", () => {
  it.each([".", "app", "tests"])("names every folder of %s", (tree) => {
    const map = mapText();
    const prefix = tree === "." ? "" : `${tree}/`;
    const missing = folders(tree).filter(
      (name) => !map.includes(`${prefix}${name}/`) && !map.includes(` ${name}/`),
    );
    expect(missing, `folders of ${tree} not named in README's "Where things are"`).toEqual([]);
  });
});
