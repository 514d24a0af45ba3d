/** A background job: a named pg-boss queue and the handler that works it. */
export type JobDefinition = {
  name: string;
  handler: (data: Record<string, unknown>) => Promise<void>;
  /** Optional cron expression: pg-boss enqueues the job on this schedule (once per cluster). */
  schedule?: string;
  /** Jobs taken at once by a process's worker (default 1); each completes or fails on its own. */
  batchSize?: number;
};
