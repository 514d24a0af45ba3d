/**
 * Turning a vendor's "no" into a ProviderError: a stable code per HTTP status and the wait before
 * a retry, from Retry-After (seconds or an HTTP date) or X-RateLimit-Reset (Unix seconds).
 */
import { ProviderError } from "../errors";

const CODES: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  402: "payment_required",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  410: "gone",
  422: "unprocessable",
  429: "rate_limited",
};

export function codeForStatus(status: number) {
  return CODES[status] ?? (status >= 500 ? "vendor_unavailable" : "vendor_error");
}

/** Used when a 429 carries neither header: both vendors' windows are a minute long. */
export const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 60;

export function retryAfterSeconds(
  headers: { retryAfter?: string | null; rateLimitReset?: string | null },
  now: number = Date.now(),
): number | undefined {
  const { retryAfter, rateLimitReset } = headers;
  if (retryAfter) {
    const trimmed = retryAfter.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed));
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - now) / 1000));
  }
  if (rateLimitReset && /^\d+(\.\d+)?$/.test(rateLimitReset.trim())) {
    return Math.max(0, Math.ceil(Number(rateLimitReset) - now / 1000));
  }
  return undefined;
}

export function httpProviderError(
  provider: string,
  status: number,
  details: {
    message?: string | null;
    code?: string | null;
    retryAfter?: string | null;
    rateLimitReset?: string | null;
  },
): ProviderError {
  let wait = retryAfterSeconds(details);
  if (wait === undefined && status === 429) wait = DEFAULT_RATE_LIMIT_WAIT_SECONDS;
  return new ProviderError(details.message || `${provider} answered HTTP ${status}`, {
    provider,
    status,
    code: details.code || codeForStatus(status),
    ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
  });
}
