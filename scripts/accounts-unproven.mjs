// `npm run accounts:unproven [-- --json]`: lists the accounts whose address was never proved
// (confirmed by migration 0003; docs/configuration.md, "Accounts"). It runs the app's own code
// from the server build, as `npm start` does (building first when the build is stale), so the
// crypto, the schema and the database client are the app's.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildIfStale } from "./build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

if (!buildIfStale()) process.exit(1);
const build = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
let code;
try {
  code = await build.entry.module.unprovenAccountsCommand(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  code = 1;
}
// Nothing else to wait for (caches' timers, an idle pool): the list is printed.
process.exit(code);
