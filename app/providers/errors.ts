/**
 * What a vendor adapter throws when the vendor says no. Jobs retry `retryable` errors (429, 5xx,
 * network) after `retryAfterSeconds`; the rest are permanent for that input.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly details: {
      provider: string;
      status?: number;
      code?: string;
      retryAfterSeconds?: number;
    },
  ) {
    super(message);
    this.name = "ProviderError";
  }

  get retryable() {
    const status = this.details.status;
    return status === undefined || status === 429 || status >= 500;
  }
}
