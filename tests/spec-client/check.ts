/**
 * Reads an API answer as the specification client (entities.ts) would: which entities each
 * operation's answer holds, each checked against its schema. A field of the specification absent
 * from an answer is a problem unless the API's record of its differences
 * (docs/decisions/032-api-differences-from-the-specification.md) lists it in its table's
 * "Specification fields absent" column, as `Entity.field` (anywhere) or `METHOD /path Entity.field`
 * (in that operation's answers only).
 */
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { ENTITIES, type EntityName } from "./entities";

export const DIFFERENCES_RECORD = "docs/decisions/032-api-differences-from-the-specification.md";
const ABSENT_COLUMN = "Specification fields absent";

/** One answer of the API: the documented path (with {params}), the request's URL, the body. */
export type Answer = { method: string; path: string; status: number; body: unknown; url?: string };

/** An absence the record allows: a field path, in every answer or in one operation's. */
export type Absence = { operation: string | null; field: string };

/** The table's absent-field entries (`Entity.field` or `METHOD /path Entity.field`). */
export function recordedAbsences(
  markdown = fs.readFileSync(path.resolve(DIFFERENCES_RECORD), "utf8"),
): Absence[] {
  const lines = markdown.split("\n").filter((line) => line.startsWith("|"));
  const header = lines[0]?.split("|").map((cell) => cell.trim()) ?? [];
  const column = header.indexOf(ABSENT_COLUMN);
  if (column < 0) throw new Error(`${DIFFERENCES_RECORD} has no "${ABSENT_COLUMN}" column`);
  const found: Absence[] = [];
  for (const line of lines.slice(2)) {
    const cell = line.split("|")[column] ?? "";
    for (const [, token] of cell.matchAll(/`([^`]+)`/g)) {
      const match = /^(?:((?:GET|POST|PUT|PATCH|DELETE) \/\S+) )?([A-Z]\w*(?:\.\w+)+)$/.exec(token);
      if (!match) throw new Error(`${DIFFERENCES_RECORD}: "${token}" is not Entity.field`);
      found.push({ operation: match[1] ?? null, field: match[2] });
    }
  }
  return found;
}

type Part = { entity: EntityName; value: unknown; where: string };

const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const field = (value: unknown, key: string): unknown =>
  value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;

/** The entities an answer holds, by operation. Refusals (4xx, 5xx) hold none. */
function partsOf({ method, path: docPath, status, body, url }: Answer): Part[] {
  if (status >= 300) return [];
  const query = new URL(url ?? "http://x/", "http://x").searchParams;
  const op = `${method.toUpperCase()} ${docPath}`;
  const each = (entity: EntityName, list: unknown, where: string): Part[] =>
    items(list).map((value, i) => ({ entity, value, where: `${where}[${i}]` }));
  switch (op) {
    case "GET /api/app":
      return [
        { entity: "ProjectList", value: body, where: "body" },
        ...each("Project", field(body, "data"), "data"),
      ];
    case "POST /api/app/create":
      return [{ entity: "Project", value: body, where: "body" }];
    case "GET /api/app/{id}": {
      const integrations = items(field(body, "integrations"));
      return [
        { entity: "Project", value: body, where: "body" },
        ...integrations.flatMap((entry, i): Part[] => {
          const where = `integrations[${i}]`;
          const id = field(entry, "id");
          if (id === "social-accounts") {
            return [{ entity: "SocialIntegrationEntry", value: entry, where }];
          }
          if (id === "newsletter")
            return [{ entity: "NewsletterIntegration", value: entry, where }];
          return each("PaymentAccountRecord", field(entry, "accounts"), `${where}.accounts`);
        }),
      ];
    }
    case "GET /api/deployments/{studioId}":
      return [{ entity: "DeploymentList", value: body, where: "body" }];
    case "GET /api/app/integrations/{integrationId}":
      return each("PaymentAccountRecord", field(body, "accounts"), "accounts");
    case "POST /api/app/integrations/{integrationId}": {
      const account = field(body, "account");
      return account ? [{ entity: "PaymentAccountRecord", value: account, where: "account" }] : [];
    }
    case "POST /api/payments/stripe": {
      const resource = query.get("resource");
      if (resource !== "products" && resource !== "prices") {
        throw new Error(`${op}: the request URL names no resource (products or prices)`);
      }
      const entity = resource === "products" ? "PaymentProduct" : "PaymentPrice";
      return [
        { entity: "StripeListResponse", value: body, where: "body" },
        ...each(entity, field(body, "data"), "data"),
      ];
    }
    case "GET /api/app/newsletter":
      return [{ entity: "NewsletterSettings", value: body, where: "body" }];
    case "GET /api/user":
      return [{ entity: "User", value: body, where: "body" }];
    case "GET /api/app/e2e-test-runs":
      return [{ entity: "TestRuns", value: body, where: "body" }];
    case "GET /api/newsletter":
    case "POST /api/newsletter":
    case "PATCH /api/newsletter": {
      const data = field(body, "data");
      if (/\/dns-records$/.test(query.get("path") ?? "")) return each("DnsRecord", data, "data");
      if (!data || /\/verify$/.test(query.get("path") ?? "")) return [];
      const domains = Array.isArray(data) ? data : [data];
      return domains.flatMap((domain, i): Part[] => [
        { entity: "Domain", value: domain, where: `data[${i}]` },
        { entity: "SenderDomainSettings", value: domain, where: `data[${i}]` },
        ...each("DnsRecord", field(domain, "records"), `data[${i}].records`),
      ]);
    }
    default:
      return [];
  }
}

/** The value at a zod issue's path (undefined when a key on the way is absent). */
function at(value: unknown, issuePath: PropertyKey[]): unknown {
  return issuePath.reduce<unknown>(
    (node, key) =>
      node && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined,
    value,
  );
}

/**
 * What a specification client would stumble on in `answer`: each field it reads that is absent
 * (and not in the record's table) or of another type. Empty when it reads the answer as written.
 */
export function specProblems(answer: Answer, absences = recordedAbsences()): string[] {
  const op = `${answer.method.toUpperCase()} ${answer.path}`;
  const allowed = new Set(
    absences.filter((a) => a.operation === null || a.operation === op).map((a) => a.field),
  );
  const problems: string[] = [];
  for (const part of partsOf(answer)) {
    const schema: z.ZodType = ENTITIES[part.entity];
    const result = schema.safeParse(part.value);
    if (result.success) continue;
    for (const issue of result.error.issues) {
      const named = `${part.entity}.${issue.path.filter((k) => typeof k === "string").join(".")}`;
      const where = `${op} ${answer.status} ${part.where}${issue.path.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`)).join("")}`;
      if (at(part.value, issue.path) === undefined) {
        if (!allowed.has(named)) {
          problems.push(`${where}: ${named} is absent, and ${DIFFERENCES_RECORD} does not list it`);
        }
      } else {
        problems.push(`${where}: ${issue.message}`);
      }
    }
  }
  return problems;
}
