/**
 * A Resend stand-in for the newsletter contract tests, shaped after Resend's OpenAPI description:
 * `POST /domains` (201 with the domain and its records), `GET /domains` (the list, without
 * records), `GET /domains/{id}`, `POST /domains/{id}/verify` and `DELETE /domains/{id}`. Errors
 * are Resend's `{statusCode, name, message}`: 401 missing_api_key without a Bearer key, 403
 * invalid_api_key for any other key than the stand-in's, 422 missing_required_field /
 * invalid_region / validation_error for a bad body, 403 validation_error "...has been registered
 * already" for a name the team holds, 404 not_found for an unknown id or path. Verify moves a
 * domain to pending; tests settle it with setStatus.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { startStandInServer, type FailureRule, type Recorded, type Reply } from "./hosting-server";

export const RESEND_REGIONS = ["us-east-1", "eu-west-1", "sa-east-1", "ap-northeast-1"] as const;

export type ResendRecord = {
  record: "SPF" | "DKIM";
  name: string;
  type: "MX" | "TXT";
  ttl: string;
  status: string;
  value: string;
  priority?: number;
};

export type ResendDomain = {
  object: "domain";
  id: string;
  name: string;
  status: string;
  created_at: string;
  region: string;
  open_tracking: boolean;
  click_tracking: boolean;
  capabilities: { sending: "enabled" | "disabled"; receiving: "enabled" | "disabled" };
  records: ResendRecord[];
};

/** Record statuses Resend knows; a domain status outside them leaves the records pending. */
const RECORD_STATUSES = new Set([
  "pending",
  "verified",
  "failed",
  "temporary_failure",
  "not_started",
]);

/** How Resend prints times: PostgreSQL's text form, UTC. */
const resendTime = (date: Date) => date.toISOString().replace("T", " ").replace("Z", "+00");

export type ResendStandIn = Awaited<ReturnType<typeof startResendStandIn>>;

export async function startResendStandIn() {
  const apiKey = "re_standin_0123456789abcdef";
  const domains = new Map<string, ResendDomain>();

  const error = (status: number, message: string, name?: string) => ({
    statusCode: status,
    name: name ?? defaultName(status),
    message,
  });
  const refuse = (status: number, name: string, message: string): Reply => ({
    status,
    body: error(status, message, name),
  });

  function records(region: string): ResendRecord[] {
    return [
      {
        record: "SPF",
        name: "send",
        type: "MX",
        ttl: "Auto",
        status: "not_started",
        value: `feedback-smtp.${region}.amazonses.com`,
        priority: 10,
      },
      {
        record: "SPF",
        name: "send",
        type: "TXT",
        ttl: "Auto",
        status: "not_started",
        value: "v=spf1 include:amazonses.com ~all",
      },
      {
        record: "DKIM",
        name: "resend._domainkey",
        type: "TXT",
        ttl: "Auto",
        status: "not_started",
        value: `p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ${randomBytes(96).toString("base64")}`,
      },
    ];
  }

  function create(body: unknown): Reply {
    const input = (typeof body === "object" && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    if (typeof input.name !== "string" || !input.name) {
      return refuse(422, "missing_required_field", "Missing `name` field.");
    }
    const region = input.region === undefined ? "us-east-1" : input.region;
    if (typeof region !== "string" || !(RESEND_REGIONS as readonly string[]).includes(region)) {
      return refuse(
        422,
        "invalid_region",
        `Invalid region. Region must be one of: ${RESEND_REGIONS.join(", ")}`,
      );
    }
    const name = input.name.trim().toLowerCase();
    if (!/^([a-z0-9-]+\.)+[a-z]{2,}$/.test(name)) {
      return refuse(422, "validation_error", "Invalid `name` field: not a domain name.");
    }
    if ([...domains.values()].some((d) => d.name === name)) {
      return refuse(403, "validation_error", `The ${name} domain has been registered already.`);
    }
    const domain: ResendDomain = {
      object: "domain",
      id: randomUUID(),
      name,
      status: "not_started",
      created_at: resendTime(new Date()),
      region,
      open_tracking: false,
      click_tracking: false,
      capabilities: { sending: "enabled", receiving: "disabled" },
      records: records(region),
    };
    domains.set(domain.id, domain);
    // The create answer has no `object` field.
    const { object: _object, ...created } = domain;
    return { status: 201, body: structuredClone(created) };
  }

  function list(query: URLSearchParams): Reply {
    const limit = Number(query.get("limit") ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return refuse(422, "validation_error", "The `limit` parameter must be between 1 and 100.");
    }
    // Newest first, as Resend lists them; `after` is the id of the last domain of a page.
    const all = [...domains.values()].reverse();
    const after = query.get("after");
    const from = after ? all.findIndex((d) => d.id === after) + 1 : 0;
    const page = all.slice(from, from + limit);
    return {
      status: 200,
      body: {
        object: "list",
        has_more: from + limit < all.length,
        data: page.map(({ object: _object, records: _records, ...item }) => structuredClone(item)),
      },
    };
  }

  function handle(request: Recorded): Reply {
    const auth = request.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || auth === "Bearer ") {
      return refuse(401, "missing_api_key", "Missing API key in the authorization header.");
    }
    if (auth !== `Bearer ${apiKey}`) return refuse(403, "invalid_api_key", "API key is invalid");

    if (request.path === "/domains") {
      if (request.method === "POST") return create(request.body);
      if (request.method === "GET") return list(request.query);
    }
    const match = /^\/domains\/([^/]+)(\/verify)?$/.exec(request.path);
    if (match) {
      const domain = domains.get(decodeURIComponent(match[1]));
      const verify = Boolean(match[2]);
      if (!domain) return refuse(404, "not_found", "Domain not found");
      if (verify && request.method === "POST") {
        // Verification runs later at Resend; the domain reads pending until it settles.
        if (domain.status !== "verified") setDomainStatus(domain, "pending");
        return { status: 200, body: { object: "domain", id: domain.id } };
      }
      if (!verify && request.method === "GET")
        return { status: 200, body: structuredClone(domain) };
      if (!verify && request.method === "DELETE") {
        domains.delete(domain.id);
        return { status: 200, body: { object: "domain", id: domain.id, deleted: true } };
      }
      return refuse(405, "method_not_allowed", "Method is not allowed for the requested path.");
    }
    return refuse(404, "not_found", "The requested endpoint does not exist.");
  }

  function setDomainStatus(domain: ResendDomain, status: string, recordStatus?: string) {
    domain.status = status;
    const each = recordStatus ?? (RECORD_STATUSES.has(status) ? status : "pending");
    for (const record of domain.records) record.status = each;
  }

  const server = await startStandInServer({ handle, errorBody: error });
  return {
    ...server,
    apiKey,
    /** The domains the team holds now, by id (Resend's stored form). */
    domains,
    /**
     * Settles a domain as Resend's checks would: its status, and its records' (the same status
     * when it is a record status, else `recordStatus` or pending).
     */
    setStatus(id: string, status: string, recordStatus?: string) {
      const domain = domains.get(id);
      if (!domain) throw new Error(`The stand-in holds no domain ${id}`);
      setDomainStatus(domain, status, recordStatus);
    },
    fail: (rule: FailureRule) => server.fail(rule),
  };
}

function defaultName(status: number): string {
  if (status === 401) return "missing_api_key";
  if (status === 403) return "invalid_api_key";
  if (status === 404) return "not_found";
  if (status === 405) return "method_not_allowed";
  if (status === 422) return "validation_error";
  if (status === 429) return "rate_limit_exceeded";
  if (status >= 500) return "internal_server_error";
  return "validation_error";
}
