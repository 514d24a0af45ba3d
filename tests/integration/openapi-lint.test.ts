/**
 * The served API document is ready for client generators: Redocly's recommended rules (`redocly
 * lint`, no configuration) find no error and no warning in it. Linted as a deployment serves it,
 * at a public https address (on a laptop its server is localhost, which the rules warn about).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as documentLoader } from "~/routes/api.openapi[.]json";
import { EVENT_CATALOG, PROJECT_EVENT_TYPES } from "~/services/events/catalog";
import { resetEnv } from "~/utils/env.server";
import { call, makeRequest } from "../helpers";

const run = promisify(execFile);
const PUBLIC_URL = "https://dashboard.stackshift.app";
let previous: string | undefined;
let doc: {
  servers: { url: string }[];
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
  paths: Record<string, Record<string, { operationId: string; security: unknown[] }>>;
  webhooks: Record<
    string,
    {
      post: {
        operationId: string;
        requestBody: { content: { "application/json": { schema: JsonSchema } } };
      };
    }
  >;
};
type JsonSchema = {
  properties: Record<string, JsonSchema & { const?: string }>;
  required?: string[];
};
let file: string;

beforeAll(async () => {
  previous = process.env.APP_URL;
  process.env.APP_URL = PUBLIC_URL;
  resetEnv();
  doc = await (await call(documentLoader, makeRequest("/api/openapi.json"))).json();
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "openapi-")), "openapi.json");
  fs.writeFileSync(file, JSON.stringify(doc));
});

afterAll(() => {
  if (previous === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previous;
  resetEnv();
});

describe("/api/openapi.json for client generators", () => {
  it("passes redocly lint's recommended rules with no error and no warning", async () => {
    const { stdout } = await run(
      path.resolve("node_modules/.bin/redocly"),
      ["lint", file, "--format=json"],
      // The CLI asks its servers for news and telemetry; this machine has no internet.
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it("names this dashboard as its server and every operation uniquely", () => {
    expect(doc.servers).toEqual([{ url: PUBLIC_URL, description: "This dashboard" }]);
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    expect(ids).toHaveLength(43);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("lists every event of the catalogue in `webhooks`, with its payload's fields under data", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...PROJECT_EVENT_TYPES].sort());
    for (const type of PROJECT_EVENT_TYPES) {
      const schema = doc.webhooks[type].post.requestBody.content["application/json"].schema;
      expect(schema.properties.type.const, type).toBe(type);
      expect(Object.keys(schema.properties.data.properties).sort(), type).toEqual(
        ["project", ...Object.keys(EVENT_CATALOG[type].payload.shape)].sort(),
      );
    }
    const ids = Object.values(doc.webhooks).map((w) => w.post.operationId);
    expect(new Set(ids).size).toBe(PROJECT_EVENT_TYPES.length);
  });

  it("applies the session cookie's and the token's schemes to every operation", () => {
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "__Host-stackshift_session",
    });
    expect(doc.components.securitySchemes.token).toMatchObject({ type: "http", scheme: "bearer" });
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops))
        expect(op.security).toEqual([{ session: [] }, { token: [] }]);
    }
  });
});
