/**
 * Property-based fuzzing: every action of every route module, and the loader
 * of every API-style route (api.*, resources.*, analytics.*, forms.*, newsletter.*), is called
 * with inputs from tests/integration/fuzz-inputs.ts - bodies shaped by the route's own zod
 * schemas, then spoiled - as each of the 8 actors of the permission table, from many addresses.
 *
 * Two properties over every input:
 * - no answer is 5xx (and nothing is thrown that Remix would turn into one);
 * - a refused request (4xx, a redirect to login, or an error toast) changes no row: the row count
 *   and a checksum of every table (and the queued jobs) are the same before and after.
 *
 * `npm test` runs a fixed seed with FUZZ_RUNS inputs (default 2,000); `npm run soak:fuzz` runs
 * 10,000 with a new seed and prints it. A failure prints the seed and the shrunk input.
 */
import fs from "node:fs";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { members, projects, supportTickets } from "~/db/schema";
import { QUEUES } from "~/jobs/index.server";
import { queue } from "~/jobs/queue.server";
import { ensureDefaultForm } from "~/services/forms/forms.server";
import { LATEST_SCHEMA_VERSION } from "~/services/projects/project-status";
import { noNulInUrl } from "../../server/middleware.mjs";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { locationOf, toastOf } from "../setup/matchers";
import {
  bodyArb,
  encode,
  hostileString,
  loadSchemas,
  queryArb,
  routeInputs,
  type Body,
} from "./fuzz-inputs";
import {
  ACTORS,
  makeProject,
  type ActorName,
  type ProjectFixture,
  type TestUser,
} from "./project-fixture";
import { changedTables, checksumQuery, readChecksums } from "./table-checksums";
import { routeFiles } from "../route-files";

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

type Fn = (args: never) => unknown;
type Target = { file: string; kind: "action" | "loader"; fn: Fn; params: string[] };

const ROUTES = path.resolve("app/routes");
/** Loaders that answer clients other than the page itself: the JSON API and resource routes. */
const API_LOADER = /^(api\.|resources\.|analytics|forms\.|newsletter\.|healthz|studios\.)/;

type Actor = ActorName;

type Fixture = {
  users: Record<Exclude<Actor, "anonymous">, TestUser>;
  cookies: Record<Actor, string | undefined>;
  project: ProjectFixture;
  memberRows: (typeof members.$inferInsert)[];
  /** Values of the fixture a fuzzed field sometimes carries: ids, keys, e-mails. */
  known: string[];
};

let fixture: Fixture;
const targets: Target[] = [];
const inputsByFile = new Map<string, ReturnType<typeof routeInputs>>();

async function buildFixture(): Promise<Fixture> {
  const make = (name: string, email?: string) => createUser({ name, email });
  const [owner, outsider, invited, editor, developer, admin, platformAdmin] = await Promise.all([
    make("Olivia Owner"),
    make("Oscar Outsider"),
    make("Ivy Invited"),
    make("Eddie Editor"),
    make("Dana Developer"),
    make("Ada Admin"),
    make("Pat Platform", "admin@example.com"),
  ]);
  const project = await makeProject(owner, "Fuzz project");
  const accepted = (u: TestUser, role: "editor" | "developer" | "admin") =>
    ({
      id: crypto.randomUUID(),
      projectId: project.id,
      userId: u.id,
      invitedEmail: u.email,
      role,
      status: "accepted",
    }) as const;
  const invitationKey = "fuzz-invitation-key-0123456789abcdefghijklmnop";
  const memberRows: (typeof members.$inferInsert)[] = [
    {
      id: crypto.randomUUID(),
      projectId: project.id,
      userId: invited.id,
      invitedEmail: invited.email,
      role: "editor",
      status: "invited",
      invitationKey,
      invitationExpiresAt: new Date(Date.now() + 7 * 86_400_000),
    },
    accepted(editor, "editor"),
    accepted(developer, "developer"),
    accepted(admin, "admin"),
  ];
  await db().insert(members).values(memberRows);
  const [ticket] = await db()
    .insert(supportTickets)
    .values({
      subject: "Fuzz ticket",
      description: "About the fuzz project",
      projectId: project.id,
      requesterId: owner.id,
    })
    .returning({ id: supportTickets.id });
  const formId = await ensureDefaultForm(project.id);
  const users = { owner, outsider, invited, editor, developer, admin, platformAdmin };
  const cookies = { anonymous: undefined } as Record<Actor, string | undefined>;
  for (const [name, u] of Object.entries(users)) cookies[name as Actor] = await sessionCookie(u.id);
  const known = [
    project.id,
    project.studioId,
    project.siteId,
    project.studioSanityId,
    ticket.id,
    formId,
    invitationKey,
    ...memberRows.map((m) => m.id!),
    ...Object.values(users).flatMap((u) => [u.id, u.email]),
    "editor",
    "developer",
    "admin",
    "payments",
    "social-accounts",
    "instagram",
    "stripe",
  ];
  return { users, cookies, project, memberRows, known };
}

/** Puts back what an allowed request changed, so every actor keeps its role and session. */
async function restore(f: Fixture) {
  const [row] = await db()
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.id, f.project.id));
  if (!row) {
    // The owner deleted the project with a fuzzed confirmation: a new one takes its place.
    f.project = await makeProject(f.users.owner, "Fuzz project");
    f.memberRows = f.memberRows.map((m) => ({ ...m, projectId: f.project.id }));
    f.known.push(f.project.id, f.project.studioId, f.project.siteId, f.project.studioSanityId);
  }
  await db()
    .update(projects)
    .set({
      ownerId: f.users.owner.id,
      siteCreationStatus: "success",
      studioCreationStatus: "success",
      deployRetryCount: 0,
      permanentErrorAt: null,
      schemaVersion: LATEST_SCHEMA_VERSION,
    })
    .where(eq(projects.id, f.project.id));
  await db()
    .delete(members)
    .where(inArray(members.projectId, [f.project.id]));
  await db().insert(members).values(f.memberRows);
  // A fuzzed "sign out everywhere" may have ended a session: each actor gets a fresh one.
  for (const [name, u] of Object.entries(f.users)) {
    f.cookies[name as Actor] = await sessionCookie(u.id);
  }
}

// ---------------------------------------------------------------------------------------------
// Every table's rows, as one comparable value

/**
 * Columns a refused request may still touch, by design: a session's last use and end (the rate
 * limiter's counters are left out for every check, table-checksums.ts).
 */
const IGNORED_COLUMNS: Record<string, string[]> = { sessions: ["last_seen_at", "expires_at"] };

let checksumSql = "";

async function prepareChecksum() {
  checksumSql = await checksumQuery(IGNORED_COLUMNS, { jobs: true });
}

const checksum = () => readChecksums(checksumSql);

// ---------------------------------------------------------------------------------------------
// Requests

type Input = {
  target: number;
  actor: Actor;
  method: string;
  params: string[];
  query: string;
  body: Body;
  ip: string;
};

function describeInput(input: Input) {
  const t = targets[input.target];
  const body = JSON.stringify(input.body, (_k, v: unknown) =>
    typeof v === "string" && v.length > 80 ? `${v.slice(0, 80)}...(${v.length})` : v,
  );
  return `${input.actor} ${input.method} ${t.file} (${t.kind}) params=${JSON.stringify(input.params)} query=${input.query.slice(0, 120)} body=${body.slice(0, 400)}`;
}

/**
 * A path segment as the router hands it over: a URL cannot carry a lone surrogate (a client's
 * bytes for one decode to U+FFFD), so params are made well-formed the same way.
 */
const wellFormed = (value: string) => value.replace(/\p{Cs}/gu, "\uFFFD");

function urlOf(file: string, params: string[]) {
  let i = 0;
  const segments = file
    .replace(/\.(ts|tsx)$/, "")
    .replace(/\[\.\]/g, ".")
    .split(".")
    .filter((s) => s !== "_index" && !s.startsWith("_") && s !== "route")
    .map((s) =>
      s.startsWith("$") || s.startsWith("($") ? encodeURIComponent(wellFormed(params[i++])) : s,
    );
  return "/" + segments.join("/");
}

/** What server/middleware.mjs's noNulInUrl answers for this address, if it stops it. */
function httpLayerAnswer(url: string): Response | undefined {
  let answer: Response | undefined;
  const res = {
    status: (code: number) => ({
      json: (body: unknown) => {
        answer = Response.json(body, { status: code });
      },
    }),
  };
  noNulInUrl()({ originalUrl: url } as never, res as never, () => {});
  return answer;
}

async function send(input: Input): Promise<{ res?: Response; thrown?: unknown }> {
  const target = targets[input.target];
  const { body, contentType } = target.kind === "action" ? encode(input.body) : {};
  const headers: Record<string, string> = {};
  if (contentType) headers["Content-Type"] = contentType;
  const url = urlOf(target.file, input.params) + input.query;
  // The server's own middleware answers before any route, as it does over HTTP.
  const early = httpLayerAnswer(url);
  if (early) return { res: early };
  const request = makeRequest(url, {
    method: target.kind === "action" ? input.method : "GET",
    cookie: fixture.cookies[input.actor],
    headers,
  });
  const withBody =
    body === undefined ? request : new Request(request, { body, duplex: "half" } as RequestInit);
  const params = Object.fromEntries(target.params.map((p, i) => [p, wellFormed(input.params[i])]));
  try {
    return { res: await call(target.fn as never, withBody, params, { clientIp: input.ip }) };
  } catch (thrown) {
    return { thrown };
  }
}

/**
 * Refused: a 4xx, an error toast, or an anonymous caller sent to log in (a signed-in one sent
 * there was signed out, which is what logging out does).
 */
async function isRefused(res: Response, actor: Actor) {
  if (res.status >= 400) return true;
  const location = locationOf(res);
  if (actor === "anonymous" && res.status >= 300 && location?.startsWith("/auth/login")) {
    return true;
  }
  const toast = await toastOf(res).catch(() => null);
  return toast?.type === "error";
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  const schemas = await loadSchemas();
  const files = routeFiles();
  for (const file of files) {
    const mod = (await import(/* @vite-ignore */ path.join(ROUTES, file))) as {
      action?: Fn;
      loader?: Fn;
    };
    const params = [...file.matchAll(/\(?\$(\w+)\)?/g)].map((m) => m[1]);
    inputsByFile.set(file, routeInputs(path.join(ROUTES, file), schemas));
    if (mod.action) targets.push({ file, kind: "action", fn: mod.action, params });
    if (mod.loader && API_LOADER.test(file)) {
      targets.push({ file, kind: "loader", fn: mod.loader, params });
    }
  }
  fixture = await buildFixture();
  await prepareChecksum();
}, 120_000);

describe("the table checksum", () => {
  it("sees a changed row, an added row and a queued job, and nothing when nothing changed", async () => {
    const start = await checksum();
    expect(changedTables(start, await checksum())).toEqual([]);
    await db()
      .update(projects)
      .set({ name: "Fuzz project renamed" })
      .where(eq(projects.id, fixture.project.id));
    await db().insert(supportTickets).values({
      subject: "Another",
      description: "x",
      projectId: fixture.project.id,
      requesterId: fixture.users.owner.id,
    });
    await queue().send(QUEUES[0], { probe: true });
    const changed = changedTables(start, await checksum());
    expect(changed).toEqual(expect.arrayContaining(["projects", "support_tickets", "pgboss.job"]));
    await db()
      .update(projects)
      .set({ name: "Fuzz project" })
      .where(eq(projects.id, fixture.project.id));
  });
});

describe("fuzzing every action and API route as every actor", () => {
  it(`answers ${RUNS} hostile inputs (seed ${SEED}) without a 5xx, and refused ones change no row`, async () => {
    const known = fc.nat().map((i) => fixture.known[i % fixture.known.length]);
    const input: fc.Arbitrary<Input> = fc.nat({ max: targets.length - 1 }).chain((target) => {
      const t = targets[target];
      const inputs = inputsByFile.get(t.file)!;
      const fieldNames = inputs.schemas.flatMap((s) => Object.keys(s.properties ?? {}));
      return fc.record({
        target: fc.constant(target),
        actor: fc.constantFrom(...ACTORS),
        method: fc.constantFrom("POST", "POST", "POST", "PUT", "PATCH", "DELETE"),
        params: fc.tuple(
          ...t.params.map(() =>
            fc.oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: hostileString }),
          ),
        ),
        query: queryArb(fieldNames.length > 0 ? fieldNames : ["id"]),
        body: bodyArb(inputs, known),
        ip: fc.ipV4(),
      });
    });

    const stats = { inputs: 0, status: new Map<number, number>(), refused: 0, fivexx: 0 };
    const perTarget = new Map<string, number>();
    let before = await checksum();

    await fc.assert(
      fc.asyncProperty(input, async (given) => {
        stats.inputs += 1;
        const key = `${targets[given.target].kind} ${targets[given.target].file}`;
        perTarget.set(key, (perTarget.get(key) ?? 0) + 1);
        if (process.env.FUZZ_TRACE)
          fs.appendFileSync(process.env.FUZZ_TRACE, `${describeInput(given)}\n`);
        const { res, thrown } = await send(given);
        if (thrown !== undefined || !res) {
          stats.fivexx += 1;
          throw new Error(`threw ${String(thrown)} for ${describeInput(given)}`);
        }
        stats.status.set(res.status, (stats.status.get(res.status) ?? 0) + 1);
        if (res.status >= 500) {
          stats.fivexx += 1;
          const text = await res.text().catch(() => "");
          throw new Error(`${res.status} ${text.slice(0, 300)} for ${describeInput(given)}`);
        }
        const refused = await isRefused(res, given.actor);
        const after = await checksum();
        const changed = changedTables(before, after);
        if (refused) {
          stats.refused += 1;
          if (changed.length > 0) {
            throw new Error(
              `refused (${res.status}) but changed ${changed.join(", ")}: ${describeInput(given)}`,
            );
          }
        } else if (changed.length > 0) {
          await restore(fixture);
          before = await checksum();
          return;
        }
        before = after;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );

    const statuses = [...stats.status.entries()].sort((a, b) => a[0] - b[0]);
    console.log(
      `[fuzz] seed ${SEED}: ${stats.inputs} inputs to ${perTarget.size} of ${targets.length} actions and API loaders; ` +
        `${stats.fivexx} answered 5xx; ${stats.refused} refused, rows changed by a refused request: 0; ` +
        `statuses ${statuses.map(([s, n]) => `${s}x${n}`).join(" ")}`,
    );
    expect(stats.fivexx).toBe(0);
    expect(stats.inputs).toBeGreaterThanOrEqual(RUNS);
    // Every action and API loader got inputs (fast-check picks them evenly).
    if (RUNS >= 2000) expect(perTarget.size).toBe(targets.length);
  }, 1_800_000);
});
