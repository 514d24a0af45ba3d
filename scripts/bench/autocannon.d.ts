// The part of autocannon's API the benchmark uses (it ships no types of its own). Written here,
// not taken from @types/autocannon, whose releases follow autocannon's only loosely: a field the
// bench reads that this does not name fails `npm run typecheck`.
declare module "autocannon" {
  /** One request as autocannon sends it; setupRequest may change it. */
  type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  };

  type Options = {
    url: string;
    method?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Requests per second over all connections. */
    overallRate?: number;
    /** Requests in all (instead of a duration). */
    amount?: number;
    headers?: Record<string, string>;
    body?: string;
    requests?: { setupRequest?: (request: Request) => Request }[];
  };

  /** Milliseconds, or requests per second, as autocannon's summary gives them. */
  type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  };

  type Result = {
    latency: Histogram;
    requests: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats?: Record<string, { count: number }>;
  };

  type Instance = { stop: () => void };

  function autocannon(
    options: Options,
    callback: (error: Error | null, result: Result) => void,
  ): Instance;

  export default autocannon;
  export type { Options, Result };
}
