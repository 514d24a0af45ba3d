/**
 * Operators' logs: every request is one JSON line when its response is done (method, path,
 * route, status, duration, request id, user), written by server/middleware.mjs's requestLog,
 * and never carries a cookie, a password or a token. First on a small app mounted as
 * server/index.mjs mounts the real pieces, then on a real server process (scripts/start.mjs),
 * whose stdout is read as it is, at the default level and at LOG_LEVEL=warn.
 */
import fs from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { captureLogs, logger } from "~/utils/logger.server";
import { loggablePathname } from "~/utils/request-id.server";
import { getOptionalUser } from "~/web/session.server";
import { requestId, requestLog } from "../../server/middleware.mjs";
import { createUser, sessionCookie } from "../helpers";
import { failingRoute, fakeBuild, listen, mountRemix, pageModule } from "./fake-build";
import { startServer, stopServer, type Server as Process } from "./lifecycle-support";

const TOKEN = "query-token-0123456789abcdefghijklmnop";
const PATH_TOKEN = "path-token-0123456789abcdefghijklmnop";

/** A build of a root route that reads the signed-in user, a failing page and a token link. */
function build(): ServerBuild {
  return fakeBuild({
    root: {
      id: "root",
      path: "",
      module: pageModule(async ({ request }) => ({
        user: (await getOptionalUser(request))?.id,
      })),
    },
    "routes/boom": failingRoute,
    "routes/auth.verify.$token": {
      id: "routes/auth.verify.$token",
      parentId: "root",
      path: "auth/verify/:token",
      module: pageModule(() => ({ ok: true })),
    },
  });
}

describe("the request log line", () => {
  let server: Server;
  let base = "";
  let logs: ReturnType<typeof captureLogs>;

  beforeAll(async () => {
    // As server/index.mjs mounts them.
    const app = express();
    app.use(requestId());
    app.use(requestLog(logger, loggablePathname));
    mountRemix(app, build());
    ({ server, base } = await listen(app));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(() => logs?.restore());

  /** The lines of the request with this id, once its request line is there. */
  async function linesOf(id: string) {
    await expect
      .poll(() => logs.records.filter((r) => r.requestId === id && r.msg === "request").length)
      .toBe(1);
    return logs.records.filter((r) => r.requestId === id);
  }

  it("is one JSON line per request: its id, method, path, route, status, duration and user", async () => {
    const user = await createUser({ password: "Log-line password 42!" });
    const cookie = await sessionCookie(user.id);
    logs = captureLogs("info");
    const res = await fetch(`${base}/.data?token=${TOKEN}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const id = res.headers.get("X-Request-Id")!;
    const lines = await linesOf(id);
    expect(lines).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "request",
        requestId: id,
        method: "GET",
        path: "/.data",
        route: "root",
        status: 200,
        userId: user.id,
        ms: expect.any(Number),
      }),
    ]);
    expect(lines[0].ms).toBeGreaterThanOrEqual(0);
    // No cookie, token or password, whole or in part.
    const text = JSON.stringify(logs.records);
    const cookieValue = cookie.slice(cookie.indexOf("=") + 1).split(";")[0];
    for (const secret of [cookieValue, TOKEN, user.password, "token="]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/cookie|authorization/i);
  });

  it("leaves a token in the path out and says which route answered", async () => {
    logs = captureLogs("info");
    const res = await fetch(`${base}/auth/verify/${PATH_TOKEN}.data`);
    const id = res.headers.get("X-Request-Id")!;
    const [line] = await linesOf(id);
    expect(line).toMatchObject({
      path: "/auth/verify/:redacted",
      route: "routes/auth.verify.$token",
    });
    expect(JSON.stringify(logs.records)).not.toContain(PATH_TOKEN);
  });

  it("has an unexpected error's line carry the request id, beside its request line", async () => {
    logs = captureLogs("info");
    const res = await fetch(`${base}/boom.data?token=${TOKEN}`);
    const id = res.headers.get("X-Request-Id")!;
    expect(res.status).toBe(500);
    const lines = await linesOf(id);
    expect(lines).toEqual([
      expect.objectContaining({
        level: "error",
        msg: "unexpected error",
        requestId: id,
        path: "/boom",
        err: expect.objectContaining({ message: "the page's loader failed" }),
      }),
      expect.objectContaining({ msg: "request", requestId: id, route: "routes/boom" }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it("is left out below info", async () => {
    logs = captureLogs("warn");
    const res = await fetch(`${base}/.data`);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.records).toEqual([]);
  });
});

describe("a server process's log", () => {
  let running: Process | undefined;
  afterEach(async () => {
    if (running) await stopServer(running);
    running = undefined;
  });

  const start = (env: Record<string, string> = {}) =>
    startServer({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-logs-")),
      DATABASE_URL: "",
      ...env,
    });

  /** Every JSON line of the output (the local outbox's `[mail]` lines are plain text). */
  const jsonLines = (output: string[]) =>
    output
      .join("")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("is JSON lines on stdout: the boot line, then one line per request, without secrets", async () => {
    running = await start();
    const { base, output } = running;
    const password = "Server log password 42!";
    const login = await fetch(`${base}/auth/login?redirectTo=%2F${TOKEN}`, {
      method: "POST",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "nobody@example.com", password }).toString(),
      redirect: "manual",
    });
    const id = login.headers.get("X-Request-Id")!;
    await expect
      .poll(() => jsonLines(output).filter((l) => l.msg === "request" && l.requestId === id))
      .toEqual([
        expect.objectContaining({
          level: "info",
          method: "POST",
          path: "/auth/login",
          route: "routes/auth.login",
          status: login.status,
          ms: expect.any(Number),
        }),
      ]);
    const boot = jsonLines(output).find((l) => String(l.msg).startsWith("StackShift dashboard on"));
    expect(boot).toMatchObject({ level: "info", database: "pglite", url: base });
    const text = output.join("");
    expect(text).not.toContain(password);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toMatch(/set-cookie|"cookie"|authorization/i);
  }, 240_000);

  it("has no request lines at LOG_LEVEL=warn", async () => {
    running = await start({ LOG_LEVEL: "warn" });
    const res = await fetch(`${running.base}/auth/login`);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(running.output.join("")).not.toContain('"msg":"request"');
    expect(jsonLines(running.output).filter((l) => l.level === "info")).toEqual([]);
  }, 240_000);
});
