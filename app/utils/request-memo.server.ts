import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Reads shared by the loaders of one page view. A document or data GET runs the root, layout and
 * page loaders at once, and each asks for the signed-in user and, on a project page, the project
 * and the viewer's role on it: without this each of those reads ran up to three times per view
 * (measured: 12.6 queries for the shell, 22.6 for the project dashboard; docs/performance.md).
 * Remix hands each loader its own copy of the Request, so the view is marked by an async scope
 * the HTTP server opens around the request (server/index.mjs, through the entry's `boot`).
 *
 * Only GET and HEAD requests get a scope: an action never sees a value read before its own write.
 * Outside a scope (actions, jobs, tests calling services) every call reads afresh.
 */
const views = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/**
 * What every request (reads and changes) and every job carries beside its arguments: the personal
 * access token it came with, so the activity log can say a change was made 'via token {name}'
 * without every service passing it along, and what its log lines are tagged with
 * (logger.server.ts). The HTTP server hands in the record of a request, so its request log line
 * (server/middleware.mjs) reads the user and route the app noted on it.
 */
export type ScopeRecord = {
  viaToken?: string;
  requestId?: string;
  /** The signed-in user or token owner, once the request has read it. */
  userId?: string;
  /** The matched Remix route (server/route-errors.mjs notes it). */
  routeId?: string;
  routeDepth?: number;
  job?: string;
  jobId?: string;
  /** The scope's child logger, made on first use (logger.server.ts). */
  logger?: unknown;
};
const requests = new AsyncLocalStorage<ScopeRecord>();

/** Runs `handle` as one request; when it only reads, as one view too. */
export function inRequestScope<T>(method: string, handle: () => T, record: ScopeRecord = {}): T {
  return requests.run(record, () => {
    if (method !== "GET" && method !== "HEAD") return views.exit(handle);
    return views.run(new Map(), handle);
  });
}

/** Runs one job's work, its log lines tagged with the queue's name and the job's id. */
export function inJobScope<T>(job: string, jobId: string, handle: () => T): T {
  return requests.run({ job, jobId }, () => views.exit(handle));
}

/** The current request's or job's record, if any. */
export function currentScope(): ScopeRecord | undefined {
  return requests.getStore();
}

/** The request acts as this user (its later log lines and its request line say so). */
export function noteUser(userId: string) {
  const record = requests.getStore();
  if (record && record.userId !== userId) {
    record.userId = userId;
    record.logger = undefined;
  }
}

/** This request acts through the personal access token named `name`. */
export function attributeToToken(name: string) {
  const request = requests.getStore();
  if (request) request.viaToken = name;
}

/** The token this request acts through, if any (outside a request, jobs: none). */
export function viaToken(): string | undefined {
  return requests.getStore()?.viaToken;
}

/** `read()` once per `key` in this view; a plain `read()` outside one. */
export function memo<T>(key: string, read: () => Promise<T>): Promise<T> {
  const view = views.getStore();
  if (!view) return read();
  let hit = view.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = read();
    view.set(key, hit);
    // A failed read is not remembered: the next loader asking gets its own attempt and error.
    hit.catch(() => view.delete(key));
  }
  return hit;
}

/**
 * Hands the view a read made some other way (a wider query that also returned it), so later
 * `memo(key)` calls use it; nothing when the view already has one, or outside a view.
 */
export function rememberInView<T>(key: string, value: Promise<T>): void {
  const view = views.getStore();
  if (!view || view.has(key)) return;
  view.set(key, value);
  value.catch(() => view.delete(key));
}
