/**
 * Load on an HTTP endpoint, the way every HTTP benchmark applies it: autocannon, programmatically, from this
 * process. It is imported when first used, so that runs without HTTP never load it.
 */

/** What to load. */
export interface LoadRequest {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
}

/** What one round of load measured. */
export interface LoadRound {
  /** autocannon's average requests per second. */
  readonly requestsPerSecond: number;
  /** Latency percentiles, ms (autocannon's, whole milliseconds). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly serverErrors: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
}

/**
 * Loads `request.url` for `request.durationSeconds` with `request.connections` connections.
 *
 * @example
 * ```ts
 * const round = await loadEndpoint({ url: `${base}/documents/1`, connections: 10, durationSeconds: 5, headers: { 'x-user-id': '5' } });
 * round.requestsPerSecond;
 * ```
 */
export async function loadEndpoint(request: LoadRequest): Promise<LoadRound> {
  const { default: autocannon } = await import('autocannon');
  const { durationSeconds, headers, ...rest } = request;
  const result = await autocannon({ ...rest, duration: durationSeconds, headers: { ...headers } });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    serverErrors: result['5xx'],
    errors: result.errors,
  };
}
