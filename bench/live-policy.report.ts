/**
 * The live policy in the report: the swap time of the largest tables, propagation to three instances (notified)
 * and to one that only polls, and the p99 of requests during swaps against without; and their targets.
 */
import type { LivePolicyResult } from './live-policy.bench.js';
import { formatBytes, formatMs, formatRatio, table, type TargetVerdict } from './report.js';

export const PROPAGATION_TARGET = 'Live policy: propagation p99 to three instances ≤ 1 s with notifications';
export const POLLED_TARGET = 'Live policy: propagation p99 without notifications ≤ the poll interval';
export const SWAP_REQUESTS_TARGET = 'Live policy: request p99 during swaps ≤ 1.1× without';

const ms = (value: number): string => formatMs(Math.max(value, 0.001));

function propagationSection(result: LivePolicyResult['propagation']): string {
  if ('skipped' in result) return `Propagation of a publish: not measured (${result.skipped}).`;
  const { notified, polled } = result;
  const intro =
    `Propagation of a publish (${result.server}), from the publishing commit to the instance's change, each instance stamping its own: ` +
    `${notified.publishes} publishes to ${notified.instances} notified instances, ${polled.publishes} to one that only polls every ` +
    `${formatMs(polled.pollIntervalMs)} (published at a seeded random point of its interval):`;
  return `${intro}\n\n${table(
    ['instances', 'publishes', 'p50', 'p99', 'max'],
    [
      [`${notified.instances}, LISTEN/NOTIFY`, String(notified.publishes), ms(notified.p50Ms), ms(notified.p99Ms), ms(notified.maxMs)],
      [`${polled.instances}, poll every ${formatMs(polled.pollIntervalMs)}`, String(polled.publishes), ms(polled.p50Ms), ms(polled.p99Ms), ms(polled.maxMs)],
    ],
  )}`;
}

function requestsSection(result: LivePolicyResult['requests']): string {
  if ('skipped' in result) return `Requests during swaps: not measured (${result.skipped}).`;
  const intro =
    `Requests during swaps: ${result.endpoint}, autocannon -c ${result.connections} for ${result.durationSeconds} s per round, rounds without ` +
    `swaps and rounds during which the policy file is replaced (write and rename) every ${result.swapIntervalMs} ms, in ABBA order:`;
  return `${intro}\n\n${table(
    ['round', 'swapping', 'req/s', 'p99', 'non-2xx + errors', 'versions activated'],
    result.rounds.map((round, i) => [
      String(i + 1),
      round.swapping ? 'yes' : 'no',
      round.requestsPerSecond.toFixed(0),
      `${round.p99Ms} ms`,
      String(round.non2xx + round.errors),
      String(round.swapsTaken),
    ]),
  )}\n\nMean p99 without swaps ${result.quietP99Ms} ms, during swaps ${result.swappingP99Ms} ms: ${formatRatio(result.ratio)}.`;
}

/**
 * The live-policy sections (none for results recorded before this benchmark existed).
 *
 * @example
 * ```ts
 * livePolicySections(results.livePolicy)[0]; // 'Live policy swap: …'
 * ```
 */
export function livePolicySections(result: LivePolicyResult | undefined): string[] {
  if (result === undefined) return [];
  const { swap } = result;
  return [
    `Live policy swap, from "the source changed" to the new version active (parse, hash check, vocabulary and hook checks, indexing, ` +
      `one assignment), ${swap.swaps} swaps between two versions of the ${swap.scale}× scenario's tables (${swap.cells} cells, ` +
      `${formatBytes(swap.bundleBytes)} of JSON): median ${ms(swap.medianMs)}, p99 ${ms(swap.p99Ms)}, max ${ms(swap.maxMs)}.`,
    propagationSection(result.propagation),
    requestsSection(result.requests),
  ];
}

/**
 * The live-policy targets.
 *
 * @example
 * ```ts
 * livePolicyTargets(results.livePolicy).map((verdict) => verdict.met); // [true, true, true]
 * ```
 */
export function livePolicyTargets(result: LivePolicyResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  const { propagation, requests } = result;
  const notMeasured = (target: string): TargetVerdict => ({ target, measured: 'not measured', met: undefined });
  const verdicts: TargetVerdict[] = [];
  if ('skipped' in propagation) verdicts.push(notMeasured(PROPAGATION_TARGET), notMeasured(POLLED_TARGET));
  else
    verdicts.push(
      {
        target: PROPAGATION_TARGET,
        measured: `p99 ${ms(propagation.notified.p99Ms)} (p50 ${ms(propagation.notified.p50Ms)})`,
        met: propagation.notified.p99Ms <= 1000,
      },
      {
        target: POLLED_TARGET,
        measured: `p99 ${ms(propagation.polled.p99Ms)}, poll every ${formatMs(propagation.polled.pollIntervalMs)}`,
        met: propagation.polled.p99Ms <= propagation.polled.pollIntervalMs,
      },
    );
  if ('skipped' in requests) verdicts.push(notMeasured(SWAP_REQUESTS_TARGET));
  else {
    const clean = requests.rounds.every((round) => round.non2xx + round.errors === 0);
    verdicts.push({
      target: SWAP_REQUESTS_TARGET,
      measured: `${formatRatio(requests.ratio)} (${requests.swappingP99Ms} ms vs ${requests.quietP99Ms} ms)${clean ? '' : '; SOME REQUESTS FAILED'}`,
      met: requests.ratio <= 1.1 && clean,
    });
  }
  return verdicts;
}
