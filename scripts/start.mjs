// `npm start`: builds when the build is missing or older than the sources, then serves.
import { buildIfStale } from "./build.mjs";

const dev = process.argv.includes("--dev");

if (!dev && !buildIfStale()) process.exit(1);

// React needs NODE_ENV on the server. Defaulting it here must not make a local run "production" in
// the contract's sense (where secrets become mandatory), so remember that it was implied.
if (!process.env.NODE_ENV) {
  process.env.NODE_ENV = dev ? "development" : "production";
  process.env.STACKSHIFT_IMPLIED_NODE_ENV = "1";
}
const { startServer } = await import("../server/index.mjs");
await startServer({ dev });
