/**
 * Helpers for integration tests: real database rows and real sessions, requests run through the
 * route modules' own loaders and actions.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { hashPassword } from "~/services/accounts/passwords.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/db/client.server";
import { desc, eq } from "drizzle-orm";
import { localSites, outbox, projects, projectSites, users } from "~/db/schema";
import { inRequestScope } from "~/utils/request-memo.server";
import { sessionStorage } from "~/web/session.server";
import { loader as projectRouteLoader } from "~/routes/_app._project";
import { childEnv } from "../scripts/child-env.mjs";

export const BASE = "http://localhost:3000";
let counter = 0;

export async function createUser(
  overrides: Partial<{ name: string; email: string; password: string }> = {},
) {
  counter += 1;
  const email = (overrides.email ?? `user${counter}-${Date.now()}@example.com`).toLowerCase();
  const password = overrides.password ?? "correct horse battery";
  const [row] = await db()
    .insert(users)
    .values({
      name: overrides.name ?? `User ${counter}`,
      email,
      passwordHash: await hashPassword(password),
      emailVerifiedAt: new Date(),
    })
    .returning();
  return { ...row, password };
}

/**
 * A cookie header carrying a real database session for the user. Like a real sign-in it holds a
 * proof made now (app/web/proof.server.ts); `proofAt` sets another time, null none at all.
 */
export async function sessionCookie(
  userId: string,
  options: { proofAt?: number | null; data?: Record<string, unknown> } = {},
) {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  const proofAt = options.proofAt === undefined ? Date.now() : options.proofAt;
  if (proofAt !== null) session.set("proofAt", proofAt);
  for (const [key, value] of Object.entries(options.data ?? {})) session.set(key, value);
  const setCookie = await sessionStorage().commitSession(session);
  return setCookie.split(";")[0];
}

type RequestOptions = {
  method?: string;
  cookie?: string;
  form?: Record<string, string | string[]>;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
};

export function makeRequest(path: string, options: RequestOptions = {}) {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body: BodyInit | undefined;
  if (options.form) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.form)) {
      for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
    }
    body = params;
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", "application/json");
  } else if (options.body !== undefined) {
    body = options.body;
  }
  return new Request(new URL(path, BASE), {
    method: options.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
}

type RouteFn = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;

/**
 * Calls a loader or action the way Remix does and normalises the outcome to a Response: thrown
 * responses (redirects, 404s) and `data()` results alike.
 */
export async function call(
  fn: RouteFn,
  request: Request,
  params: Record<string, string> = {},
  context: Record<string, unknown> = { clientIp: "127.0.0.1" },
): Promise<Response> {
  let result: unknown;
  try {
    // In a request's scope, as the HTTP server runs every route (server/index.mjs).
    result = await inRequestScope(request.method, () => fn({ request, params, context } as never));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  if (result instanceof Response) return result;
  // Remix's data() helper: { type: "DataWithResponseInit", data, init }
  if (
    result &&
    typeof result === "object" &&
    (result as { type?: string }).type === "DataWithResponseInit"
  ) {
    const { data, init } = result as { data: unknown; init?: ResponseInit };
    return Response.json(data, init ?? undefined);
  }
  return Response.json(result ?? null);
}

/**
 * A project page's loader as a page view gets it: the project route's data (the project, loaded
 * once for every project page, app/routes/_app._project.tsx) beside the page's own. Any other
 * answer of the page (its 404, its redirect) as it is.
 */
export async function callProjectPage(
  fn: RouteFn,
  request: Request,
  params: Record<string, string> = {},
): Promise<Response> {
  const page = await call(fn, request, params);
  const json = page.headers.get("content-type")?.includes("json") === true;
  // A 400 is still the page (the dashboard's bad builds page), with its data.
  if (!json || (page.status !== 200 && page.status !== 400)) return page;
  const frame = await call(projectRouteLoader, request.clone(), params);
  if (frame.status !== 200) return frame;
  const { project } = (await frame.json()) as { project: unknown };
  const data = (await page.json()) as Record<string, unknown>;
  const headers = new Headers(page.headers);
  headers.delete("content-length");
  return Response.json(project ? { ...data, project } : data, { status: page.status, headers });
}

/**
 * Works the queued jobs of one queue now, with the app's own handler (tests start the queue but
 * no workers): what a worker would do next, without waiting for its polling. Returns the count.
 */
export async function runQueuedJobs(
  name: string,
  /** Jobs of a fetched batch run at once (hundreds of mails one after another took a minute). */
  { together = false } = {},
): Promise<number> {
  const { queue } = await import("~/jobs/queue.server");
  const { JOBS } = await import("~/jobs/index.server");
  const definition = JOBS.find((job) => job.name === name);
  if (!definition) throw new Error(`No job named ${name}`);
  let ran = 0;
  for (;;) {
    const jobs = await queue().fetch<Record<string, unknown>>(name, { batchSize: 20 });
    if (!jobs || jobs.length === 0) return ran;
    const runOne = async (job: (typeof jobs)[number]) => {
      await definition.handler(job.data);
      await queue().complete(name, job.id);
      ran += 1;
    };
    if (together) await Promise.all(jobs.map(runOne));
    else for (const job of jobs) await runOne(job);
  }
}

let projectSeq = 0;
/** A project row straight in the database (no provisioning), with unique keys. */
export async function insertProject(
  ownerId: string,
  values: Partial<typeof projects.$inferInsert> = {},
) {
  projectSeq += 1;
  const tag = `${projectSeq}x${Math.random().toString(36).slice(2, 8)}`;
  const [row] = await db()
    .insert(projects)
    .values({
      name: `Seeded project ${projectSeq}`,
      ownerId,
      idempotencyKey: `seed-${tag}`,
      studioId: `seed${tag}`,
      ...values,
    })
    .returning();
  return row;
}

/**
 * A provisioned project of a new owner, on a site of the built-in hosting provider (no deploys
 * yet), with the owner's session cookie.
 */
export async function projectOnLocalSite(ownerName: string) {
  const owner = await createUser({ name: ownerName });
  const project = await insertProject(owner.id, {
    siteCreationStatus: "success",
    studioCreationStatus: "success",
    inviteToProjectAccepted: true,
  });
  const siteId = `site-${randomUUID()}`;
  await db()
    .insert(localSites)
    .values({ id: siteId, provider: "netlify", name: project.name, idempotencyKey: siteId });
  await db().update(projects).set({ siteId }).where(eq(projects.id, project.id));
  await db().insert(projectSites).values({ projectId: project.id, provider: "netlify", siteId });
  return { owner, project, siteId, cookie: await sessionCookie(owner.id) };
}

/** The newest outbox mail to `email` (read before delivery, which redacts its tokens). */
export async function newestMailTo(email: string) {
  const [mail] = await db()
    .select()
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  return mail;
}

export { childEnv };

/** Runs `node <script> ...args` to its end: its exit code and its stdout and stderr together. */
export function runNodeScript(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += String(d)));
    child.stderr.on("data", (d) => (output += String(d)));
    child.on("exit", (code) => resolve({ code, output }));
  });
}
