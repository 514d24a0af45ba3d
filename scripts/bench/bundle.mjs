// `npm run bench:bundle [-- --no-build] [-- --top 8]`: what the first load of the project list
// (/sites) and the project dashboard (/sites/{id}) holds. Builds with BUNDLE_STATS=1 (the
// bundle-stats plugin records each chunk's modules), then reads the Remix route manifest in
// build/client: a page's HTML references the client entry and, for each route it matches, the
// route module and its imports (with lazy route discovery on, the route manifest is inlined in the
// page, not a file). Prints per page the files and their gzip sizes (as
// firstLoadJs() in first-load.mjs counts them, without a server) and the largest modules among them.
// Not part of `npm test`; it runs no server.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const client = path.join(root, "build/client");
const statsFile = path.join(root, "build/bundle-stats.json");
const args = process.argv.slice(2);
const topIndex = args.indexOf("--top");
const TOP = topIndex >= 0 ? Number(args[topIndex + 1]) : 12;

/** The routes each page matches, outermost first. */
const PAGES = {
  "/sites": ["root", "routes/_app", "routes/_app.sites._index"],
  "/sites/{id}": [
    "root",
    "routes/_app",
    "routes/_app._project",
    "routes/_app._project.sites.$studioId",
  ],
};
/**
 * Parts loaded on their own (app/utils/page-load: lazyPart, usePopups): what each adds to a page when it
 * shows. A part the server renders (the invite and role forms for people who manage members, a
 * dialog the URL opens) is loaded before hydration, though the HTML does not reference it.
 */
const PARTS = {
  "invite and role forms (managers, at first)": [
    "app/components/members/invite-member-form.tsx",
    "app/components/members/role-form.tsx",
  ],
  "Radix popups (after hydration)": ["app/utils/page-load/popups-chunk.ts"],
  "dialog frame (when one opens)": ["app/components/ui/dialog-frame.tsx"],
  "drawer (when it opens)": ["app/components/shell/sheet-frame.tsx"],
  "Create New dialog": ["app/components/projects/create-project-dialog.tsx"],
  "domain dialog": ["app/components/domains/domain-dialog.tsx"],
  "add-on dialog": ["app/components/addons/addon-dialog.tsx"],
  "Link account dialog": ["app/components/social/link-account-dialog.tsx"],
};
/** Packages by kind, for the summary. @type {[string, RegExp][]} */
const FAMILIES = [
  [
    "React and Remix",
    /^(react|react-dom|scheduler|@remix-run\/.*|react-router|react-router-dom|turbo-stream)$/,
  ],
  [
    "Radix and its helpers",
    /^(@radix-ui\/.*|@floating-ui\/.*|react-remove-scroll.*|aria-hidden|use-callback-ref|use-sidecar|react-style-singleton|get-nonce|tslib)$/,
  ],
  ["zod and conform", /^(zod|@conform-to\/.*)$/],
  ["date-fns", /^date-fns$/],
  ["our code (app/)", /^app$/],
];
/** Budgets in KB gzip (docs/performance.md). */
/** @type {Record<string, number>} */
const BUDGETS = { "/sites": 130, "/sites/{id}": 150 };

if (!args.includes("--no-build")) {
  execFileSync("npx", ["remix", "vite:build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, BUNDLE_STATS: "1" },
  });
}

function remixManifest() {
  const dir = path.join(client, "assets");
  const file = fs.readdirSync(dir).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (!file) throw new Error("no Remix manifest in build/client/assets: build first");
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const json = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  return { url: `/assets/${file}`, ...JSON.parse(json) };
}

/**
 * A chunk's modules with their share of the chunk's gzip size: each module's own gzip size, scaled
 * so that they add up to the chunk's (small modules compress worse alone).
 * @param {string} file @param {number} chunkKb
 */
function modulesOf(file, chunkKb) {
  const modules = stats?.chunks[file]?.modules ?? [];
  const sum = modules.reduce((total, m) => total + m.gzip, 0);
  return modules.map((m) => ({ name: m.name, kb: sum ? (chunkKb * m.gzip) / sum : 0 }));
}

/** @param {string} file */
const gzipKb = (file) => gzipSync(fs.readFileSync(path.join(client, file))).length / 1024;
const kb = (/** @type {number} */ n) => Math.round(n * 10) / 10;

const manifest = remixManifest();
/**
 * build/bundle-stats.json, as ./bundle-stats-plugin.mjs writes it.
 * @type {{ chunks: Record<string, { imports: string[]; modules: { name: string; bytes: number; gzip: number }[] }> } | null}
 */
const stats = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, "utf8")) : null;
if (!stats) console.log("(no build/bundle-stats.json: build with BUNDLE_STATS=1 for modules)");
else if (!stats.chunks[manifest.entry.module])
  console.log("(build/bundle-stats.json is from another build: its modules are left out)");

for (const [page, routeIds] of Object.entries(PAGES)) {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`route ${id} is not in the manifest`);
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  const sizes = [...files].map((file) => ({ file, kb: gzipKb(file) }));
  sizes.sort((a, b) => b.kb - a.kb);
  const total = sizes.reduce((sum, s) => sum + s.kb, 0);
  console.log(
    `\n${page}: ${Math.round(total)} KB gzip in ${files.size} files (budget ${BUDGETS[page]} KB)`,
  );
  console.table(
    sizes.map((s) => ({
      chunk: s.file.replace("/assets/", ""),
      "KB gzip": kb(s.kb),
      "largest modules (KB gzip, share)": modulesOf(s.file, s.kb)
        .slice(0, 2)
        .map((m) => `${m.name} ${kb(m.kb)}`)
        .join(", "),
    })),
  );
  if (!stats) continue;
  const later = [];
  for (const [part, modulesOfPart] of Object.entries(PARTS)) {
    /** @type {Set<string>} */
    const extra = new Set();
    const visit = (/** @type {string} */ file) => {
      if (files.has(file) || extra.has(file)) return;
      extra.add(file);
      for (const next of stats.chunks[file]?.imports ?? []) visit(next);
    };
    for (const facade of modulesOfPart) {
      const found = Object.entries(stats.chunks).find(([, c]) =>
        c.modules.some((m) => m.name === facade),
      );
      if (found) visit(found[0]);
    }
    if (extra.size === 0) continue;
    const size = [...extra].reduce((sum, file) => sum + gzipKb(file), 0);
    later.push({ part, "KB gzip": kb(size), files: extra.size });
  }
  console.log(`${page}: parts loaded on their own, beyond the first load`);
  console.table(later);
  const modules = sizes.flatMap((s) =>
    modulesOf(s.file, s.kb).map((m) => ({ ...m, chunk: s.file })),
  );
  modules.sort((a, b) => b.kb - a.kb);
  /** A module's package (`@radix-ui/react-menu`, `zod`), or `app` for our own code. */
  const packageOf = (/** @type {string} */ name) =>
    name.startsWith("app/")
      ? "app"
      : name
          .split("/")
          .slice(0, name.startsWith("@") ? 2 : 1)
          .join("/");
  const byPackage = new Map();
  for (const m of modules)
    byPackage.set(packageOf(m.name), (byPackage.get(packageOf(m.name)) ?? 0) + m.kb);
  const byFamily = new Map();
  for (const [name, size] of byPackage) {
    const family = FAMILIES.find(([, test]) => test.test(name))?.[0] ?? "other packages";
    byFamily.set(family, (byFamily.get(family) ?? 0) + size);
  }
  console.log(`${page}: by kind (KB gzip, share)`);
  console.table(
    [...byFamily]
      .sort((a, b) => b[1] - a[1])
      .map(([name, size]) => ({ kind: name, "KB gzip (share)": kb(size) })),
  );
  console.log(`${page}: by package (KB gzip, share)`);
  console.table(
    [...byPackage]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, size]) => ({ package: name, "KB gzip (share)": kb(size) })),
  );
  console.log(`${page}: top ${TOP} modules of its first load`);
  console.table(
    modules.slice(0, TOP).map((m) => ({
      module: m.name,
      "KB gzip (share)": kb(m.kb),
      chunk: m.chunk.replace("/assets/", ""),
    })),
  );
}
