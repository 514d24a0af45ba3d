// The HTTP server: Express in front of the Remix request handler. It boots the app (migrations,
// job queue) through the server build's entry module, so the build owns the one database handle.
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import {
  noNulInUrl,
  requestId,
  requestLog,
  sameOrigin,
  securityHeaders,
  shortProxyChainWarning,
  throttleAddress,
  untrustedProxyWarning,
} from "./middleware.mjs";
import { mountMetrics } from "./metrics.mjs";
import { instrumentBuild } from "./route-errors.mjs";
import { lifecycle } from "./lifecycle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * @typedef {import("@remix-run/server-runtime").ServerBuild} ServerBuild
 * @typedef {import("../app/runtime-contract").Runtime} Runtime
 * The build's entry module: Remix's type knows nothing of boot(), app/entry.server.tsx declares
 * it to return the Runtime that this file reads (app/runtime-contract.ts).
 * @typedef {ServerBuild["entry"]["module"] & { boot: () => Promise<Runtime> }} AppEntryModule
 */

/**
 * @param {{ dev?: boolean, transformBuild?: (build: ServerBuild) => ServerBuild }} [options]
 *   `transformBuild`: a change to the production build before it serves, the benchmark's floor
 *   page only (scripts/bench/serve.mjs).
 */
export async function startServer({ dev = false, transformBuild } = {}) {
  /** @type {import("vite").ViteDevServer | undefined} */
  let vite;
  /** @type {() => Promise<ServerBuild>} */
  let getBuild;
  if (dev) {
    const { createServer } = await import("vite");
    const devServer = await createServer({ root, server: { middlewareMode: true } });
    vite = devServer;
    getBuild = async () =>
      instrumentBuild(
        /** @type {ServerBuild} */ (await devServer.ssrLoadModule("virtual:remix/server-build")),
      );
  } else {
    const built = instrumentBuild(await import(path.join(root, "build/server/index.js")));
    const build = transformBuild ? transformBuild(built) : built;
    getBuild = async () => build;
  }

  const build = await getBuild();
  // Requests reach the app only once it has booted; meanwhile, and while shutting down, the
  // lifecycle answers /readyz with 503 (lifecycle.mjs).
  const life = lifecycle();
  const server = http.createServer(life.handle);
  // A process on its own listens while it boots, so a balancer's /readyz sees 503 rather than a
  // refused connection. A cluster worker listens only once booted: the primary hands every
  // listening worker its share of connections, and a booting one would answer them 503 while
  // the others could serve them.
  const early = cluster.isWorker ? null : portFromEnvironment();
  if (early) await listen(server, early);
  life.onSignals();
  const runtime = await /** @type {AppEntryModule} */ (build.entry.module).boot();

  const app = express();
  app.disable("x-powered-by");
  // Which X-Forwarded-For hops to believe for req.ip (rate limits): TRUST_PROXY.
  app.set("trust proxy", runtime.trustProxy);
  app.use(requestId());
  app.use(requestLog(runtime.logger, runtime.loggablePathname, runtime.metrics.observeRequest));
  app.use(
    untrustedProxyWarning(app.get("trust proxy fn"), {
      warn: (message, fields) => runtime.logger.warn({ area: "proxy", ...fields }, message),
    }),
  );
  // A hop count longer than the real proxy chain lets clients pick their address: said in the log.
  if (typeof runtime.trustProxy === "number") {
    app.use(
      shortProxyChainWarning(runtime.trustProxy, {
        warn: (message, fields) => runtime.logger.warn({ area: "proxy", ...fields }, message),
      }),
    );
  }
  app.use(compression());
  app.use(
    securityHeaders({
      dev,
      secure: runtime.appUrl.startsWith("https:"),
      oidcIssuer: runtime.oidcIssuer,
      formTargets: runtime.formTargets,
    }),
  );
  app.use(noNulInUrl());
  app.use(sameOrigin(runtime.appUrl));
  // GET /metrics for Prometheus when METRICS_TOKEN is set (server/metrics.mjs).
  mountMetrics(app, runtime);
  if (vite) {
    app.use(vite.middlewares);
  } else {
    app.use(
      "/assets",
      express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }),
    );
    // The build's other public files (favicon.svg), looked up only for their own names: asking
    // the file system on every page request cost 6 % of a /healthz answer (measured).
    const clientDir = path.join(root, "build/client");
    const publicNames = new Set(fs.readdirSync(clientDir).filter((name) => name !== "assets"));
    const servePublic = express.static(clientDir, { maxAge: "1h" });
    app.use((req, res, next) =>
      publicNames.has(req.path.split("/")[1] ?? "") ? servePublic(req, res, next) : next(),
    );
  }
  // Browsers ask for /favicon.ico on pages without a <link rel="icon"> (the local public sites).
  app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));
  const remix = createRequestHandler({
    // The build object itself in production: given a function, Remix derives the route tree
    // and its static handler again on every request (measured: a fifth of the shell's time).
    build: vite ? getBuild : build,
    mode: dev ? "development" : "production",
    getLoadContext: (req, res) => ({
      cspNonce: res.locals.cspNonce,
      // What the throttles count: IPv6 by its /64 (throttleAddress).
      clientIp: throttleAddress(req.ip),
      requestId: res.locals.requestId,
      // The request log line's record: route-errors.mjs notes the matched route on it.
      requestRecord: res.locals.requestRecord,
    }),
  });
  // One scope per request: the loaders of a page view share their reads, and log lines carry the
  // request's id and user (request-memo.server.ts, logger.server.ts).
  app.all("*", (req, res, next) =>
    runtime.inRequestScope(req.method, () => remix(req, res, next), res.locals.requestRecord),
  );

  if (!early) await listen(server, runtime.port);
  life.ready(app, runtime, { server, vite });
  // The same words as ever, which people and scripts look for, with the same facts as fields.
  runtime.logger.info(
    { url: runtime.appUrl, database: runtime.databaseKind },
    `StackShift dashboard on ${runtime.appUrl} (database: ${runtime.databaseKind})`,
  );
  return server;
}

/** PORT as boot will read it (3000 by default); null when invalid, which boot then explains. */
function portFromEnvironment() {
  const port = Number(process.env.PORT || 3000);
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? port : null;
}

/**
 * @param {http.Server} server
 * @param {number} port
 */
function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      resolve(undefined);
    });
  });
}
