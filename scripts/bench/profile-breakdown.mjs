// Where a page's server time goes, from the CPU profile of `npm run bench -- --profile DIR`:
// for each measured row (its time span, windows.json), the share of the server's sampled CPU
// time in route matching, the database client, our own code (loaders, session, services),
// React's render, serialisation, HTTP (Express, middleware, Node's http), garbage collection
// and the rest. Each sample goes to the first category found from its leaf frame up.
//
//   node scripts/bench/profile-breakdown.mjs DIR
import fs from "node:fs";
import path from "node:path";

/**
 * Categories by frame, in the order they are tried for each frame of a stack (leaf first).
 * @type {[string, (frame: { functionName: string; url: string }) => boolean][]}
 */
const RULES = [
  ["GC", (f) => f.functionName === "(garbage collector)"],
  [
    "route matching",
    (f) =>
      f.url.includes("@remix-run/router") &&
      /^(matchRoutes|matchRoutesImpl|flattenRoutes|rankRouteBranches|computeScore|matchRouteBranch|matchPath|compilePath|explodeOptionalSegments|flattenRoute)$/.test(
        f.functionName,
      ),
  ],
  ["serialisation", (f) => f.url.includes("turbo-stream")],
  ["React render", (f) => f.url.includes("react-dom")],
  ["database client", (f) => /node_modules\/(pg|pg-protocol|pg-pool|drizzle-orm)\//.test(f.url)],
  ["our code", (f) => f.url.includes("/build/server/")],
  [
    "Remix",
    (f) => /node_modules\/@remix-run\/(server-runtime|node|express|react|router)\//.test(f.url),
  ],
  [
    "HTTP",
    (f) =>
      /node_modules\/(express|compression|router|body-parser|send|serve-static|on-finished|finalhandler)\//.test(
        f.url,
      ) ||
      f.url.startsWith("node:_http") ||
      f.url.startsWith("node:net") ||
      f.url.includes("/server/middleware.mjs"),
  ],
];
const OTHER = "other";
const IDLE = new Set(["(idle)", "(program)"]);

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node scripts/bench/profile-breakdown.mjs DIR");
  process.exit(2);
}
const profileFile = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .map((f) => path.join(dir, f))
  .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
if (!profileFile) throw new Error(`no .cpuprofile in ${dir}`);
/** @type {{ nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[]; samples: number[]; timeDeltas: number[]; startTime: number }} */
const profile = JSON.parse(fs.readFileSync(profileFile, "utf8"));
/** @type {{ label: string; from: number; to: number }[]} */
const windows = JSON.parse(fs.readFileSync(path.join(dir, "windows.json"), "utf8"));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
/** @type {Map<number, number>} */
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);

/** @type {Map<number, string>} */
const categoryOf = new Map();
/** @param {number} id */
function categorise(id) {
  const known = categoryOf.get(id);
  if (known) return known;
  let category = OTHER;
  const leaf = byId.get(id);
  if (leaf && IDLE.has(leaf.callFrame.functionName)) category = "idle";
  else {
    /** @type {number | undefined} */
    let at = id;
    search: for (; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      for (const [name, test] of RULES) {
        if (test(frame)) {
          category = name;
          break search;
        }
      }
    }
  }
  categoryOf.set(id, category);
  return category;
}

const names = [...RULES.map(([name]) => name), OTHER];
const rows = [];
for (const w of windows) {
  /** @type {Record<string, number>} */
  const time = {};
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i];
    if (t < w.from || t > w.to) continue;
    const category = categorise(profile.samples[i]);
    time[category] = (time[category] ?? 0) + profile.timeDeltas[i];
  }
  const busy = names.reduce((sum, name) => sum + (time[name] ?? 0), 0);
  rows.push({
    route: w.label,
    "busy ms": Math.round(busy / 1000),
    ...Object.fromEntries(
      names.map((name) => [name, `${(((time[name] ?? 0) / Math.max(1, busy)) * 100).toFixed(0)}%`]),
    ),
  });
}
console.log(`${path.basename(profileFile)}: share of each row's busy server time`);
console.table(rows);
