/**
 * The environment has one source, the schema in env.server.ts; `.env.example` and the table in
 * docs/configuration.md describe it. These tests keep the three in step: a variable added to the
 * schema without its line and its row, a documented variable the app no longer reads, or an
 * example that pins a value other than the default fails here.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_NAMES, parseEnv } from "./env.server";

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** Read outside the schema, by the file named: each must still be read there. */
const OUTSIDE_SCHEMA: Record<string, string> = {
  WEB_CONCURRENCY: "scripts/serve.mjs",
  // Read when the logger is made, before the schema is parsed (and by scripts and tests).
  LOG_LEVEL: "app/utils/logger.server.ts",
};
const KNOWN = new Set([...ENV_NAMES, ...Object.keys(OUTSIDE_SCHEMA)]);

/** `NAME=value` lines of .env.example (comments and blank lines left out). */
function exampleEntries(): [string, string][] {
  return read(".env.example")
    .split("\n")
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => {
      const at = line.indexOf("=");
      return [line.slice(0, at), line.slice(at + 1)];
    });
}

/** The "## Environment" section of docs/configuration.md, up to the next heading. */
function environmentSection(): string {
  const text = read("docs/configuration.md");
  const start = text.indexOf("\n## Environment\n");
  expect(start, "docs/configuration.md has an Environment section").toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

describe("the environment schema, .env.example and docs/configuration.md", () => {
  it("reads the variables read outside the schema where the list says", () => {
    for (const [name, file] of Object.entries(OUTSIDE_SCHEMA)) {
      expect(read(file), `${name} in ${file}`).toContain(`process.env.${name}`);
    }
  });

  it(".env.example has one line for each variable, and none the app does not read", () => {
    const names = exampleEntries().map(([name]) => name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect([...KNOWN].filter((name) => !names.includes(name))).toEqual([]);
    expect(names.filter((name) => !KNOWN.has(name))).toEqual([]);
  });

  it(".env.example sets no value other than the default", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "env-docs-"));
    try {
      // Secrets given, so that parsing writes no secrets file.
      const base: NodeJS.ProcessEnv = {
        NODE_ENV: "development",
        DATA_DIR: dataDir,
        SESSION_SECRET: "s".repeat(32),
        ENCRYPTION_KEY: "k".repeat(32),
      };
      const defaults = parseEnv(base) as Record<string, unknown>;
      const pinned = exampleEntries()
        .filter(([name, value]) => value !== "" && name in defaults && name !== "DATA_DIR")
        .filter(([name, value]) => {
          const parsed = parseEnv({ ...base, [name]: value }) as Record<string, unknown>;
          return JSON.stringify(parsed[name]) !== JSON.stringify(defaults[name]);
        });
      expect(pinned).toEqual([]);
      // DATA_DIR is given above; the example must show its own default.
      const { DATA_DIR } = parseEnv({ ...base, DATA_DIR: undefined });
      expect(exampleEntries()).toContainEqual(["DATA_DIR", DATA_DIR]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("docs/configuration.md names each variable in its Environment section", () => {
    const section = environmentSection();
    expect([...KNOWN].filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });

  it("docs/configuration.md's variable table lists no variable the app does not read", () => {
    const firstColumn = environmentSection()
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .flatMap((line) => line.split("|")[1].match(/`([A-Z][A-Z0-9_]*)`/g) ?? [])
      .map((name) => name.slice(1, -1));
    expect(firstColumn.length).toBeGreaterThan(20);
    expect(firstColumn.filter((name) => !KNOWN.has(name))).toEqual([]);
  });
});
