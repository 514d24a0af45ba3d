/**
 * What the command line prints: JSON for scripts (--json), a table or a list of fields for
 * people, errors on stderr, and a spinner on stderr when it is a terminal (never in --json).
 */
import { StackShiftApiError } from "@stackshift/client";

/**
 * Exit codes a script can branch on (also in `stackshift --help`).
 * 0 done; 1 unexpected; 2 usage; 3 not signed in or token refused (401); 4 not allowed (403);
 * 5 not found (404); 6 input refused or conflict (400, 409, 413, 415); 7 the server unreachable,
 * busy (429) or failing (5xx); 8 timed out waiting; 10 the deployment failed.
 */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  forbidden: 4,
  notFound: 5,
  refused: 6,
  unavailable: 7,
  timeout: 8,
  deployFailed: 10,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0   done
  1   unexpected error
  2   wrong usage (unknown command or option, missing argument)
  3   not signed in, or the token was refused (401)
  4   not allowed (403)
  5   not found (404)
  6   input refused or a conflict (400, 409)
  7   the server is unreachable, busy (429) or failing (5xx)
  8   timed out waiting
  10  the deployment failed`;

/** A failure the command line reports and exits with. */
export class CliError extends Error {
  readonly code: number;
  readonly details: Record<string, unknown>;
  constructor(message: string, code: number, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

export function exitCodeOf(status: number): number {
  if (status === 401) return EXIT.auth;
  if (status === 403) return EXIT.forbidden;
  if (status === 404) return EXIT.notFound;
  if (status === 429 || status >= 500) return EXIT.unavailable;
  if (status >= 400) return EXIT.refused;
  return EXIT.unexpected;
}

export type Output = {
  json: boolean;
  /** The command's result: JSON, or what `human` makes of it. */
  result(value: unknown, human: () => string): void;
  /** A progress line: stdout for people, stderr with --json (stdout is the result's). */
  note(line: string): void;
  spinner(text: string): Spinner;
};

/** A spinner's line: `print` writes a line above it (the spinner keeps turning below). */
export type Spinner = { update(text: string): void; print(write: () => void): void; stop(): void };

export function output(json: boolean): Output {
  return {
    json,
    result(value, human) {
      process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
    },
    note(line) {
      (json ? process.stderr : process.stdout).write(`${line}\n`);
    },
    spinner(text) {
      if (json || !process.stderr.isTTY)
        return { update() {}, print: (write) => write(), stop() {} };
      return spinner(text);
    },
  };
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

function spinner(initial: string): Spinner {
  let text = initial;
  let frame = 0;
  const clear = () => process.stderr.write("\r\x1b[2K");
  const draw = () => {
    clear();
    process.stderr.write(`${FRAMES[frame % FRAMES.length]} ${text}`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, 80);
  return {
    update(next) {
      text = next;
    },
    print(write) {
      clear();
      write();
      draw();
    },
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}

type Cell = string | number | boolean | null | undefined;

/** A plain table: a header row, then one row per item, columns padded to their widest cell. */
export function table(headers: string[], rows: Cell[][]): string {
  if (rows.length === 0) return "(none)";
  const text = [
    headers,
    ...rows.map((r) => r.map((c) => (c == null || c === "" ? "-" : String(c)))),
  ];
  const widths = headers.map((_, i) => Math.max(...text.map((r) => (r[i] ?? "").length)));
  return text
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** `label: value` lines, labels aligned. */
export function fields(pairs: [string, Cell][]): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs
    .map(
      ([label, value]) =>
        `${`${label}:`.padEnd(width + 1)} ${value == null || value === "" ? "-" : String(value)}`,
    )
    .join("\n");
}

/** Prints a failure to stderr (JSON with --json) and returns the exit code it means. */
export function report(error: unknown, json: boolean): number {
  let message: string;
  let code: number;
  let details: Record<string, unknown> = {};
  if (error instanceof CliError) {
    ({ message, code, details } = error);
  } else if (error instanceof StackShiftApiError) {
    message = error.message;
    code = exitCodeOf(error.status);
    details = {
      status: error.status,
      ...(error.body.fieldErrors ? { fieldErrors: error.body.fieldErrors } : {}),
      ...(error.requestId ? { requestId: error.requestId } : {}),
    };
  } else if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    message = `Could not reach the dashboard${cause ? `: ${cause}` : ""}`;
    code = EXIT.unavailable;
  } else {
    message = error instanceof Error ? error.message : String(error);
    code = EXIT.unexpected;
  }
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: message, exitCode: code, ...details })}\n`);
  } else {
    process.stderr.write(`Error: ${message}\n`);
    const fieldErrors = details.fieldErrors as Record<string, string[]> | undefined;
    for (const [field, problems] of Object.entries(fieldErrors ?? {})) {
      process.stderr.write(`  ${field}: ${problems.join("; ")}\n`);
    }
    for (const [key, value] of Object.entries(details)) {
      if (key !== "fieldErrors" && key !== "status")
        process.stderr.write(`  ${key}: ${String(value)}\n`);
    }
  }
  return code;
}
