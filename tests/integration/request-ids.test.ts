/**
 * Errors people can report: every request gets an id (X-Request-Id), an unexpected error of a
 * page's loader or action is logged once with it and answered as a 500 that carries it (the
 * error boundary shows it), while redirects, 404s and resource routes keep their answers. The
 * HTTP part runs the server's own pieces (server/middleware.mjs, server/route-errors.mjs, the
 * Remix Express handler and app/entry.server.tsx's handleError) on a small app and build.
 */
import type { Server } from "node:http";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as entry from "~/entry.server";
import { captureLogs as captureLogLines } from "~/utils/logger.server";
import { loader as rootLoader } from "~/root";
import { notFound } from "~/utils/responses.server";
import { requestId } from "../../server/middleware.mjs";
import { instrumentBuild, withRequestId } from "../../server/route-errors.mjs";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { failingRoute, fakeBuild, listen, pageModule } from "./fake-build";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let capture: ReturnType<typeof captureLogLines> | undefined;
let logged: Record<string, unknown>[] = [];
afterEach(() => {
  capture?.restore();
  capture = undefined;
  logged = [];
});
/** The error lines logged from now on (the request lines of the HTTP tests are left out). */
function captureLogs() {
  capture = captureLogLines("error");
  logged = capture.records;
}
/** An unexpected error's line: its request id, method, path and the error. */
const errorLine = (requestId: string, method: string, path: string, message: string) =>
  expect.objectContaining({
    level: "error",
    msg: "unexpected error",
    requestId,
    method,
    path,
    err: expect.objectContaining({ message }),
  });

const args = (path: string, context: Record<string, unknown> = {}, init?: RequestInit) => ({
  request: new Request(`http://localhost:3000${path}`, init),
  params: {},
  context,
});

describe("handleError (app/entry.server.tsx)", () => {
  it("logs the error under its request id, method and path", () => {
    captureLogs();
    const error = new Error("database on fire");
    entry.handleError(error, {
      request: new Request("http://localhost:3000/sites/abc?page=2"),
      context: { requestId: "req-123" },
    });
    expect(logged).toEqual([errorLine("req-123", "GET", "/sites/abc", "database on fire")]);
  });

  it("stays quiet for a request the browser gave up on", () => {
    captureLogs();
    const controller = new AbortController();
    controller.abort();
    entry.handleError(new Error("aborted"), {
      request: new Request("http://localhost:3000/", { signal: controller.signal }),
    });
    expect(logged).toEqual([]);
  });
});

describe("withRequestId (server/route-errors.mjs)", () => {
  it("answers an unexpected error with a 500 carrying the id it was logged with", async () => {
    captureLogs();
    const error = new Error("boom");
    const wrapped = withRequestId(async () => {
      throw error;
    }, entry.handleError);
    const thrown = (await wrapped(args("/sites/x", { requestId: "req-9" })).catch(
      (e: unknown) => e,
    )) as Response;
    expect(thrown).toBeInstanceOf(Response);
    expect(thrown.status).toBe(500);
    expect(await thrown.json()).toEqual({ requestId: "req-9" });
    expect(logged).toEqual([errorLine("req-9", "GET", "/sites/x", "boom")]);
  });

  it("lets redirects, 404s, data() answers and results through, unlogged", async () => {
    captureLogs();
    const { data, redirect } = await import("@remix-run/node");
    const answers: unknown[] = [
      redirect("/auth/login"),
      (() => {
        try {
          notFound();
        } catch (response) {
          return response;
        }
      })(),
      data({ error: "Bad" }, { status: 400 }),
    ];
    for (const answer of answers) {
      const wrapped = withRequestId(async () => {
        throw answer;
      }, entry.handleError);
      await expect(wrapped(args("/x", { requestId: "r" }))).rejects.toBe(answer);
    }
    const ok = withRequestId(async () => ({ fine: true }), entry.handleError);
    expect(await ok(args("/x"))).toEqual({ fine: true });
    expect(logged).toEqual([]);
  });

  it("rethrows as it is when the request was aborted", async () => {
    captureLogs();
    const controller = new AbortController();
    controller.abort();
    const error = new Error("aborted");
    const wrapped = withRequestId(async () => {
      throw error;
    }, entry.handleError);
    await expect(wrapped(args("/x", {}, { signal: controller.signal }))).rejects.toBe(error);
    expect(logged).toEqual([]);
  });
});

describe("the HTTP server's request ids", () => {
  let server: Server;
  let base = "";

  /** A build of two page routes and one resource route, over the app's real entry module. */
  function build(): ServerBuild {
    return fakeBuild({
      root: { id: "root", path: "", module: pageModule(() => ({ ok: true })) },
      "routes/boom": failingRoute,
      "routes/gone": {
        id: "routes/gone",
        parentId: "root",
        path: "gone",
        module: pageModule(() => notFound()),
      },
      "routes/api": {
        id: "routes/api",
        parentId: "root",
        path: "api",
        module: {
          loader: () => {
            throw new Error("the API failed");
          },
        },
      },
    });
  }

  beforeAll(async () => {
    // As server/index.mjs mounts them: the id first, the instrumented build, the id in the context.
    const app = express();
    app.use(requestId());
    app.all(
      "*",
      createRequestHandler({
        build: instrumentBuild(build()),
        mode: "production",
        getLoadContext: (_req, res) => ({ requestId: res.locals.requestId }),
      }),
    );
    ({ server, base } = await listen(app));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends a new X-Request-Id with every response", async () => {
    const [a, b] = await Promise.all([fetch(`${base}/.data`), fetch(`${base}/.data`)]);
    expect(a.headers.get("X-Request-Id")).toMatch(UUID);
    expect(b.headers.get("X-Request-Id")).toMatch(UUID);
    expect(a.headers.get("X-Request-Id")).not.toBe(b.headers.get("X-Request-Id"));
  });

  it("never takes the id from the request", async () => {
    const res = await fetch(`${base}/.data`, { headers: { "X-Request-Id": "chosen-by-client" } });
    expect(res.headers.get("X-Request-Id")).toMatch(UUID);
  });

  it("logs a page's failure with the id it sends, and puts the id where the page reads it", async () => {
    captureLogs();
    const res = await fetch(`${base}/boom.data`);
    const id = res.headers.get("X-Request-Id")!;
    expect(res.status).toBe(500);
    // The single-fetch payload: the route's error is a 500 response whose data is the id.
    const body = await res.text();
    expect(body).toContain("requestId");
    expect(body).toContain(id);
    expect(body).not.toContain("the page's loader failed");
    expect(logged).toEqual([errorLine(id, "GET", "/boom", "the page's loader failed")]);
  });

  it("keeps a 404 a 404, unlogged", async () => {
    captureLogs();
    const res = await fetch(`${base}/gone.data`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("requestId");
    expect(logged).toEqual([]);
  });

  it("leaves resource routes Remix's answer, logged with the id", async () => {
    captureLogs();
    const res = await fetch(`${base}/api`);
    const id = res.headers.get("X-Request-Id")!;
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("Unexpected Server Error");
    expect(logged).toEqual([errorLine(id, "GET", "/api", "the API failed")]);
  });
});

describe("the root loader", () => {
  it("hands the page its request id and the time zone of the tz cookie", async () => {
    const user = await createUser();
    const cookie = `${await sessionCookie(user.id)}; tz=Europe%2FParis`;
    const res = await call(rootLoader, makeRequest("/", { cookie }), {}, { requestId: "req-7" });
    expect(await res.json()).toMatchObject({ requestId: "req-7", timeZone: "Europe/Paris" });
  });

  it("is UTC and without an id when neither is there", async () => {
    const res = await call(rootLoader, makeRequest("/"), {}, {});
    expect(await res.json()).toMatchObject({ requestId: null, timeZone: "UTC" });
  });
});
