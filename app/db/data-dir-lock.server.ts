/**
 * Who holds the embedded database of a DATA_DIR. PGlite opens its directory without any lock, and
 * two processes writing one directory corrupt it, so the server (app/entry.server.tsx) and
 * `npm run rotate-key` each claim DATA_DIR/db.lock (the process id, who, since when) before they
 * open it and remove it when they close it. A lock left by a process that no longer runs (a
 * SIGKILL) counts as free; one written on another host (a shared volume) cannot be checked, so it
 * counts as held.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type DataDirHolder = { pid: number; by: string; since: string; host?: string };

export class DataDirInUseError extends Error {
  constructor(
    dataDir: string,
    readonly holder: DataDirHolder,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder.pid} (${holder.by}, ` +
        `since ${holder.since}); PGlite serves one process at a time`,
    );
    this.name = "DataDirInUseError";
  }
}

const lockFile = (dataDir: string) => path.join(dataDir, "db.lock");

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live process other than this one that holds the directory's database, if any. */
export function dataDirHolder(dataDir: string): DataDirHolder | null {
  let holder: DataDirHolder;
  try {
    holder = JSON.parse(fs.readFileSync(lockFile(dataDir), "utf8")) as DataDirHolder;
  } catch {
    return null;
  }
  if (!Number.isInteger(holder.pid)) return null;
  if (holder.host && holder.host !== os.hostname()) return holder;
  if (holder.pid === process.pid) return null;
  return alive(holder.pid) ? holder : null;
}

/** Claims the directory's database for this process; throws DataDirInUseError when taken. */
export function claimDataDir(dataDir: string, by: string) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const content = JSON.stringify({
    pid: process.pid,
    by,
    since: new Date().toISOString(),
    host: os.hostname(),
  });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      // wx: of two processes claiming at once, one wins.
      fs.writeFileSync(file, content, { flag: "wx" });
      process.once("exit", () => releaseDataDir(dataDir));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = dataDirHolder(dataDir);
    if (holder) throw new DataDirInUseError(dataDir, holder);
    // Left by a process that no longer runs (or by this one): it goes.
    fs.rmSync(file, { force: true });
  }
  throw new Error(`Could not claim ${file}`);
}

/** Removes the lock when this process holds it. */
export function releaseDataDir(dataDir: string) {
  const file = lockFile(dataDir);
  try {
    const holder = JSON.parse(fs.readFileSync(file, "utf8")) as DataDirHolder;
    if (holder.pid === process.pid && (!holder.host || holder.host === os.hostname())) {
      fs.rmSync(file, { force: true });
    }
  } catch {
    /* no lock, or not ours */
  }
}
