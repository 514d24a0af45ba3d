// A Vite plugin that records what each browser chunk holds: every module's rendered size and its
// size gzip-compressed on its own (a module compresses a little better inside its chunk, so these
// add up to somewhat more than the chunk). vite.config.ts adds it when BUNDLE_STATS=1; it writes
// build/bundle-stats.json, which `npm run bench:bundle` reads.
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** @param {string} root @param {string} id */
function moduleName(root, id) {
  const clean = id.replace(/^\0/, "").replace(/\?.*$/, "");
  const nm = clean.lastIndexOf("/node_modules/");
  if (nm >= 0) return clean.slice(nm + "/node_modules/".length);
  return path.relative(root, clean) || clean;
}

/** @param {string} out where to write the JSON, relative to the project root */
export function bundleStats(out = "build/bundle-stats.json") {
  let root = process.cwd();
  let ssr = false;
  return /** @type {import("vite").Plugin} */ ({
    name: "bundle-stats",
    apply: "build",
    configResolved(config) {
      root = config.root;
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      /**
       * @type {Record<string, {
       *   facade: string | null,
       *   imports: string[],
       *   modules: { name: string, bytes: number, gzip: number }[],
       * }>}
       */
      const chunks = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        const modules = Object.entries(chunk.modules)
          .map(([id, m]) => ({
            name: moduleName(root, id),
            bytes: m.renderedLength,
            gzip: m.code ? gzipSync(m.code).length : 0,
          }))
          .sort((a, b) => b.gzip - a.gzip);
        chunks[`/assets/${path.basename(chunk.fileName)}`] = {
          facade: chunk.facadeModuleId ? moduleName(root, chunk.facadeModuleId) : null,
          imports: chunk.imports.map((file) => `/assets/${path.basename(file)}`),
          modules,
        };
      }
      const file = path.resolve(root, out);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ chunks }, null, 1));
    },
  });
}
