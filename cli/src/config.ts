/**
 * Where the command line keeps the dashboard's address and the token `stackshift login` saved:
 * config.json in the user's config folder (XDG_CONFIG_HOME or ~/.config on Linux, Application
 * Support on macOS, APPDATA on Windows), a folder of mode 0700 and a file of mode 0600.
 * STACKSHIFT_TOKEN and STACKSHIFT_URL (or --url) win over the file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type Saved = { url?: string; token?: string };

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === "win32") {
    return path.join(env.APPDATA || path.join(os.homedir(), "AppData", "Roaming"), "stackshift");
  }
  if (process.platform === "darwin" && !env.XDG_CONFIG_HOME) {
    return path.join(os.homedir(), "Library", "Application Support", "stackshift");
  }
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config"), "stackshift");
}

export function configFile(env: NodeJS.ProcessEnv = process.env) {
  return path.join(configDir(env), "config.json");
}

export function readSaved(env: NodeJS.ProcessEnv = process.env): Saved {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(configFile(env), "utf8"));
    if (!parsed || typeof parsed !== "object") return {};
    const { url, token } = parsed as Record<string, unknown>;
    return {
      ...(typeof url === "string" ? { url } : {}),
      ...(typeof token === "string" ? { token } : {}),
    };
  } catch {
    return {};
  }
}

/** Writes the file readable by its owner only (a new file first, then renamed over the old). */
export function writeSaved(saved: Saved, env: NodeJS.ProcessEnv = process.env) {
  const file = configFile(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const scratch = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(scratch, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(scratch, 0o600);
  fs.renameSync(scratch, file);
  return file;
}

export function removeSaved(env: NodeJS.ProcessEnv = process.env) {
  const file = configFile(env);
  const existed = fs.existsSync(file);
  fs.rmSync(file, { force: true });
  return existed;
}
