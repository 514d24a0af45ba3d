/**
 * Shared by the lifecycle-* and deployments-* tests: real workers on the test database, waiting
 * for the jobs' outcome, and projects made through the real create path.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects } from "~/db/schema";
import { resetEnv } from "~/utils/env.server";
import { call, childEnv, makeRequest } from "../helpers";

/** Sets environment variables for this test file and re-reads the environment. */
export function configure(values: Record<string, string>) {
  Object.assign(process.env, values);
  resetEnv();
}

/** This process's workers for every job (provisioning, polling, the local provider's steps). */
export async function startWorkers() {
  const { startJobs } = await import("~/jobs/index.server");
  await startJobs();
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  { timeout = 30_000, every = 100, what = "condition" } = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, every));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

export async function projectRow(id: string) {
  const [row] = await db().select().from(projects).where(eq(projects.id, id));
  return row;
}

export function waitForStatus(id: string, statuses: string[], options: { timeout?: number } = {}) {
  return waitFor(
    async () => {
      const row = await projectRow(id);
      return row && statuses.includes(row.siteCreationStatus) ? row : null;
    },
    { timeout: options.timeout ?? 30_000, what: `project ${id} to be ${statuses.join("/")}` },
  );
}

let keys = 0;
/** POST /api/app/create, as a client does; returns the created project's JSON. */
export async function createThroughApi(
  cookie: string,
  body: { name: string; siteType?: "business" | "enterprise" },
) {
  const { action } = await import("~/routes/api.app.create");
  keys += 1;
  const res = await call(
    action,
    makeRequest("/api/app/create", {
      json: { ...body, idempotencyKey: `lifecycle-${keys}-${Date.now()}` },
      cookie,
    }),
  );
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as {
    _id: string;
    studioId: string;
    name: string;
    idempotencyKey: string;
  };
}

// ---------------------------------------------------------------------------------------------
// Real server processes (scripts/start.mjs, what `npm start` runs), as in server.test.ts.

export type Server = { base: string; proc: ChildProcess; output: string[] };

/** A port nothing listens on now (a random one could be another test's server). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `node scripts/start.mjs` on a free port (or `port`), not waited for. */
export async function launchServer(env: Record<string, string>, port?: number): Promise<Server> {
  const listen = port ?? (await freePort());
  const output: string[] = [];
  const proc = spawn(process.execPath, ["scripts/start.mjs"], {
    env: childEnv({ PORT: String(listen), APP_URL: "", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (d) => output.push(String(d)));
  proc.stderr!.on("data", (d) => output.push(String(d)));
  return { base: `http://localhost:${listen}`, output, proc };
}

/**
 * A whole server for a client that calls it from outside (the typed client, the command line):
 * one process on this worker's PostgreSQL database, a data directory of its own (`name`), the
 * local providers with deployments and domain checks stepping every second.
 */
export function startApiServer(name: string): Promise<Server> {
  return startServer({
    DATABASE_URL: process.env.DATABASE_URL!,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `stackshift-${name}-`)),
    PROVIDERS: "local",
    LOCAL_DEPLOY_FAILURE_RATE: "0",
    LOCAL_DEPLOY_STEP_SECONDS: "1",
    LOCAL_DOMAIN_VERIFY_SECONDS: "1",
    WEB_CONCURRENCY: "1",
  });
}

/** `node scripts/start.mjs`, once it answers /healthz. */
export async function startServer(env: Record<string, string>, port?: number): Promise<Server> {
  const server = await launchServer(env, port);
  const { base, output, proc } = server;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited early:\n${output.join("")}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return server;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  proc.kill("SIGKILL");
  throw new Error(`server did not start:\n${output.join("")}`);
}

/** Ends the process and waits for it; SIGKILL gives it no chance to clean up. */
/** `node scripts/start.mjs` run to its end (a start that is refused): exit code and its output. */
export async function startToExit(env: Record<string, string>) {
  const port = String(await freePort());
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const proc = spawn(process.execPath, ["scripts/start.mjs"], {
      env: childEnv({ PORT: port, ...env }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    proc.stdout?.on("data", (d) => (output += d));
    proc.stderr?.on("data", (d) => (output += d));
    const timer = setTimeout(() => proc.kill("SIGKILL"), 120_000);
    proc.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export async function stopServer(server: Server, signal: "SIGTERM" | "SIGKILL" = "SIGTERM") {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.proc.once("exit", () => resolve()));
  server.proc.kill(signal);
  await exited;
}

/** POST /api/app/create on a running server, signed in with `cookie`. */
export async function createOnServer(server: Server, cookie: string, name: string) {
  keys += 1;
  const res = await fetch(`${server.base}/api/app/create`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: server.base },
    body: JSON.stringify({ name, idempotencyKey: `server-${keys}-${Date.now()}` }),
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { _id: string; studioId: string };
}
