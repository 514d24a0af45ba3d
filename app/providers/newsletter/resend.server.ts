import { Resend, type CreateDomainOptions, type ErrorResponse } from "resend";
import { ProviderError } from "../errors";
import { httpProviderError } from "../hosting/vendor-errors.server";
import type {
  NewsletterProvider,
  SenderDnsRecord,
  SenderDomain,
  SenderDomainStatus,
} from "./types";

export type ResendNewsletterOptions = {
  /** The team's API key (full access: it manages domains). */
  apiKey?: string;
  /** Resend's API base; a stand-in or proxy in tests. */
  baseUrl?: string;
};

const DEFAULT_BASE_URL = "https://api.resend.com";
const TIMEOUT_MS = 10_000;

/** Resend's domain ids are UUIDs; anything else could steer the SDK's path to another endpoint. */
const DOMAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

const STATUSES = new Set<string>([
  "pending",
  "verified",
  "failed",
  "not_started",
  "partially_verified",
  "partially_failed",
  "temporary_failure",
] satisfies SenderDomainStatus[]);

/** Names too generic to tell a caller more than the HTTP status does. */
const GENERIC_NAMES = new Set(["application_error", "internal_server_error"]);

/** How Resend words a domain that some team (this one or another) has added already. */
const ALREADY_REGISTERED = /(already been registered|been registered already|already exists)/i;

/** What Resend answers for a domain: its create and get bodies share these fields. */
type ResendDomainBody = {
  id: string;
  name: string;
  status: string;
  region: string;
  created_at: string;
  records?: {
    record: string;
    name: string;
    type: string;
    ttl: string | number;
    status: string;
    value: string;
    priority?: number;
  }[];
};

/** The SDK's answer: data, or an error and no data; the response headers when there was one. */
type SdkAnswer = {
  data: unknown;
  error: ErrorResponse | null;
  headers: Record<string, string> | null;
};

/**
 * Newsletter sender domains through the `resend` SDK, one client for the configured key. The SDK
 * answers `{data, error}` instead of throwing; every error leaves here as a ProviderError that
 * never quotes the key. No SDK retries exist to turn off; each call gives up after ten seconds,
 * and callers retry the ProviderErrors marked retryable themselves.
 */
export function createResendNewsletter(options: ResendNewsletterOptions): NewsletterProvider {
  const apiKey = options.apiKey ?? "";
  let client: Resend | undefined;

  function resend(): Resend {
    if (!apiKey) {
      throw new ProviderError("Resend is not configured on this server", {
        provider: "resend",
        status: 503,
        code: "not_configured",
      });
    }
    // A key with spaces or control characters cannot be a header value: not worth a request.
    if (!/^[\x21-\x7e]+$/.test(apiKey)) throw invalidKey();
    client ??= new Resend(apiKey, {
      baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ""),
    });
    return client;
  }

  /** Runs one SDK call and returns its data, or throws its error as a ProviderError. */
  async function call<A extends SdkAnswer>(
    send: (resend: Resend, signal: AbortSignal) => Promise<A>,
  ): Promise<NonNullable<A["data"]>> {
    const answer = await send(resend(), AbortSignal.timeout(TIMEOUT_MS)).catch((error: unknown) => {
      // The SDK catches network failures itself; anything thrown is a failure of the same kind.
      throw unreachable(error instanceof Error ? error.message : String(error), apiKey);
    });
    if (answer.error !== null) throw asProviderError(answer.error, answer.headers, apiKey);
    const data: A["data"] = answer.data;
    // The SDK gives data whenever there is no error; a body of `null` is no answer either.
    if (data === null || data === undefined) throw unreachable("Resend sent no data", apiKey);
    return data;
  }

  function knownId(id: string) {
    if (!DOMAIN_ID.test(id)) throw notFound();
    return id;
  }

  return {
    async createDomain(name, region) {
      const body = await call((resend, signal) =>
        resend.domains.create(
          {
            name,
            // Resend refuses a region it does not serve with 422 invalid_region; "" asks for its
            // default (us-east-1).
            region: (region || undefined) as CreateDomainOptions["region"],
          },
          { signal },
        ),
      );
      return senderDomain(body);
    },

    async getDomain(id) {
      const body = await call((resend, signal) => resend.domains.get(knownId(id), { signal }));
      return senderDomain(body);
    },

    async verifyDomain(id) {
      await call((resend, signal) => resend.domains.verify(knownId(id), { signal }));
    },

    async deleteDomain(id) {
      await call((resend, signal) => resend.domains.remove(knownId(id), { signal }));
    },
  };
}

function senderDomain(body: ResendDomainBody): SenderDomain {
  return {
    id: body.id,
    name: body.name,
    // A status added after this code was written reads as pending: not verified, not failed.
    status: STATUSES.has(body.status) ? (body.status as SenderDomainStatus) : "pending",
    region: body.region,
    createdAt: isoTime(body.created_at),
    records: (body.records ?? []).map((record): SenderDnsRecord => ({
      record: record.record,
      name: record.name,
      type: record.type,
      ttl: String(record.ttl),
      status: record.status,
      value: record.value,
      ...(typeof record.priority === "number" ? { priority: record.priority } : {}),
    })),
  };
}

/** Resend writes times the way PostgreSQL prints them ("2023-10-06 23:47:56.678+00"). */
function isoTime(value: string): string {
  const normalized = value
    .trim()
    .replace(" ", "T")
    .replace(/([+-]\d{2})$/, "$1:00");
  const ms = Date.parse(normalized);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

function invalidKey() {
  return new ProviderError("API key is invalid", {
    provider: "resend",
    status: 401,
    code: "invalid_api_key",
  });
}

function notFound() {
  return new ProviderError("Domain not found", {
    provider: "resend",
    status: 404,
    code: "not_found",
  });
}

function unreachable(message: string, apiKey: string) {
  const detail = redact(message, apiKey);
  return new ProviderError(`Resend could not be reached${detail ? `: ${detail}` : ""}`, {
    provider: "resend",
    code: "unreachable",
  });
}

function asProviderError(
  error: ErrorResponse,
  headers: Record<string, string> | null,
  apiKey: string,
): ProviderError {
  const status = typeof error.statusCode === "number" ? error.statusCode : null;
  const name = typeof error.name === "string" ? error.name : "";
  const message = redact(String(error.message ?? ""), apiKey);
  // No HTTP answer (network, timeout, a body the SDK could not read): retryable.
  if (status === null || status < 400) return unreachable(message, apiKey);
  // Resend says 403 invalid_api_key and 401 missing/restricted_api_key; callers read 401 as "the
  // key does not work", as for the other vendors.
  if (name === "invalid_api_key" || name === "missing_api_key" || name === "restricted_api_key") {
    return new ProviderError(message || "API key is invalid", {
      provider: "resend",
      status: 401,
      code: name,
    });
  }
  // A duplicate domain comes back as a validation error (403 or 422) worded "...registered
  // already": 409, so callers can say the domain exists.
  if ([403, 409, 422].includes(status) && ALREADY_REGISTERED.test(message)) {
    return httpProviderError("resend", 409, { message, code: "domain_exists" });
  }
  return httpProviderError("resend", status, {
    message,
    code: GENERIC_NAMES.has(name) ? null : name || null,
    retryAfter: headers?.["retry-after"],
  });
}

/** Resend does not quote keys in its messages; this keeps it so should that ever change. */
function redact(message: string, apiKey: string): string {
  const withoutKey = apiKey ? message.split(apiKey).join("[redacted]") : message;
  return withoutKey.replace(/\bre_[A-Za-z0-9_]{8,}/g, "[redacted]");
}
