// `npm run api:client`: regenerates client/schema.d.ts, the typed client's types, from the OpenAPI
// document exactly as GET /api/openapi.json serves it: the route's own loader, loaded from the
// app's sources through Vite (as the tests load it), so no build and no database are needed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { DOCUMENT_APP_URL, SCHEMA_FILE, clientSchemaSource } from "./api-client-lib.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The document reads the environment (its servers); a scratch DATA_DIR keeps the secrets a local
// configuration would generate out of ./data.
process.env.APP_URL = DOCUMENT_APP_URL;
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-api-client-"));

const vite = await createServer({
  root,
  configFile: false,
  logLevel: "error",
  appType: "custom",
  server: { middlewareMode: true, hmr: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
  plugins: [tsconfigPaths()],
});
let code = 0;
try {
  const route = await vite.ssrLoadModule("/app/routes/api.openapi[.]json.ts");
  const response = await route.loader();
  if (!response.ok) throw new Error(`GET /api/openapi.json answered ${response.status}`);
  const source = await clientSchemaSource(await response.json());
  const file = path.join(root, SCHEMA_FILE);
  const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
  fs.writeFileSync(file, source);
  console.log(`${SCHEMA_FILE}: ${before === source ? "unchanged" : "written"}`);
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  code = 1;
} finally {
  await vite.close();
  fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
}
process.exit(code);
