/**
 * A small Remix build over the app's real entry module (its handleError, its document), for tests
 * that mount the real HTTP pieces (server/middleware.mjs, server/route-errors.mjs) around a few
 * routes of their own, and the listening address of such an app.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/express";
import type { Express } from "express";
import { inRequestScope } from "~/utils/request-memo.server";
import { instrumentBuild } from "../../server/route-errors.mjs";
import * as entry from "~/entry.server";
import remixConfig from "../../remix.config.js";

/** A page route's module: a component that renders nothing, and `loader`. */
export const pageModule = (loader: (args: { request: Request }) => unknown) => ({
  default: () => null,
  loader,
});

/** A page route under the root whose loader throws (an unexpected error of ours). */
export const failingRoute = {
  id: "routes/boom",
  parentId: "root",
  path: "boom",
  module: pageModule(() => {
    throw new Error("the page's loader failed");
  }),
};

/** The build of `routes` (their ids, parents, paths and modules). */
export function fakeBuild(routes: Record<string, unknown>): ServerBuild {
  return {
    mode: "production",
    entry: { module: entry },
    routes,
    assets: {
      entry: { module: "/entry.js", imports: [] },
      routes: {},
      url: "/manifest.js",
      version: "1",
    },
    future: remixConfig.future,
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    basename: "/",
    isSpaMode: false,
  } as unknown as ServerBuild;
}

/** `app` listening on a free port of 127.0.0.1: its server and base URL. */
export async function listen(app: Express): Promise<{ server: Server; base: string }> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Mounts `build` on `app` as server/index.mjs mounts the real one: its routes instrumented
 * (route-errors.mjs), each request in its own scope, with the request id and log record in the
 * load context.
 */
export function mountRemix(app: Express, build: ServerBuild) {
  const remix = createRequestHandler({
    build: instrumentBuild(build),
    mode: "production",
    getLoadContext: (_req, res) => ({
      requestId: res.locals.requestId,
      requestRecord: res.locals.requestRecord,
    }),
  });
  app.all("*", (req, res, next) =>
    inRequestScope(req.method, () => remix(req, res, next), res.locals.requestRecord),
  );
}
