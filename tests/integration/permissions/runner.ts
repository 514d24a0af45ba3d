/**
 * Runs the permission table: checks it against app/routes, and sends each case's request as each
 * actor against the fixture.
 */
import { type ActorName } from "../project-fixture";
import { BASE, call, makeRequest, sessionCookie } from "../../helpers";
import { type Case, type CrossCase, type Expect, type Req, type Row } from "./table";
import { ACTORS } from "../project-fixture";
import { beforeAll, describe, expect, it } from "vitest";
import { type Fixture, baseline, buildFixture, changedTables, snapshot } from "./fixture";
import { locationOf, toastOf } from "../../setup/matchers";
import path from "node:path";
import { ROUTES_DIR, routeFiles as listRouteFiles } from "../../route-files";

// ---------------------------------------------------------------------------------------------
// Checking the table against the route files

export type RouteModule = { loader?: RouteFn; action?: RouteFn };
export type RouteFn = Parameters<typeof call>[0];

export const routesDir = ROUTES_DIR;
export const routeFiles = listRouteFiles();

/** Problems of the table against a list of route files: missing rows, rows for no file. */
export function tableProblems(files: readonly string[], rows: readonly Row[]): string[] {
  const problems: string[] = [];
  const byFile = new Map<string, number>();
  for (const row of rows) byFile.set(row.file, (byFile.get(row.file) ?? 0) + 1);
  for (const file of files) {
    if (!byFile.has(file)) {
      problems.push(
        `app/routes/${file} has no row in the permission table (tests/integration/permissions/rows-*.ts): add one for its loader/action and every actor`,
      );
    }
  }
  for (const [file, n] of byFile) {
    if (!files.includes(file)) problems.push(`the row for ${file} names no route file`);
    if (n > 1) problems.push(`${file} has ${n} rows; merge them`);
  }
  return problems;
}

/** Every exported loader and action has a case, and every case's function exists. */
export function caseProblems(row: Row, mod: RouteModule): string[] {
  const problems: string[] = [];
  for (const fn of ["loader", "action"] as const) {
    const has = typeof mod[fn] === "function";
    const cases = row.cases.filter((c) => c.fn === fn);
    if (has && cases.length === 0) problems.push(`${row.file}: its ${fn} has no case`);
    if (!has && cases.length > 0)
      problems.push(`${row.file}: has no ${fn}, but the table tests one`);
  }
  return problems;
}

export const importRoute = (file: string) =>
  import(/* @vite-ignore */ path.join(routesDir, file)) as Promise<RouteModule>;

// ---------------------------------------------------------------------------------------------
// Running a request

export const APP_URL = BASE;

/** The redirect's target as a path of the app (an absolute URL on APP_URL shortened). */
export function redirectPath(res: Response) {
  const raw = locationOf(res);
  if (!raw) return null;
  return raw.startsWith(`${APP_URL}/`) ? raw.slice(APP_URL.length) : raw;
}

export async function classify(res: Response): Promise<"allow" | "deny" | "refused" | "other"> {
  if (res.status >= 200 && res.status < 300) return "allow";
  if (res.status >= 300 && res.status < 400) {
    const location = redirectPath(res) ?? "";
    if (location.startsWith("/auth/login")) return "deny";
    if (!location.startsWith("/") || location.startsWith("//")) return "other";
    return (await toastOf(res))?.type === "error" ? "refused" : "allow";
  }
  if ([401, 403, 404].includes(res.status)) return "deny";
  return "other";
}

export async function matches(res: Response, expected: Expect) {
  if (typeof expected === "string") return (await classify(res)) === expected;
  if (res.status !== expected.status) return false;
  return expected.location === undefined || (redirectPath(res) ?? "").startsWith(expected.location);
}

export const show = (e: Expect) =>
  typeof e === "string" ? e : `${e.status}${e.location ? ` -> ${e.location}` : ""}`;

export async function describeResponse(res: Response) {
  const location = redirectPath(res);
  const toast = await toastOf(res);
  if (toast) return `${res.status} -> ${location} (${toast.type} toast: ${toast.title})`;
  let body = "";
  try {
    body = (await res.clone().text()).slice(0, 160);
  } catch {
    // a stream already read
  }
  return `${res.status}${location ? ` -> ${location}` : ""}${body ? ` ${body}` : ""}`;
}

export let ip = 0;
export async function run(
  f: Fixture,
  mod: RouteModule,
  fn: "loader" | "action",
  req: Req,
  cookie: string | undefined,
) {
  const handler = mod[fn];
  if (!handler) throw new Error(`no ${fn}`);
  const request = makeRequest(req.path, {
    method: req.method ?? (fn === "action" ? "POST" : "GET"),
    cookie,
    form: req.form,
    json: req.json,
    headers: req.headers,
  });
  ip += 1;
  return call(handler, request, req.params ?? {}, { clientIp: `10.9.${ip >> 8}.${ip & 255}` });
}

/** One request as one actor: returns what went wrong, if anything. */
export async function check(
  f: Fixture,
  mod: RouteModule,
  c: Pick<Case, "fn" | "request" | "freshSession" | "check" | "setup">,
  actor: ActorName,
  expected: Expect,
): Promise<string[]> {
  await baseline(f);
  await c.setup?.(f);
  const before = expected === "allow" ? null : await snapshot();
  const cookie =
    actor !== "anonymous" && c.freshSession
      ? await sessionCookie(f.users[actor].id)
      : f.cookies[actor];
  let res: Response;
  try {
    res = await run(f, mod, c.fn, c.request(f, actor), cookie);
  } catch (error) {
    return [`${actor}: threw ${String(error)}`];
  }
  const problems: string[] = [];
  if (!(await matches(res, expected))) {
    problems.push(`${actor}: expected ${show(expected)}, got ${await describeResponse(res)}`);
  }
  if (before) {
    const changed = changedTables(before, await snapshot());
    if (changed.length > 0) problems.push(`${actor}: changed ${changed.join(", ")}`);
  }
  if (c.check) {
    try {
      await c.check(res, actor, f);
    } catch (error) {
      problems.push(`${actor}: ${String(error)}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Registering the tests

/** Builds the fixture once before the file's tests; the getter reads it inside a test. */
export function sharedFixture(): () => Fixture {
  let fixture: Fixture | undefined;
  beforeAll(async () => {
    fixture = await buildFixture();
  });
  return () => {
    if (!fixture) throw new Error("the permission fixture was not built");
    return fixture;
  };
}

/**
 * One test per case of each row: every actor's request, with what it expects. First, that the
 * rows' cases match their modules: here rather than in the table check, which then need not
 * import every route module a second time.
 */
export function describeRows(rows: readonly Row[], fixture: () => Fixture) {
  it("has a case for every loader and action of these rows' routes, and only for those", async () => {
    const problems: string[] = [];
    for (const row of rows) {
      if (!routeFiles.includes(row.file)) continue;
      problems.push(...caseProblems(row, await importRoute(row.file)));
    }
    expect(problems).toEqual([]);
  }, 90_000);
  describe.each(rows.filter((row) => routeFiles.includes(row.file)))("$file", (row) => {
    it.each(row.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      const mod = await importRoute(row.file);
      const problems: string[] = [];
      for (const actor of ACTORS) {
        problems.push(...(await check(fixture(), mod, c, actor, c.expect[actor])));
      }
      expect(problems).toEqual([]);
    });
  });
}

/** The cross-project cases: project A's admin and owner are denied project B's ids. */
export function describeCross(cross: readonly CrossCase[], fixture: () => Fixture) {
  describe("cross-project: project A's admin and owner send project B's ids", () => {
    it.each(cross.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      const mod = await importRoute(c.file);
      const problems: string[] = [];
      for (const actor of ["admin", "owner"] as const) {
        problems.push(...(await check(fixture(), mod, c, actor, c.expect ?? "deny")));
      }
      expect(problems).toEqual([]);
    });
  });
}
