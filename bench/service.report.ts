/**
 * The decision service in the report: latency and throughput of batches of 1 and 100 checks over HTTP, beside
 * the embedded cost of the same checks; and its targets.
 */
import { roundTripMs, type ServiceResult, type ServiceRun } from './service.bench.js';
import { formatNs, formatRatio, limitWhenMissed, table, type TargetVerdict } from './report.js';

export const BATCH_TARGET = 'Decision service: a batch of 100 checks ≤ 2× the round trip of a batch of 1 (round trip, one connection)';
/** What the batch of 100 costs beyond the round trip, as profiled. */
const BATCH_LIMIT =
  'a batch of 100 is about 12 KB in and 40 KB out: parsing and validating 100 checks and serializing 100 answers cost about ' +
  '0.2 ms in the service; deciding them is about 50 µs of it (the embedded row)';

export const NO_5XX_TARGET = 'Decision service: no 5xx and no connection error under load';

const shownRoundTrip = (run: ServiceRun | undefined): string => (run === undefined ? '?' : `${roundTripMs(run).toFixed(3)} ms`);

const runOf = (runs: readonly ServiceRun[], batch: number, connections: number): ServiceRun | undefined =>
  runs.find((run) => run.batch === batch && run.connections === connections);

/**
 * The service section.
 *
 * @example
 * ```ts
 * serviceSections(results.service)[0]; // 'Decision service, …'
 * ```
 */
export function serviceSections(result: ServiceResult | undefined): string[] {
  if (result === undefined) return [];
  if ('skipped' in result) return [`Decision service: not measured (${result.skipped}).`];
  const embeddedPerSecond = 1e9 / result.embeddedNsPerCheck;
  return [
    `Decision service (${result.command}), ${result.durationSeconds} s per run; checks per second are the service's, one process ` +
      `(one core of JavaScript); the round trip is connections ÷ requests per second; the embedded row answers the same batch of 100 in ` +
      `this process with the function the service uses:\n\n${table(
        ['batch', 'connections', 'req/s', 'checks/s', 'round trip', 'p50', 'p99', 'non-2xx', '5xx', 'errors'],
        [
          ...result.runs.map((run) => [
            String(run.batch),
            String(run.connections),
            run.requestsPerSecond.toFixed(0),
            run.checksPerSecond.toFixed(0),
            `${roundTripMs(run).toFixed(3)} ms`,
            `${run.p50Ms} ms`,
            `${run.p99Ms} ms`,
            String(run.non2xx),
            String(run.serverErrors),
            String(run.errors),
          ]),
          ['100, embedded', '—', '—', embeddedPerSecond.toFixed(0), formatNs(result.embeddedNsPerCheck * 100), '—', '—', '—', '—', '—'],
        ],
      )}`,
  ];
}

/**
 * The service targets.
 *
 * @example
 * ```ts
 * serviceTargets(results.service).map((verdict) => verdict.met);
 * ```
 */
export function serviceTargets(result: ServiceResult | undefined): TargetVerdict[] {
  if (result === undefined || 'skipped' in result) return [];
  const one = runOf(result.runs, 1, 1);
  const hundred = runOf(result.runs, 100, 1);
  const ratio = one === undefined || hundred === undefined ? Number.NaN : roundTripMs(hundred) / roundTripMs(one);
  const failures = result.runs.reduce((sum, run) => sum + run.serverErrors + run.errors, 0);
  return [
    {
      target: BATCH_TARGET,
      measured: `${formatRatio(ratio)} (round trip ${shownRoundTrip(hundred)} vs ${shownRoundTrip(one)})`,
      met: ratio <= 2,
      ...limitWhenMissed(ratio <= 2, BATCH_LIMIT),
    },
    { target: NO_5XX_TARGET, measured: `${failures} 5xx or errors in ${result.runs.length} runs`, met: failures === 0 },
  ];
}
