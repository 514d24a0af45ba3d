/**
 * No input produces a 500: every loader and action of every route module is called with
 * malformed, oversized and wrong-typed input, as anonymous, a plain user and a platform admin.
 * The route list is read from app/routes, so a new route is covered without touching this file.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { flatName, routeFiles as listRouteFiles } from "../route-files";

type RouteModule = {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
};

const routesDir = path.resolve("app/routes");
const routeFiles = listRouteFiles();

/** The URL path of a flat-routes file name, with params filled by `fill`. */
function urlOf(file: string, fill: string) {
  const segments = flatName(file)
    .replace(/\.(ts|tsx)$/, "")
    .split(".")
    .filter((s) => s !== "_index" && !s.startsWith("_") && s !== "route")
    .map((s) => (s.startsWith("$") ? encodeURIComponent(fill) : s));
  return "/" + segments.join("/");
}

function paramsOf(file: string, fill: string) {
  const params: Record<string, string> = {};
  for (const s of flatName(file)
    .replace(/\.(ts|tsx)$/, "")
    .split(".")) {
    if (s.startsWith("$")) params[s.slice(1)] = fill;
  }
  return params;
}

const PARAM_VALUES = [
  "does-not-exist",
  "00000000-0000-0000-0000-000000000000",
  "'; drop table users;--",
  "%00",
];

const BODIES: { name: string; init: Parameters<typeof makeRequest>[1] }[] = [
  { name: "empty body", init: { method: "POST", body: "" } },
  {
    name: "malformed JSON",
    init: { method: "POST", body: '{"name":', headers: { "Content-Type": "application/json" } },
  },
  {
    name: "wrong-typed JSON",
    init: {
      json: { name: 42, email: ["a"], siteType: { x: 1 }, idempotencyKey: null, studioId: true },
    },
  },
  { name: "JSON array", init: { json: [1, 2, 3] } },
  {
    name: "oversized form",
    init: { form: { intent: "create", name: "x".repeat(200_000), email: "a@b.co" } },
  },
  {
    name: "repeated and unknown fields",
    init: {
      form: { intent: ["review", "confirm", "nonsense"], email: ["x", "y"], name: ["", "\u0000"] },
    },
  },
  {
    name: "multipart without boundary",
    init: { method: "POST", body: "garbage", headers: { "Content-Type": "multipart/form-data" } },
  },
  {
    name: "unknown intent",
    init: { form: { intent: "definitely-not-an-intent", id: "nope", requestId: "nope" } },
  },
  {
    name: "a domain that is no domain",
    init: {
      form: {
        intent: "domain-change",
        domain: `\u0000xn--${"-".repeat(300)}.*.[::1]:80/x`,
        provider: "aws",
      },
    },
  },
];

/** Bodies of the JSON routes that answer PUT, PATCH and DELETE. */
const JSON_BODIES = (fill: string) => [
  { studioId: fill, action: "x" },
  { studioId: fill, action: "update", domain: 12345, schemaVersion: "three", provider: "aws" },
  { studioId: fill, action: "update", domain: "ünï.códe.example", type: ["a"] },
];

const actors: Record<string, string | undefined> = { anonymous: undefined };

beforeAll(async () => {
  const user = await createUser();
  const admin = await createUser({ email: "admin@example.com" });
  actors.user = await sessionCookie(user.id);
  actors.admin = await sessionCookie(admin.id);
});

function expectNot500(res: Response, what: string) {
  expect(res.status, what).toBeLessThan(500);
}

describe.each(routeFiles)("%s", (file) => {
  it("answers malformed input with less than 500", async () => {
    const mod = (await import(/* @vite-ignore */ path.join(routesDir, file))) as RouteModule;
    for (const [actor, cookie] of Object.entries(actors)) {
      for (const fill of PARAM_VALUES) {
        const url = urlOf(file, fill);
        const params = paramsOf(file, fill);
        if (mod.loader) {
          const query =
            "?cursor=%%%garbage&limit=-5&q=%00%FF&page=abc&dialog=<script>&redirectTo=//evil.example&repo=..%2F..%00";
          const res = await call(mod.loader as never, makeRequest(url + query, { cookie }), params);
          expectNot500(res, `${actor} GET ${url}`);
        }
        if (mod.action) {
          for (const body of BODIES) {
            const res = await call(
              mod.action as never,
              makeRequest(url, { ...body.init, cookie, method: body.init?.method ?? "POST" }),
              params,
            );
            expectNot500(res, `${actor} POST ${url} with ${body.name}`);
          }
          for (const method of ["PUT", "PATCH", "DELETE"]) {
            for (const json of JSON_BODIES(fill)) {
              const res = await call(
                mod.action as never,
                makeRequest(url, { cookie, method, json }),
                params,
              );
              expectNot500(res, `${actor} ${method} ${url} ${JSON.stringify(json)}`);
            }
          }
        }
      }
    }
  });
});
