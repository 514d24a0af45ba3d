import { ProviderError } from "~/providers/errors";

import { UpstreamError } from "./errors";
import { log } from "~/utils/logger.server";

type UpstreamClass = new (
  message: string,
  retryable: boolean,
  retryAfterSeconds?: number,
) => UpstreamError;

export type UpstreamOptions = {
  /** Logged at warn with the vendor's words as `reason`; they never reach members. */
  log?: { area: string; msg: string; [field: string]: unknown };
  /** Replaces the provider's own retryable (503 when true, else 502). */
  retryable?: boolean;
  /** false: the vendor's Retry-After is not passed on. */
  retryAfter?: false;
  /** The UpstreamError subclass callers recognise (HostingUnavailableError, ...). */
  errorClass?: UpstreamClass;
};

/**
 * The member-facing error for a provider's failure: `message`, 503 when the provider says trying
 * again may work (429, 5xx, no answer) else 502, with the vendor's Retry-After. Anything that is
 * not a ProviderError is our own bug or a typed error already, and is rethrown as it is:
 * `catch (error) { throw asUpstream(error, MESSAGES.failed) }`.
 */
export function asUpstream(
  error: unknown,
  message: string,
  options: UpstreamOptions = {},
): UpstreamError {
  if (!(error instanceof ProviderError)) throw error;
  if (options.log) {
    const { msg, ...fields } = options.log;
    log().warn({ ...fields, reason: error.message }, msg);
  }
  const ErrorClass = options.errorClass ?? UpstreamError;
  return new ErrorClass(
    message,
    options.retryable ?? error.retryable,
    options.retryAfter === false ? undefined : error.details.retryAfterSeconds,
  );
}

/** `call()`, its provider failure turned into the member-facing error (see asUpstream). */
export async function callProvider<T>(
  call: () => T | Promise<T>,
  message: string,
  options: UpstreamOptions = {},
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asUpstream(error, message, options);
  }
}
