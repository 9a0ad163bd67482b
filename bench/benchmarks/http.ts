/**
 * HTTP. Builds the app (`npm run build`), starts `node dist/examples/documents/main.js`
 * on a free loopback port, and loads the unprotected `GET /documents/:id` and the guarded
 * `GET /documents-protected-simple/:id` with autocannon, in alternating rounds, from this process. The target: a
 * guarded endpoint keeps at least 85% of the unprotected one's rate.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, BenchContext, Skipped } from '../harness/benchmark.js';
import { EXAMPLE_MAIN, startExampleApp } from '../harness/example-app.js';
import { formatRatio, table } from '../harness/format.js';
import { loadEndpoint } from '../harness/load.js';
import { limitWhenMissed, type TargetVerdict } from '../harness/report.js';
import { REPO_ROOT } from '../harness/repository.js';
import type { LoadSettings } from '../harness/settings.js';
import { mean } from '../harness/statistics.js';

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

/** One round of load on one endpoint. */
export type HttpRound = HttpEndpointResult['rounds'][number];

export type HttpResult =
  | Skipped
  | {
      readonly endpoints: readonly HttpEndpointResult[];
      readonly connections: number;
      readonly durationSeconds: number;
      readonly warmupSeconds: number;
      readonly rounds: number;
      readonly command: string;
    };

/** Why the benchmark cannot run here, if it cannot: the example app missing, or `npm run build` failing. */
function buildTheApp(log: (line: string) => void): Skipped | undefined {
  if (!existsSync(join(REPO_ROOT, 'examples', 'documents', 'main.ts')))
    return { skipped: 'examples/documents/main.ts does not exist yet: the example app is not wired' };
  log('  npm run build …');
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0)
    return { skipped: `npm run build failed (exit ${build.status}): ${`${build.stdout}${build.stderr}`.split('\n').slice(-15).join('\n')}` };
  if (!existsSync(EXAMPLE_MAIN)) return { skipped: 'dist/examples/documents/main.js does not exist after npm run build' };
  return undefined;
}

/** One round of load on `endpoint`. */
async function loadRound(base: string, endpoint: HttpEndpoint, connections: number, durationSeconds: number): Promise<HttpRound> {
  const round = await loadEndpoint({ url: `${base}${endpoint.path}`, connections, durationSeconds, headers: { 'x-user-id': String(endpoint.userId) } });
  return { requestsPerSecond: round.requestsPerSecond, p99Ms: round.p99Ms, non2xx: round.non2xx, errors: round.errors };
}

/** A warm-up per endpoint, then two rounds in opposite orders, so that drift (JIT, GC, the database warming) does not favour one endpoint. */
async function loadRounds(base: string, load: LoadSettings, log: (line: string) => void): Promise<Map<HttpEndpoint, HttpRound[]>> {
  for (const endpoint of HTTP_ENDPOINTS) await loadRound(base, endpoint, load.connections, load.warmupSeconds);
  const rounds = new Map<HttpEndpoint, HttpRound[]>(HTTP_ENDPOINTS.map((endpoint) => [endpoint, []]));
  for (const order of [HTTP_ENDPOINTS, [...HTTP_ENDPOINTS].reverse()]) {
    for (const endpoint of order) {
      const round = await loadRound(base, endpoint, load.connections, load.durationSeconds);
      rounds.get(endpoint)?.push(round);
      log(
        `  http ${endpoint.label.padEnd(52)} ${round.requestsPerSecond.toFixed(0)} req/s, p99 ${round.p99Ms} ` +
          `ms${round.non2xx + round.errors > 0 ? `, ${round.non2xx} non-2xx, ${round.errors} errors` : ''}`,
      );
    }
  }
  return rounds;
}

/** Each endpoint's mean over its rounds, and its ratio to the unprotected one. */
function summarise(rounds: ReadonlyMap<HttpEndpoint, HttpRound[]>): HttpEndpointResult[] {
  const summaries = HTTP_ENDPOINTS.map((endpoint) => {
    const list = rounds.get(endpoint) ?? [];
    return { ...endpoint, requestsPerSecond: mean(list.map((r) => r.requestsPerSecond)), p99Ms: mean(list.map((r) => r.p99Ms)), rounds: list };
  });
  const reference = summaries[0]?.requestsPerSecond ?? Number.NaN;
  return summaries.map((summary) => ({ ...summary, ratioToUnprotected: summary.requestsPerSecond / reference }));
}

/** Builds and starts the app, checks that every endpoint answers 200, then loads them; or says why it was skipped. */
async function run({ settings, log }: BenchContext): Promise<HttpResult> {
  const load = settings.http;
  if (load === undefined) return { skipped: 'smoke run: the HTTP benchmark runs only in `npm run bench`' };
  const cannot = buildTheApp(log);
  if (cannot !== undefined) return cannot;
  const app = await startExampleApp();
  try {
    for (const endpoint of HTTP_ENDPOINTS) {
      const response = await fetch(`${app.base}${endpoint.path}`, { headers: { 'x-user-id': String(endpoint.userId) } });
      if (response.status !== 200) return { skipped: `${endpoint.label} answered ${response.status}, not 200: ${(await response.text()).slice(0, 300)}` };
    }
    const endpoints = summarise(await loadRounds(app.base, load, log));
    return {
      endpoints,
      connections: load.connections,
      durationSeconds: load.durationSeconds,
      warmupSeconds: load.warmupSeconds,
      rounds: 2,
      command:
        `autocannon -c ${load.connections} -d ${load.durationSeconds} -H x-user-id=<id> ` +
        `http://127.0.0.1:<port><path> (programmatic, after a ${load.warmupSeconds} s warm-up per endpoint; app: ` +
        `PORT=<port> node dist/examples/documents/main.js)`,
    };
  } finally {
    await app.stop();
  }
}

const TARGET = 'Guarded endpoint at least 85% of the unprotected one’s requests per second';

/** The HTTP sections: the endpoint table and the load command, or why it was skipped. */
function sections(http: HttpResult | undefined): string[] {
  if (http === undefined) return [];
  if ('skipped' in http) return [`HTTP: skipped — ${http.skipped}`];
  return [
    `HTTP — ${http.connections} connections, ${http.durationSeconds} s per endpoint and round, ${http.rounds} rounds ` +
      `in alternating order (mean shown):\n\n${table(
        ['endpoint', 'x-user-id', 'req/s', 'p99', 'ratio to unprotected', 'non-2xx / errors'],
        http.endpoints.map((e) => [
          e.label,
          String(e.userId),
          e.requestsPerSecond.toFixed(0),
          `${e.p99Ms.toFixed(1)} ms`,
          formatRatio(e.ratioToUnprotected),
          e.rounds.map((r) => `${r.non2xx}/${r.errors}`).join(', '),
        ]),
      )}`,
    `Load: ${http.command}`,
  ];
}

/**
 * The HTTP targets: each guarded endpoint at least 85% of the unprotected one's requests per second
 * (not measured when the benchmark was skipped).
 */
function targets(http: HttpResult | undefined): TargetVerdict[] {
  if (http === undefined) return [];
  if ('skipped' in http) return [{ target: TARGET, measured: `skipped: ${http.skipped}`, met: undefined }];
  return http.endpoints.slice(1).map((endpoint) => {
    const met = endpoint.ratioToUnprotected >= 0.85;
    return {
      target: `${TARGET} — ${endpoint.label}`,
      measured:
        `${(endpoint.ratioToUnprotected * 100).toFixed(1)}% (${endpoint.requestsPerSecond.toFixed(0)} vs ` +
        `${http.endpoints[0]?.requestsPerSecond.toFixed(0)} req/s)`,
      met,
      ...limitWhenMissed(met, 'See "What limits the missed targets" below: HTTP.'),
    };
  });
}

/** HTTP: the example app's guarded endpoints against the unprotected one. */
export const httpBenchmark: Benchmark<HttpResult> = { title: 'HTTP', run, sections, targets };
