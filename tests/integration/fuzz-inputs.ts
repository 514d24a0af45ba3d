/**
 * The inputs of the fuzz test (tests/integration/fuzz.test.ts), as fast-check arbitraries:
 * bodies shaped like each route's own zod schemas (through zod's JSON Schema, so a schema change
 * changes the inputs) and then spoiled with hostile values - wrong types, huge and empty strings,
 * unicode edge cases, prototype keys, deep nesting, duplicate fields - in every encoding a client
 * can send, right or wrong for the route.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { z } from "zod";

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
};

// ---------------------------------------------------------------------------------------------
// Hostile values

/** Nested `depth` levels, objects and arrays in turn (linear: no shared branches). */
const DEEP_JSON = (depth: number) => {
  let v: unknown = "bottom";
  for (let i = 0; i < depth; i += 1) v = i % 2 ? { a: v } : [v];
  return v;
};

/** Strings no form should fail on: empty, huge, control and format characters, injections. */
export const HOSTILE_STRINGS = [
  "",
  " ",
  "x".repeat(100_000),
  "a".repeat(1025),
  "\u0000",
  "\uD800",
  "\uDFFF\uD800",
  "\u202E\u2066evil",
  "\uFEFF",
  "e\u0301\u0301\u0301\u0301",
  "🏳️‍🌈".repeat(40),
  "𝕏𝕐ℤ",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "'; drop table users;--",
  "../../../etc/passwd",
  "%00%ff%",
  "${7*7}{{7*7}}",
  "NaN",
  "-1",
  "1e309",
  "99999999999999999999999999",
  "0x7fffffff",
  "__proto__",
  "constructor",
  "prototype",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "javascript:alert(1)",
  "//evil.example/path",
  "http://[::1]:80/",
  "xn--" + "-".repeat(300) + ".example",
  "a@b",
  "@@@",
  "user@" + "a".repeat(300) + ".com",
  "2026-02-30",
  "9999-99-99T99:99",
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-composite", maxLength: 20 }) },
);

/** JSON values of the wrong type or shape for any field. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(
    null,
    0,
    -1,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    true,
    false,
    [],
    {},
    [null],
    { __proto__: { isAdmin: true } },
    JSON.parse('{"__proto__":{"isAdmin":true,"role":"owner"}}'),
    { constructor: { prototype: { isAdmin: true } } },
    DEEP_JSON(500),
  ),
  fc.integer(),
  fc.double(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
);

// ---------------------------------------------------------------------------------------------
// Values shaped by a schema

function patternArb(pattern: string): fc.Arbitrary<string> | null {
  try {
    return fc.stringMatching(new RegExp(pattern)).filter((s) => s.length <= 200);
  } catch {
    return null;
  }
}

/** A value that mostly fits `schema` (bounded sizes; known values of the fixture mixed in). */
export function arbOf(
  schema: JsonSchema,
  known: fc.Arbitrary<string>,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant("deep");
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((s) => arbOf(s, known, depth + 1)));
  }
  if (schema.allOf && schema.allOf.length > 0) return arbOf(schema.allOf[0], known, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string": {
      const min = schema.minLength ?? 0;
      const max = Math.max(min, Math.min(schema.maxLength ?? 60, 120));
      const fitting =
        schema.format === "email"
          ? fc.emailAddress()
          : schema.format === "uri"
            ? fc.webUrl()
            : schema.format === "uuid"
              ? fc.uuid()
              : schema.format === "date"
                ? fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))
                : ((schema.pattern ? patternArb(schema.pattern) : null) ??
                  fc.string({ minLength: min, maxLength: max }));
      return fc.oneof({ weight: 3, arbitrary: fitting }, { weight: 1, arbitrary: known });
    }
    case "integer":
    case "number": {
      const min = Math.max(schema.minimum ?? -1000, -1_000_000);
      const max = Math.min(schema.maximum ?? 1000, 1_000_000);
      return fc.integer({ min: Math.min(min, max), max: Math.max(min, max) });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(schema.items ? arbOf(schema.items, known, depth + 1) : fc.string(), {
        maxLength: 3,
      });
    case "object": {
      const props = schema.properties ?? {};
      const keys = Object.keys(props);
      if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.string());
      const record = Object.fromEntries(keys.map((k) => [k, arbOf(props[k], known, depth + 1)]));
      return fc.record(record, { requiredKeys: schema.required?.filter((k) => k in record) });
    }
    default:
      return fc.oneof(fc.string({ maxLength: 20 }), known);
  }
}

/** Spoils a fitting object: some fields hostile, some dropped, prototype and unknown keys added. */
function spoiled(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      base,
      fc.array(fc.tuple(fc.nat(), hostileJson), { maxLength: 3 }),
      fc.array(fc.nat(), { maxLength: 2 }),
      fc.option(
        fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty"),
      ),
    )
    .map(([value, replacements, drops, protoKey]) => {
      if (!value || typeof value !== "object" || Array.isArray(value)) return value;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(out);
      if (keys.length > 0) {
        for (const [i, bad] of replacements) out[keys[i % keys.length]] = bad;
        for (const i of drops) delete out[keys[i % keys.length]];
      }
      if (protoKey)
        Object.defineProperty(out, protoKey, { value: { isAdmin: true }, enumerable: true });
      return out;
    });
}

// ---------------------------------------------------------------------------------------------
// The schemas a route uses, read from its source

const ROOT = path.resolve(".");
const SERVICES = path.join(ROOT, "app/services");

/** Every zod schema exported by app/services/*.schema.ts, by export name, as JSON Schema. */
export async function loadSchemas(): Promise<Map<string, JsonSchema>> {
  const out = new Map<string, JsonSchema>();
  const files = fs.readdirSync(SERVICES).filter((f) => f.endsWith(".schema.ts"));
  for (const file of files) {
    const mod = (await import(/* @vite-ignore */ path.join(SERVICES, file))) as Record<
      string,
      unknown
    >;
    for (const [name, value] of Object.entries(mod)) {
      if (!(value instanceof z.ZodType)) continue;
      try {
        out.set(name, z.toJSONSchema(value, { io: "input", unrepresentable: "any" }) as JsonSchema);
      } catch {
        // A schema JSON Schema cannot express (cycles): the route still gets the other inputs.
      }
    }
  }
  return out;
}

/** The source of a route module and of the app modules it imports that end in `.server.ts`. */
function sourceWithHelpers(file: string): string {
  const source = fs.readFileSync(file, "utf8");
  const helpers = [
    ...source.matchAll(/from "~\/(components\/[^"]+action\.server|services\/[^"]+\.server)"/g),
  ]
    .map((m) => path.join(ROOT, "app", `${m[1]}.ts`))
    .filter((p) => fs.existsSync(p));
  return [source, ...helpers.map((p) => fs.readFileSync(p, "utf8"))].join("\n");
}

export type RouteInputs = {
  /** Schemas named in the route (or its action helpers), as JSON Schema. */
  schemas: JsonSchema[];
  /** `intent` values and JSON `action` values the route's code compares against. */
  intents: string[];
};

export function routeInputs(file: string, all: Map<string, JsonSchema>): RouteInputs {
  const source = sourceWithHelpers(file);
  const names = new Set([...source.matchAll(/\b([a-z]\w*Schema)\b/g)].map((m) => m[1]));
  const schemas = [...names].flatMap((n) => (all.has(n) ? [all.get(n)!] : []));
  const intents = new Set<string>();
  for (const m of source.matchAll(/(?:intent|action)\s*===\s*"([\w-]+)"|case "([\w-]+)":/g)) {
    intents.add(m[1] ?? m[2]);
  }
  return { schemas, intents: [...intents] };
}

// ---------------------------------------------------------------------------------------------
// Bodies in every encoding

export type Body =
  | { kind: "form"; fields: [string, string][] }
  | { kind: "multipart"; fields: [string, string][] }
  | { kind: "json"; value: unknown; contentType: string }
  | { kind: "raw"; bytes: Uint8Array; contentType: string | null }
  | { kind: "none" };

/** Flattens an object into form fields the way conform names them (a.b, a[0]), as strings. */
function toFields(value: unknown, prefix = "", out: [string, string][] = []): [string, string][] {
  if (value === null || value === undefined) {
    if (prefix) out.push([prefix, ""]);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => toFields(v, `${prefix}[${i}]`, out));
  } else if (typeof value === "object") {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      toFields(v, prefix ? `${prefix}.${k}` : k, out);
    }
  } else {
    out.push([prefix || "value", String(value)]);
  }
  return out;
}

export function bodyArb(inputs: RouteInputs, known: fc.Arbitrary<string>): fc.Arbitrary<Body> {
  const shaped: fc.Arbitrary<unknown>[] = inputs.schemas.map((s) => arbOf(s, known));
  if (inputs.intents.length > 0) {
    const intent = fc.constantFrom(...inputs.intents);
    shaped.push(fc.record({ intent, id: known, studioId: known, name: fc.string() }));
    shaped.push(fc.record({ action: intent, studioId: known, id: known }));
  }
  if (shaped.length === 0) shaped.push(fc.dictionary(fc.string({ maxLength: 12 }), fc.string()));
  const value = fc.oneof(
    { weight: 2, arbitrary: fc.oneof(...shaped) },
    { weight: 3, arbitrary: spoiled(fc.oneof(...shaped)) },
    { weight: 1, arbitrary: hostileJson },
  );
  // Some intents attached to a shaped value, so actions reach their branches.
  const withIntent =
    inputs.intents.length > 0
      ? fc
          .tuple(value, fc.constantFrom(...inputs.intents))
          .map(([v, intent]) =>
            v && typeof v === "object" && !Array.isArray(v) ? { intent, ...v } : v,
          )
      : value;
  const fields = fc
    .tuple(
      withIntent,
      fc.array(fc.tuple(fc.constantFrom("intent", "id", "name", "email"), hostileString), {
        maxLength: 2,
      }),
    )
    .map(([v, dupes]) => [...toFields(v), ...dupes] as [string, string][]);
  const jsonTypes = fc.constantFrom(
    "application/json",
    "application/json; charset=utf-16",
    "text/plain",
    "application/x-www-form-urlencoded",
  );
  return fc.oneof(
    { weight: 4, arbitrary: fields.map((f) => ({ kind: "form" as const, fields: f })) },
    { weight: 1, arbitrary: fields.map((f) => ({ kind: "multipart" as const, fields: f })) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(withIntent, jsonTypes)
        .map(([v, contentType]) => ({ kind: "json" as const, value: v, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.oneof(
            fc.uint8Array({ maxLength: 64 }),
            fc.constantFrom(
              new TextEncoder().encode('{"name":'),
              new TextEncoder().encode("a=%E0%A4%A&b=%%"),
              new Uint8Array([0xff, 0xfe, 0x00, 0x41, 0xc3, 0x28]),
              new TextEncoder().encode("--x\r\nContent-Disposition: form-data\r\n\r\n"),
              new TextEncoder().encode("[".repeat(5000)),
            ),
          ),
          fc.constantFrom(
            null,
            "application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "multipart/form-data; boundary=x",
            "text/plain;charset=latin1",
            "application/octet-stream",
          ),
        )
        .map(([bytes, contentType]) => ({ kind: "raw" as const, bytes, contentType })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  );
}

/** The request's body and content type, as a client would send them. */
export function encode(body: Body): { body?: BodyInit; contentType?: string } {
  switch (body.kind) {
    case "form": {
      const params = new URLSearchParams();
      for (const [k, v] of body.fields) params.append(k, v);
      return { body: params.toString(), contentType: "application/x-www-form-urlencoded" };
    }
    case "multipart": {
      const form = new FormData();
      for (const [k, v] of body.fields) form.append(k, v);
      return { body: form };
    }
    case "json": {
      let text: string;
      try {
        text = JSON.stringify(body.value) ?? "null";
      } catch {
        text = "null";
      }
      return { body: text, contentType: body.contentType };
    }
    case "raw":
      return { body: new Uint8Array(body.bytes), contentType: body.contentType ?? undefined };
    case "none":
      return {};
  }
}

/** A query string with the route's field names and hostile values. */
export const queryArb = (names: string[]) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom(...names, "cursor", "page", "q", "scope", "dialog", "redirectTo", "tab"),
        fc.oneof(fc.string({ maxLength: 12 }), hostileString),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [k, v] of pairs) params.append(k, v.slice(0, 2000));
      const text = params.toString();
      return text ? `?${text}` : "";
    });

export { hostileString };
