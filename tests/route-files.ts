import fs from "node:fs";
import path from "node:path";

export const ROUTES_DIR = path.resolve("app/routes");

/**
 * The route modules of app/routes as Remix's flat routes find them, relative to that folder: each
 * `a.b.tsx` file, and each folder route's `a.b/route.tsx` (the folder keeps the route's server
 * halves beside it). Tests that walk every route list them here, so a folder route is never
 * skipped.
 */
export function routeFiles(): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(ROUTES_DIR, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const inside = fs.readdirSync(path.join(ROUTES_DIR, entry.name));
      const route = inside.find((f) => /^route\.(ts|tsx)$/.test(f));
      if (route) files.push(`${entry.name}/${route}`);
    } else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.includes(".test.")) {
      files.push(entry.name);
    }
  }
  return files.sort();
}

/** The flat name a route file stands for: `a.b/route.tsx` is the route `a.b.tsx`. */
export function flatName(file: string): string {
  return file.replace(/\/route\.(tsx?)$/, ".$1");
}
