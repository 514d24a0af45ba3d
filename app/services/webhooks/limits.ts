/**
 * The webhooks' limits per project (docs/configuration.md, Limits). Each number sits between
 * what a busy team needs and what an abuser would want.
 */

/** Busy team: CI, chat and a monitoring tool, each once per environment: 5. Abuser: hundreds. */
export const MAX_WEBHOOKS_PER_PROJECT = 10;

/**
 * Busy team: 20 deployments an hour x 4 deployment events x 5 webhooks = 400, plus form
 * submissions. Abuser: a form flooded to turn this server into a request cannon, 10,000s.
 * Deliveries beyond it are logged as skipped, not sent.
 */
export const MAX_DELIVERIES_PER_HOUR = 1000;

/** Deliveries are retried with backoff for this long after the event. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A webhook whose deliveries have all failed for this long is switched off. */
export const FAILING_DAYS_BEFORE_OFF = 3;

/** The wait before attempt `n + 1`: 30 s, doubling, at most 3 hours. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 3 * 60 * 60);
}
