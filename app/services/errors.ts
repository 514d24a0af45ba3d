/**
 * Typed domain errors. Services throw these and never see HTTP; `app/utils/http.server.ts` maps
 * them to responses in one place.
 */
export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
/** The caller is not signed in. */
export class UnauthorizedError extends DomainError {}
/** Signed in, but not allowed. */
export class ForbiddenError extends DomainError {}
/** Missing, or hidden from this caller (non-members get this rather than Forbidden). */
export class NotFoundError extends DomainError {}
/** The request clashes with the current state (already approved, already a member, ...). */
export class ConflictError extends DomainError {}
/** Bad input; `fieldErrors` holds messages to show next to each field. */
export class InvalidError extends DomainError {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
  ) {
    super(message);
  }
}
/**
 * An outside service (hosting, content studio) failed: 503 when trying again later may work,
 * else 502. `retryAfterSeconds` is the vendor's own wait, when it gave one.
 */
export class UpstreamError extends DomainError {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
/** A limit was reached; `field` names the form field the page shows the wait beside. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    readonly field?: string,
  ) {
    super(message);
  }
}
