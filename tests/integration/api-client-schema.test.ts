/**
 * The typed client (client/) cannot drift from the API: its checked-in types are exactly what
 * `npm run api:client` makes of the document the server produces now, and the @stackshift/client
 * package built from them carries the document's version.
 */
import fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loader as documentLoader } from "~/routes/api.openapi[.]json";
import { resetEnv } from "~/utils/env.server";
import {
  DOCUMENT_APP_URL,
  SCHEMA_FILE,
  clientSchemaSource,
} from "../../scripts/api-client-lib.mjs";
import { call, makeRequest } from "../helpers";

let previous: string | undefined;
beforeAll(() => {
  previous = process.env.APP_URL;
  process.env.APP_URL = DOCUMENT_APP_URL;
  resetEnv();
});
afterAll(() => {
  if (previous === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previous;
  resetEnv();
});

it(`${SCHEMA_FILE} is what npm run api:client makes of /api/openapi.json`, async () => {
  const document = await (await call(documentLoader, makeRequest("/api/openapi.json"))).json();
  const expected = (await clientSchemaSource(document)).split("\n");
  const actual = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, "utf8").split("\n") : [];
  const line = expected.findIndex((text, i) => actual[i] !== text);
  const differs = line !== -1 || actual.length !== expected.length;
  const at = line === -1 ? Math.min(actual.length, expected.length) : line;
  expect(
    differs,
    `${SCHEMA_FILE} is out of date with the API (first difference at line ${at + 1}: ` +
      `${JSON.stringify(actual[at] ?? "")} instead of ${JSON.stringify(expected[at] ?? "")}): ` +
      "run `npm run api:client` and commit the result",
  ).toBe(false);
});

it("the client package's version is the document's info.version, and the command line uses that version", async () => {
  const document = (await (
    await call(documentLoader, makeRequest("/api/openapi.json"))
  ).json()) as {
    info: { version: string };
  };
  const client = JSON.parse(fs.readFileSync("client/package.json", "utf8"));
  const cli = JSON.parse(fs.readFileSync("cli/package.json", "utf8"));
  expect(client.name).toBe("@stackshift/client");
  expect(client.version).toBe(document.info.version);
  expect(cli.dependencies["@stackshift/client"]).toBe(document.info.version);
  // The package's types are the generated ones: its entry imports them, and its build ships them.
  expect(fs.readFileSync("client/index.ts", "utf8")).toContain('from "./schema.js"');
  expect(
    JSON.parse(fs.readFileSync("client/tsconfig.build.json", "utf8").replace(/^\s*\/\/.*$/gm, ""))
      .include,
  ).toContain(SCHEMA_FILE.replace(/^client\//, ""));
});
