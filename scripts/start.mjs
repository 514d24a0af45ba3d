// `npm start`: builds when the build is missing or older than the sources, then serves
// (scripts/serve.mjs: one process per core on PostgreSQL, WEB_CONCURRENCY; one on PGlite).
import { serve } from "./serve.mjs";

await serve({ dev: process.argv.includes("--dev") });
