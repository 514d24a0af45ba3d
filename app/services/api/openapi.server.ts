/**
 * The OpenAPI 3.1 document of the JSON API, served at /api/openapi.json (decision 006). It is
 * generated from the table of operations (openapi-operations.ts: the zod schemas the routes parse
 * with for requests, api.schema.ts for responses) by zod's own JSON Schema conversion (2020-12,
 * OpenAPI 3.1's dialect), so there is nothing to write twice; tests/integration/openapi.test.ts
 * checks every response against it.
 */
import { z } from "zod";
import { env } from "~/utils/env.server";
import { API, TAGS, type Method, type Operation } from "./openapi-operations";
import { WEBHOOK_EVENTS } from "./openapi-webhooks";

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

const DESCRIPTIONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  400: "Invalid input: `fieldErrors` names the fields",
  401: "Not signed in",
  403: "Not allowed, or a cross-origin request",
  404: "Not found, or hidden from the caller",
  409: "Conflicts with the current state",
  410: "Expired",
  413: "Body too large",
  415: "Body must be application/json",
  429: "Rate limited: see Retry-After",
  502: "The provider refused",
  503: "The provider is unavailable: see Retry-After",
};

/** The decision record listing the API's deliberate differences from the specification. */
export const DIFFERENCES_RECORD = "docs/decisions/032-api-differences-from-the-specification.md";

/** Every operation takes the signed-in person's session, or a personal access token. */
const SECURITY = [{ session: [] }, { token: [] }];

/** Built once per configuration (the servers and the cookie's name come from it). */
let cached: { for: unknown; document: Record<string, unknown> } | undefined;

export function openApiDocument(): Record<string, unknown> {
  if (cached?.for === env()) return cached.document;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, operations] of Object.entries(API)) {
    paths[path] = {};
    for (const [method, op] of Object.entries(operations) as [Method, Operation][]) {
      const parameters = [
        ...(op.pathParams ?? []).map((name) => ({
          name,
          in: "path",
          required: true,
          schema: { type: "string" },
        })),
        ...Object.entries(op.query?.shape ?? {}).map(([name, schema]) => ({
          name,
          in: "query",
          required: false,
          schema: jsonSchema(schema as z.ZodType, "input"),
        })),
      ];
      paths[path][method] = {
        operationId: op.operationId,
        tags: op.tags,
        summary: op.summary,
        security: SECURITY,
        ...(parameters.length ? { parameters } : {}),
        ...(op.body
          ? {
              requestBody: {
                required: true,
                content: { "application/json": { schema: jsonSchema(op.body, "input") } },
              },
            }
          : {}),
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, schema]) => [
            status,
            {
              description: DESCRIPTIONS[Number(status)] ?? "Response",
              content:
                "mediaType" in schema
                  ? { [schema.mediaType]: { schema: { type: "string" } } }
                  : { "application/json": { schema: jsonSchema(schema, "output") } },
            },
          ]),
        ),
      };
    }
  }
  // OpenAPI 3.1's `webhooks`: what this server POSTs to a project's webhook, one per event type.
  const webhooks = Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event.type,
      {
        post: {
          operationId: `${event.type.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}Event`,
          tags: ["Webhooks"],
          summary: `${event.label} (sent to webhooks that chose ${event.type})`,
          description:
            "Signed as Standard Webhooks says: the `webhook-id` (the delivery's id, the same on " +
            "every retry and Redeliver), `webhook-timestamp` and `webhook-signature` headers; " +
            "verify them with the `standardwebhooks` package and the webhook's `whsec_` secret. " +
            `Projects' ${event.roles.join(", ")} may subscribe. A webhook in the Slack format ` +
            "gets Slack's `text`/`blocks` body instead.",
          security: [],
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchema(event.body, "output") } },
          },
          responses: {
            "2XX": { description: "Received: the delivery is logged as succeeded" },
            "4XX": { description: "Refused: retried with backoff for 24 hours from the event" },
            "5XX": { description: "Failed: retried with backoff for 24 hours from the event" },
          },
        },
      },
    ]),
  );
  const { APP_URL, secureCookies } = env();
  const document = {
    openapi: "3.1.0",
    info: {
      title: "StackShift dashboard API",
      version: "1.1.0",
      description:
        "The JSON API of the StackShift dashboard. Scripts send a personal access token " +
        "(`Authorization: Bearer stackshift_pat_...`, made in User Settings > API tokens); browsers " +
        "use the session cookie (log in through /auth/login), and their state-changing requests " +
        "need Origin (or Sec-Fetch-Site: same-origin). Bodies are JSON.\n\n" +
        "Names and shapes follow the product specification. Where they differ on purpose (the " +
        "OAuth state, Stripe keys, account references), the reason and what a client written " +
        `from the specification must change are in ${DIFFERENCES_RECORD} of the dashboard's ` +
        "repository.",
      contact: { name: "StackShift support", url: `${APP_URL}/sites/support` },
      // Not open source: an SPDX reference to the customer terms (SPDX's form for other licenses).
      license: {
        name: "StackShift customer terms",
        identifier: "LicenseRef-StackShift-Customer-Terms",
      },
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: APP_URL, description: "This dashboard" }],
    tags: TAGS,
    components: {
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: secureCookies ? "__Host-stackshift_session" : "stackshift_session",
          description:
            "The session cookie set by logging in through /auth/login; state-changing requests also need Origin",
        },
        token: {
          type: "http",
          scheme: "bearer",
          description:
            "A personal access token (stackshift_pat_...) made in User Settings > API tokens: read tokens may only GET; tokens limited to projects see only those. No Origin needed.",
        },
      },
    },
    paths,
    webhooks,
  };
  cached = { for: env(), document };
  return document;
}
