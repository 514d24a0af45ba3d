// First: schemas made by the imports below parse without eval (zod-config.ts).
import "~/utils/zod-config";
import fs from "node:fs";
import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import {
  applyMigrations,
  asSchemaOwner,
  closeDatabase,
  database,
  queriesRun,
  withBootLock,
} from "~/db/client.server";
import { claimDataDir, releaseDataDir } from "~/db/data-dir-lock.server";
import { prepareJobs, QUEUES, runJobs } from "~/jobs/index.server";
import { drainQueue, installQueues, stopQueue } from "~/jobs/queue.server";
import { readinessProblem } from "~/services/platform/index.server";
import { startKeyRotation, stopKeyRotation } from "~/services/platform/index.server";
import { providerReads } from "~/services/core/index.server";
import { env, startRefusal, StartRefusedError } from "~/utils/env.server";
import { logger, requestLogger } from "~/utils/logger.server";
import { errorLogFields, loggablePathname } from "~/utils/request-id.server";
import { inRequestScope } from "~/utils/request-memo.server";
import { loadAllParts } from "~/utils/page-load";
import { metricsForServer } from "~/utils/metrics.server";
import { NonceProvider } from "~/utils/nonce";
import type { Runtime } from "~/runtime-contract";

const ABORT_DELAY = 5_000;

/** `npm run rotate-key` (scripts/rotate-key.mjs) runs from this build. */
export { rotateKeyCommand } from "~/services/platform/index.server";
export { unprovenAccountsCommand } from "~/services/accounts/index.server";

/**
 * Called once by the HTTP server (server/index.mjs) before it listens: checks the environment,
 * applies migrations and starts the job queue with this instance's workers. Its answer is the
 * Runtime of runtime-contract.ts, which server/ reads too: a change here is a change there.
 */
export async function boot(): Promise<Runtime> {
  const config = env();
  // A public https address without SMTP_URL, or on the stand-in providers, and a TRUST_PROXY
  // trusting every address are refused unless an ALLOW_* setting says it is meant (startRefusal).
  const refusal = startRefusal(config);
  if (refusal) throw new StartRefusedError(refusal);
  // The embedded database serves one process: claimed before it opens (data-dir-lock.server.ts).
  if (!config.DATABASE_URL) claimDataDir(config.DATA_DIR, "server");
  const current = database();
  // Any number of processes on any number of hosts may start at once on one database: they take
  // turns for the schema and the queues (docs/decisions/027-booting-together.md).
  // With MIGRATIONS_DATABASE_URL, the schema (ours and the job queue's) is changed by its owner
  // and DATABASE_URL's role owns nothing (docs/operations.md, "A runtime role that owns nothing").
  await withBootLock(current, async () => {
    await asSchemaOwner(async (owner) => {
      await applyMigrations(owner);
      if (owner !== current) await installQueues(owner, QUEUES);
    });
    await prepareJobs();
  });
  await runJobs();
  // Re-encrypts stored secrets under a previous key; on a local run, takes up a rotated key file.
  await startKeyRotation();
  // `kill -USR2 <pid>` prints counters for operators and the benchmark (scripts/bench/), written
  // synchronously so they are in the log before anything else happens.
  process.on("SIGUSR2", () => {
    fs.writeSync(1, `[stats] provider reads: ${providerReads()}; queries: ${queriesRun()}\n`);
  });
  return {
    appUrl: config.APP_URL,
    port: config.PORT,
    oidcIssuer: config.OIDC_ISSUER,
    // express "trust proxy": a hop count or the trusted proxies' addresses (TRUST_PROXY).
    trustProxy: config.TRUST_PROXY,
    // With live providers the studio launch redirects a form post to the studio's own host.
    formTargets:
      config.PROVIDERS === "live"
        ? [`https://*.${config.SANITY_STUDIO_HOST ?? "sanity.studio"}`]
        : [],
    databaseKind: current.kind,
    // Wraps each request so the loaders of one page view share their reads.
    inRequestScope,
    // The log (logger.server.ts) and the path as it is logged, for the HTTP server's lines.
    logger,
    loggablePathname,
    // /readyz: null when this process may be sent requests, else why not.
    readinessProblem,
    // SIGTERM (server/index.mjs): the grace for requests and jobs, and the balancer's delay.
    shutdownGraceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    shutdownDelayMs: config.SHUTDOWN_DELAY_SECONDS * 1000,
    // Stops taking jobs, lets the running ones finish until `deadline`, gives back the rest.
    drainJobs: (deadline: number) => drainQueue(deadline),
    // GET /metrics and the request durations (server/metrics.mjs, metrics.server.ts).
    metrics: metricsForServer(config.METRICS_TOKEN),
    async shutdown() {
      stopKeyRotation();
      await stopQueue();
      await closeDatabase();
      if (!config.DATABASE_URL) releaseDataDir(config.DATA_DIR);
    },
  };
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = String(loadContext.cspNonce ?? "");
  // Every lazy part's code first (at once after the first request): nothing suspends mid-render.
  return loadAllParts().then(() =>
    render(request, responseStatusCode, responseHeaders, remixContext, loadContext, nonce),
  );
}

function render(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
  nonce: string,
) {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer
          context={remixContext}
          url={request.url}
          abortDelay={ABORT_DELAY}
          nonce={nonce}
        />
      </NonceProvider>,
      {
        nonce,
        // The whole page, for people as for bots: the forms loaded lazily (the Create New dialog,
        // the invite form, the domain dialog) sit in Suspense boundaries, and content streamed
        // after the shell is revealed by a script, which a browser without JavaScript never
        // runs. No page streams deferred data, so waiting costs nothing else.
        onAllReady() {
          shellRendered = true;
          // Sent as one piece: Remix flushes the compressor after every chunk it passes on, and
          // React writes a page in 2 KB chunks, so a streamed page went out as dozens of small
          // compressed blocks and socket writes (measured: 13 % of the dashboard's server time).
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              responseHeaders.set("Content-Type", "text/html");
              resolve(
                new Response(Buffer.concat(chunks), {
                  headers: responseHeaders,
                  status: responseStatusCode,
                }),
              );
              done();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) {
            requestLogger(loadContext.requestId).error(
              { err: error, ...errorLogFields(request) },
              "render failed",
            );
          }
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * Every unexpected server error, logged once with its request's id (the id the error page shows;
 * server/route-errors.mjs sends page loaders' and actions' errors here too).
 */
export function handleError(
  error: unknown,
  { request, context }: { request: Request; context?: AppLoadContext },
) {
  if (request.signal.aborted) return;
  // An address no route has (a stray link, a scanner) is a 404 answer, not a fault of ours.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  requestLogger(context?.requestId).error(
    { err: error, ...errorLogFields(request) },
    "unexpected error",
  );
}
