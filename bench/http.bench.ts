/**
 * Benchmark 4: HTTP. Builds the app (`npm run build`), starts `node dist/examples/documents/main.js`
 * on a free loopback port, and loads the unprotected `GET /documents/:id` and the guarded
 * `GET /documents-protected-simple/:id` with autocannon, in alternating rounds, from this process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './build.bench.js';
import { EXAMPLE_MAIN, startExampleApp } from './example-app.js';
import type { BenchSettings } from './measure.js';

/** One loaded endpoint. */
export interface HttpEndpoint {
  readonly label: string;
  readonly path: string;
  /** The `x-user-id` header. */
  readonly userId: number;
}

/** The endpoints, unprotected first (the reference of the ratios). */
export const HTTP_ENDPOINTS: readonly HttpEndpoint[] = [
  { label: 'unprotected GET /documents/1', path: '/documents/1', userId: 5 },
  { label: 'guarded, SUPER_ADMIN (any; no isOwner call)', path: '/documents-protected-simple/1', userId: 5 },
  // The EMPLOYEE's ownership is one ownedAmong query (ownedDocumentsAmong), where it was one isCreator query before.
  { label: 'guarded, EMPLOYEE on own document (one ownership query, ownedAmong)', path: '/documents-protected-simple/1', userId: 1 },
];

export interface HttpEndpointResult extends HttpEndpoint {
  /** Mean over the rounds of autocannon's average requests per second. */
  readonly requestsPerSecond: number;
  /** Mean over the rounds of the p99 latency, ms. */
  readonly p99Ms: number;
  /** requestsPerSecond / the unprotected endpoint's. */
  readonly ratioToUnprotected: number;
  readonly rounds: readonly { readonly requestsPerSecond: number; readonly p99Ms: number; readonly non2xx: number; readonly errors: number }[];
}

export type HttpResult =
  | { readonly skipped: string }
  | {
      readonly endpoints: readonly HttpEndpointResult[];
      readonly connections: number;
      readonly durationSeconds: number;
      readonly warmupSeconds: number;
      readonly rounds: number;
      readonly command: string;
    };

/**
 * Runs benchmark 4, or says why it was skipped (smoke run, the app missing, the build failing).
 *
 * @example
 * ```ts
 * const http = await runHttpBench(benchSettings('full'), console.log);
 * ```
 */
export async function runHttpBench(settings: BenchSettings, log: (line: string) => void = () => undefined): Promise<HttpResult> {
  const http = settings.http;
  if (http === undefined) return { skipped: 'smoke run: the HTTP benchmark runs only in `npm run bench`' };
  if (!existsSync(join(REPO_ROOT, 'examples', 'documents', 'main.ts')))
    return { skipped: 'examples/documents/main.ts does not exist yet: the example app is not wired' };
  log('  npm run build …');
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0)
    return { skipped: `npm run build failed (exit ${build.status}): ${`${build.stdout}${build.stderr}`.split('\n').slice(-15).join('\n')}` };
  if (!existsSync(EXAMPLE_MAIN)) return { skipped: 'dist/examples/documents/main.js does not exist after npm run build' };

  const { default: autocannon } = await import('autocannon');
  const app = await startExampleApp();
  const { base } = app;
  try {
    for (const endpoint of HTTP_ENDPOINTS) {
      const response = await fetch(`${base}${endpoint.path}`, { headers: { 'x-user-id': String(endpoint.userId) } });
      if (response.status !== 200) return { skipped: `${endpoint.label} answered ${response.status}, not 200: ${(await response.text()).slice(0, 300)}` };
    }
    const load = (endpoint: HttpEndpoint, duration: number) =>
      autocannon({ url: `${base}${endpoint.path}`, connections: http.connections, duration, headers: { 'x-user-id': String(endpoint.userId) } });
    for (const endpoint of HTTP_ENDPOINTS) await load(endpoint, http.warmupSeconds);
    const rounds = new Map<HttpEndpoint, HttpEndpointResult['rounds'][number][]>(HTTP_ENDPOINTS.map((endpoint) => [endpoint, []]));
    // Two rounds in opposite orders, so that drift (JIT, GC, the database warming) does not favour one endpoint.
    for (const order of [HTTP_ENDPOINTS, [...HTTP_ENDPOINTS].reverse()]) {
      for (const endpoint of order) {
        const result = await load(endpoint, http.durationSeconds);
        const round = { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
        rounds.get(endpoint)?.push(round);
        log(
          `  http ${endpoint.label.padEnd(52)} ${round.requestsPerSecond.toFixed(0)} req/s, p99 ${round.p99Ms} ` +
            `ms${round.non2xx + round.errors > 0 ? `, ${round.non2xx} non-2xx, ${round.errors} errors` : ''}`,
        );
      }
    }
    const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const summarise = (endpoint: HttpEndpoint) => {
      const list = rounds.get(endpoint) ?? [];
      return { requestsPerSecond: mean(list.map((r) => r.requestsPerSecond)), p99Ms: mean(list.map((r) => r.p99Ms)), rounds: list };
    };
    const reference = summarise(HTTP_ENDPOINTS[0] as HttpEndpoint).requestsPerSecond;
    return {
      endpoints: HTTP_ENDPOINTS.map((endpoint) => {
        const summary = summarise(endpoint);
        return { ...endpoint, ...summary, ratioToUnprotected: summary.requestsPerSecond / reference };
      }),
      connections: http.connections,
      durationSeconds: http.durationSeconds,
      warmupSeconds: http.warmupSeconds,
      rounds: 2,
      command:
        `autocannon -c ${http.connections} -d ${http.durationSeconds} -H x-user-id=<id> ` +
        `http://127.0.0.1:<port><path> (programmatic, after a ${http.warmupSeconds} s warm-up per endpoint; app: ` +
        `PORT=<port> node dist/examples/documents/main.js)`,
    };
  } finally {
    await app.stop();
  }
}
