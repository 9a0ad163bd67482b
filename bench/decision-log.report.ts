/**
 * The decision log and OpenTelemetry in the report: per-call median, p95 and p99 of the round means with and
 * without each, their ratios, and the targets.
 */
import type { DecisionLogComparison, DecisionLogResult } from './decision-log.bench.js';
import { formatNs, formatRatio, limitWhenMissed, table, type TargetVerdict } from './report.js';

export const NOOP_SINK_TARGET = 'grantPermitSync with a no-op onDecision sink ≤ 1.1× without';
export const TRACING_TARGET = 'Guarded decision with @opentelemetry/api installed and no SDK ≤ 1.03× telemetry off';

/** What the no-op sink's cost is, as profiled. */
const NOOP_SINK_LIMIT =
  "a logged decision copies its query, flags, sequence number and time into the queue's columns (no object is kept or allocated); " +
  'the hand-off costs ~25–30 ns, and without the stores a third to a half of it remains (the out-of-line call into the log and its queue) on a ~70 ns decision';

const rows = (what: string, withLabel: string, withoutLabel: string, c: DecisionLogComparison): string[][] => [
  [what, withLabel, formatNs(c.with.medianNs), formatNs(c.with.p95Ns), formatNs(c.with.p99Ns), formatRatio(c.ratio)],
  [what, withoutLabel, formatNs(c.without.medianNs), formatNs(c.without.p95Ns), formatNs(c.without.p99Ns), formatRatio(1)],
];

/**
 * The decision-log section (none for results recorded before this benchmark existed).
 *
 * @example
 * ```ts
 * decisionLogSections(results.decisionLog)[0]; // 'Decision log and OpenTelemetry, interleaved: …'
 * ```
 */
export function decisionLogSections(result: DecisionLogResult | undefined): string[] {
  if (result === undefined) return [];
  const { settings, noopSink, tracingWithoutSdk } = result;
  return [
    `Decision log and OpenTelemetry, interleaved: ${settings.rounds} rounds of ${settings.iterationsPerRound} decisions per side in ` +
      `alternation after ${settings.warmupRounds} warm-up rounds, a granted and a refused query in turn; the sink's queue drained before ` +
      `each round, untimed (delivery happens on a later turn, off the decision's path) — per call, median / p95 / p99 of the round means:\n\n${table(
        ['decision', 'engine', 'median', 'p95', 'p99', 'ratio (medians)'],
        [
          ...rows('grantPermitSync', 'onDecision: () => {}', 'no onDecision', noopSink),
          ...rows("grantPermitVia(query, 'express')", '@opentelemetry/api, no SDK', 'telemetry: false', tracingWithoutSdk),
        ],
      )}\n\nEvents delivered to the no-op sink: ${noopSink.delivered}; dropped: ${noopSink.dropped}.`,
  ];
}

/**
 * The decision-log targets.
 *
 * @example
 * ```ts
 * decisionLogTargets(results.decisionLog).map((verdict) => verdict.met); // [true, true]
 * ```
 */
export function decisionLogTargets(result: DecisionLogResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  const verdict = (target: string, c: DecisionLogComparison, limit: number, missedBecause?: string): TargetVerdict => ({
    target,
    measured: `${formatRatio(c.ratio)} (${formatNs(c.with.medianNs)} vs ${formatNs(c.without.medianNs)})`,
    met: c.ratio <= limit,
    ...(missedBecause === undefined ? {} : limitWhenMissed(c.ratio <= limit, missedBecause)),
  });
  return [verdict(NOOP_SINK_TARGET, result.noopSink, 1.1, NOOP_SINK_LIMIT), verdict(TRACING_TARGET, result.tracingWithoutSdk, 1.03)];
}
