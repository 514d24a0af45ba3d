// The first-load JavaScript of a page in `npm run bench` (./index.mjs): the built modules the
// served page has its browser fetch, gzip-compressed as they travel (bundle.mjs names the same
// files from the build's manifest, without a server, and the modules inside them).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { BASE } from "./options.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * First-load JavaScript of a page, gzip-compressed: the modules its inline script fetches once
 * the page has painted (the list it preloads, decision 036), or the preload links and scripts of
 * HTML rendered without that script.
 * @param {string} pathname
 * @param {string} cookie
 */
export async function firstLoadJs(pathname, cookie) {
  const html = await (await fetch(`${BASE}${pathname}`, { headers: { cookie } })).text();
  const listed = html.match(/var links = (\[[^\]]*\])/);
  const files = new Set(
    listed
      ? /** @type {string[]} */ (JSON.parse(listed[1]))
      : [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
  );
  let bytes = 0;
  for (const file of files) {
    bytes += gzipSync(fs.readFileSync(path.join(root, "build/client", file))).length;
  }
  return { files: files.size, kb: Math.round(bytes / 1024) };
}
