/**
 * The embedded database's directory at start (decision 023): a second `npm start` on a
 * DATA_DIR in use refuses in one line and leaves the running server alone; a directory whose files
 * cannot be opened is named in one line with what to do, never a stack trace. (That a SIGKILL
 * does not damage it is what tests/integration/crash-soak.test.ts measures.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { startServer, startToExit, stopServer, type Server } from "./lifecycle-support";

const running: Server[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await stopServer(server, "SIGKILL");
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A DATA_DIR holding a copy of the suite's migrated PGlite template (initdb takes a while). */
function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-datadir-"));
  fs.cpSync(path.join(inject("pgliteTemplate"), "db"), path.join(dir, "db"), { recursive: true });
  dirs.push(dir);
  return dir;
}

const pglite = (dir: string) => ({
  DATA_DIR: dir,
  DATABASE_URL: "",
  SESSION_SECRET: "datadir-session-secret-0123456789",
  ENCRYPTION_KEY: "datadir-encryption-key-0123456789",
});

describe("npm start and the embedded database's directory", () => {
  it("refuses a second server on a DATA_DIR in use, in one line, and the first keeps serving", async () => {
    const dir = dataDir();
    const first = await startServer(pglite(dir));
    running.push(first);

    const second = await startToExit({ APP_URL: "", ...pglite(dir) });
    expect(second.code).toBe(1);
    const lines = second.output.trim().split("\n");
    expect(lines, second.output).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `in use by process ${first.proc.pid} .*Stop that server first, or set DATABASE_URL`,
      ),
    );

    expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
    await stopServer(first);
    expect(first.proc.exitCode).toBe(0);
    // Released when it stopped: the next start takes the directory.
    expect(fs.existsSync(path.join(dir, "db.lock"))).toBe(false);
  }, 240_000);

  it("names a directory it cannot open, in one line, with what to do", async () => {
    const dir = dataDir();
    // A damaged control file: what PGlite cannot recover from (a SIGKILL never does this).
    fs.writeFileSync(path.join(dir, "db", "global", "pg_control"), Buffer.alloc(8192, 7));

    const { code, output } = await startToExit({ APP_URL: "", ...pglite(dir) });
    expect(code).toBe(1);
    const lines = output.trim().split("\n");
    expect(lines, output).toHaveLength(1);
    expect(lines[0]).toContain(`The embedded database in ${path.join(dir, "db")} cannot be opened`);
    expect(lines[0]).toContain("npm run restore -- FILE");
    expect(output).not.toMatch(/^\s+at /m);
    // The lock it took is released as it exits.
    expect(fs.existsSync(path.join(dir, "db.lock"))).toBe(false);
  }, 180_000);
});
