import { createRequire } from "node:module";
import pino, { type DestinationStream, type Level, type Logger } from "pino";
import { currentScope } from "./request-memo.server";

/**
 * The server's log: one JSON object a line on stdout (level, time, msg and fields), which log
 * collectors read as it is. A terminal of a local run gets pino-pretty's readable lines instead.
 * LOG_LEVEL chooses how much ("info" by default); tests run silent unless it is set.
 */
function chosenLevel(): { level: Level | "silent"; unknown?: string } {
  const asked = process.env.LOG_LEVEL?.trim().toLowerCase();
  if (asked) {
    if (asked === "silent" || asked in pino.levels.values) return { level: asked as Level };
    return { level: "info", unknown: asked };
  }
  const testing = Boolean(process.env.VITEST) || process.env.NODE_ENV === "test";
  return { level: testing ? "silent" : "info" };
}

/** pino-pretty (a dev dependency) for a person at a terminal; null when it is not installed. */
function prettyStream(): DestinationStream | null {
  if (process.env.NODE_ENV === "production" || !process.stdout.isTTY) return null;
  try {
    const pretty = createRequire(import.meta.url)("pino-pretty") as (
      options: Record<string, unknown>,
    ) => DestinationStream;
    // Synchronous: lines stay in order with what else the process prints.
    return pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" });
  } catch {
    return null;
  }
}

const output: DestinationStream = prettyStream() ?? pino.destination({ dest: 1, sync: true });
/** Where lines go instead while a test reads them (captureLogs). */
let capture: ((line: string) => void) | null = null;

const { level, unknown } = chosenLevel();

export const logger: Logger = pino(
  {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    // "level":"warn" rather than pino's number: what people grep for.
    formatters: { level: (label) => ({ level: label }) },
    // A safety net: no call site logs these, and none may start to.
    redact: {
      paths: ["password", "token", "cookie", "authorization", "secret", "*.password", "*.token"],
      censor: "[redacted]",
    },
  },
  { write: (line: string) => (capture ? capture(line) : output.write(line)) },
);

if (unknown) logger.warn({ LOG_LEVEL: unknown }, "unknown LOG_LEVEL, logging at info");

/**
 * The logger for the code running now: inside a request its child carrying `requestId` (and
 * `userId` once the request knows its user), inside a job one carrying `job` and `jobId`, else
 * the root logger.
 */
export function log(): Logger {
  const scope = currentScope();
  if (!scope || (!scope.requestId && !scope.job)) return logger;
  if (!scope.logger) {
    const fields: Record<string, string> = {};
    if (scope.requestId) fields.requestId = scope.requestId;
    if (scope.userId) fields.userId = scope.userId;
    if (scope.job) fields.job = scope.job;
    if (scope.jobId) fields.jobId = scope.jobId;
    scope.logger = logger.child(fields);
  }
  return scope.logger as Logger;
}

/**
 * The logger for a request known by its id: the scope's when it is that request's (everywhere in
 * the app), else a child carrying the id (a caller outside the scope, tests).
 */
export function requestLogger(requestId: string | null | undefined): Logger {
  const scoped = log();
  if (!requestId || currentScope()?.requestId === requestId) return scoped;
  return logger.child({ requestId });
}

/**
 * For tests: the parsed lines logged from now on (at `level` and above) instead of stdout, until
 * `restore()`. Loggers made before the call keep their own level.
 */
export function captureLogs(captureLevel: Level = "trace") {
  const records: Record<string, unknown>[] = [];
  const previous = logger.level;
  logger.level = captureLevel;
  capture = (line) => records.push(JSON.parse(line) as Record<string, unknown>);
  return {
    records,
    restore() {
      capture = null;
      logger.level = previous;
    },
  };
}
