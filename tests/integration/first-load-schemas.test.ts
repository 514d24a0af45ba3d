/**
 * A page with no form in its first screen makes no zod schema while it loads: the first load of
 * the project list (/sites: the entry, its routes and their static imports, as the page's
 * `<Scripts>` lists them) holds no chunk with zod's core, nor does the dashboard's, whose forms
 * bring it as parts loaded on their own. A module that every page uses importing a schema module (the
 * picker's search text once did, through the projects' name clean-up) would put zod and every
 * schema of that module into every page's first load, made before hydration
 * (docs/runs/performance-journal.md, "2026-11-28, night"). Reads the build that the integration
 * project's set-up made (tests/setup/global-setup.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ASSETS = path.resolve(__dirname, "../../build/client/assets");

type RemixManifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
};

function remixManifest(): RemixManifest {
  const file = fs.readdirSync(ASSETS).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (!file) throw new Error("no Remix manifest in build/client/assets");
  const text = fs.readFileSync(path.join(ASSETS, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as RemixManifest;
}

/** The files a page with these routes loads first: the entry and each route with its imports. */
function firstLoad(manifest: RemixManifest, routeIds: string[]): string[] {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routeIds) {
    const route = manifest.routes[id];
    expect(route, `route ${id} in the manifest`).toBeDefined();
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  return [...files];
}

/** zod's core names its classes by these strings; no other chunk holds them. */
const holdsZod = (file: string) =>
  fs.readFileSync(path.join(ASSETS, path.basename(file)), "utf8").includes('"$ZodType"');

describe("the first load", () => {
  const manifest = remixManifest();

  it("finds zod's chunk in the build (the forms use it)", () => {
    expect(fs.readdirSync(ASSETS).filter((f) => f.endsWith(".js") && holdsZod(f))).not.toEqual([]);
  });

  it("of /sites holds no zod: the top bar and the project list make no schema", () => {
    const files = firstLoad(manifest, ["root", "routes/_app", "routes/_app.sites._index"]);
    expect(files.filter(holdsZod)).toEqual([]);
  });

  it("of a project's dashboard holds no zod: its forms bring it as parts (lazyPart)", () => {
    const files = firstLoad(manifest, [
      "root",
      "routes/_app",
      "routes/_app._project",
      "routes/_app._project.sites.$studioId",
    ]);
    expect(files.filter(holdsZod)).toEqual([]);
  });
});
