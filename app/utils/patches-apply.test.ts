/**
 * `npm install` fails when a patch in patches/ does not apply (docs/decisions/033-route-matching-once.md,
 * docs/decisions/036-paint-before-scripts.md): package.json's `postinstall` is run, as npm runs
 * it, in a copy of the patched packages' files. A postinstall that exits non-zero fails the
 * install.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const patchFiles = fs.readdirSync(path.join(ROOT, "patches")).filter((f) => f.endsWith(".patch"));

/** The files a patch changes, as paths from the project's root (node_modules/...). */
const filesOf = (patch: string) =>
  [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((match) => match[1]);

let project: string;

/**
 * Runs `command` in the copy as npm runs a script: the project's node_modules/.bin on the PATH,
 * and nothing of this process's environment that could switch patch-package's failures on by
 * itself (CI variables, NODE_ENV=test).
 */
function run(command: string) {
  const result = spawnSync("sh", ["-c", command], {
    cwd: project,
    encoding: "utf8",
    env: {
      PATH: `${path.join(ROOT, "node_modules/.bin")}${path.delimiter}${process.env.PATH}`,
      HOME: project,
      NO_COLOR: "1",
    } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const read = (file: string, root = project) => fs.readFileSync(path.join(root, file), "utf8");
const write = (file: string, text: string) => fs.writeFileSync(path.join(project, file), text);

/** The packages' own files (before patching), by path. */
const pristine = new Map<string, string>();
const reset = () => pristine.forEach((text, file) => write(file, text));

beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), "patches-apply-"));
  fs.writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "patches-apply", private: true }),
  );
  fs.cpSync(path.join(ROOT, "patches"), path.join(project, "patches"), { recursive: true });
  for (const patchFile of patchFiles) {
    const patch = fs.readFileSync(path.join(ROOT, "patches", patchFile), "utf8");
    const packageDir = filesOf(patch)[0].match(/^node_modules\/(@[^/]+\/[^/]+)\//)![1];
    for (const file of [...filesOf(patch), `node_modules/${packageDir}/package.json`]) {
      fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(project, file));
    }
  }
  // The installed files are patched: reversing the patches gives the packages' own files.
  const reversed = run("patch-package --reverse");
  expect(reversed.status, reversed.output).toBe(0);
  for (const patchFile of patchFiles) {
    const patch = fs.readFileSync(path.join(ROOT, "patches", patchFile), "utf8");
    for (const file of filesOf(patch)) {
      pristine.set(file, read(file));
      expect(pristine.get(file), file).not.toBe(read(file, ROOT));
    }
  }
}, 30_000);

beforeEach(reset);

afterAll(() => {
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

// Each test runs patch-package (a Node process) once or twice: a few seconds on a busy machine.
describe("postinstall (patch-package)", { timeout: 30_000 }, () => {
  it("applies every patch to the packages' own files, giving the installed files", () => {
    const applied = run(pkg.scripts.postinstall);
    expect(applied.status, applied.output).toBe(0);
    for (const patchFile of patchFiles) {
      const patch = fs.readFileSync(path.join(ROOT, "patches", patchFile), "utf8");
      for (const file of filesOf(patch)) expect(read(file), file).toBe(read(file, ROOT));
    }
  });

  it.each(patchFiles)("fails when one hunk of %s does not apply", (patchFile) => {
    const patch = fs.readFileSync(path.join(ROOT, "patches", patchFile), "utf8");
    // The first hunk's first context line, changed in the file as a new release might change it.
    const file = filesOf(patch)[0];
    const firstHunk = patch.slice(patch.indexOf("\n@@ ", patch.indexOf(`a/${file}`)) + 1);
    const contextLine = firstHunk
      .split("\n")
      .find((line) => line.startsWith(" "))!
      .slice(1);
    expect(read(file)).toContain(contextLine);
    write(file, read(file).replace(contextLine, `${contextLine} /* changed upstream */`));

    const failed = run(pkg.scripts.postinstall);
    expect(failed.status, failed.output).not.toBe(0);
    expect(failed.output).toMatch(/Failed to apply patch/i);
    expect(failed.output).toContain(patchFile.split("+").slice(0, 2).join("/"));
    // Plain patch-package reports the same failure and exits 0 outside CI: the flag is needed.
    expect(run("patch-package").status).toBe(0);
  });

  it("fails when a package's version is not the one its patch was made for, even if it applies", () => {
    const manifest = "node_modules/@remix-run/router/package.json";
    const original = read(manifest);
    write(manifest, JSON.stringify({ ...JSON.parse(original), version: "1.23.99" }));
    try {
      const failed = run(pkg.scripts.postinstall);
      expect(failed.status, failed.output).not.toBe(0);
      expect(failed.output).toMatch(/version mismatch/i);
    } finally {
      write(manifest, original);
    }
  });
});
