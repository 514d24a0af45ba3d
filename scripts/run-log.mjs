// The run logs: each measuring script (bench, soaks) appends what it printed to its own file under
// docs/runs/, with the machine and the versions read at run time, so no figure or version in the
// docs is typed by hand. docs/performance.md and docs/reliability.md hold the targets and the
// analysis, and point here for the figures.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = path.join(root, "docs/runs");

/**
 * The installed version of a package, as npm resolved it (null when it is not installed).
 * @param {string} name
 * @returns {string | null}
 */
export function installedVersion(name) {
  try {
    const file = path.join(root, "node_modules", name, "package.json");
    return JSON.parse(fs.readFileSync(file, "utf8")).version;
  } catch {
    return null;
  }
}

/**
 * The PostgreSQL server's version through psql at `url` (null when it cannot be asked).
 * @param {string} url
 */
export function postgresVersion(url) {
  try {
    return execFileSync("psql", [url, "-Atc", "show server_version"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

/**
 * One line naming the machine and the versions that shape the figures.
 * @param {{ packages?: string[], databaseUrl?: string }} [options]
 */
export function machineLine({ packages = [], databaseUrl } = {}) {
  const parts = [
    `${os.cpus().length} cores`,
    `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" / ")}`,
    `Node ${process.version}`,
  ];
  const pg = databaseUrl ? postgresVersion(databaseUrl) : null;
  if (pg) parts.push(`PostgreSQL ${pg}`);
  for (const name of packages) {
    const version = installedVersion(name);
    if (version) parts.push(`${name} ${version}`);
  }
  let commit = null;
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" });
  } catch {
    // Not a git checkout: no commit to name.
  }
  if (commit) parts.push(`commit ${commit.trim()}`);
  return parts.join(", ");
}

/**
 * Appends a section `## {UTC time}: {title}` with `lines` to docs/runs/{log}.md, creating the file
 * with its heading. Returns the file's path relative to the repository.
 * @param {string} log
 * @param {{ heading: string, title: string, lines: string[] }} section
 */
export function appendRunLog(log, { heading, title, lines }) {
  fs.mkdirSync(RUNS, { recursive: true });
  const file = path.join(RUNS, `${log}.md`);
  if (!fs.existsSync(file)) {
    fs.writeFileSync(
      file,
      `# ${heading}\n\nWritten by the script, one section per run, newest last: do not edit by hand.\n`,
    );
  }
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  fs.appendFileSync(file, [`\n## ${when} UTC: ${title}`, "", ...lines, ""].join("\n"));
  return path.relative(root, file);
}
