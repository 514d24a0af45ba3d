/**
 * Typed business errors. Services throw these and never see HTTP; `app/web/http.server.ts` maps
 * them to responses in one place. ServiceError is their base (DomainError before 2026-11, which
 * read as 'custom domain' in the domains code).
 */
export type FieldErrors = Record<string, string[]>;

export class ServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
/** The caller is not signed in. */
export class UnauthorizedError extends ServiceError {}
/** Signed in, but not allowed. */
export class ForbiddenError extends ServiceError {}
/** Missing, or hidden from this caller (non-members get this rather than Forbidden). */
export class NotFoundError extends ServiceError {}
/** The request clashes with the current state (already approved, already a member, ...). */
export class ConflictError extends ServiceError {}
/** Bad input; `fieldErrors` holds messages to show next to each field. */
export class InvalidError extends ServiceError {
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
export class UpstreamError extends ServiceError {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
/** A limit was reached; `field` names the form field the page shows the wait beside. */
export class RateLimitedError extends ServiceError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    readonly field?: string,
  ) {
    super(message);
  }
}
