/**
 * What the decision log and OpenTelemetry cost a decision, timed in interleaved rounds (see
 * `interleavedRounds`), each pair of engines built from the same definitions:
 *
 * - `grantPermitSync` of an engine with a no-op `onDecision` sink against one without. Before each round the
 *   sink's queue is drained, untimed: the timed calls pay what a decision pays — queueing its permit — and not
 *   the delivery, which happens on a later turn, off the decision's path.
 * - A guarded decision (`grantPermitVia(query, 'express')`, what the integrations call) of an engine with
 *   telemetry on — `@opentelemetry/api` is installed here, and no SDK registered — against one with
 *   `telemetry: false`.
 *
 * - `grantPermitSync` whose permit's `reason` is read (a granted and a refused query in turn: the refusal asks the
 *   policy why) against `grantPermitSync` alone. The reason is a getter over what the permit holds: deciding does
 *   no work for it, so this measures what reading it costs.
 *
 * Targets: the no-op sink at most 1.1× without, the guarded decision without an SDK at most 1.03× telemetry off,
 * reading the reason at most 1.05× not reading it.
 * Alone: `node --expose-gc --import tsx bench/run.ts --only decisionLog [--smoke]`.
 */
import { Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { formatNs, formatRatio, roundTimesCells, table } from '../harness/format.js';
import type { BenchUser } from '../harness/peers/peer.js';
import { limitWhenMissed, type TargetVerdict } from '../harness/report.js';
import type { InterleavedSettings } from '../harness/settings.js';
import { Random } from '../harness/random.js';
import { interleavedRounds, type RoundTimes } from '../harness/timing.js';

const DEFINITIONS: readonly PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', grant: { 'list:any': ['title', 'date'], 'read:any': ['*', '!confidential'] } },
  { roles: ['EMPLOYEE_MANAGER'], resource: 'document', grant: ['approve:any', 'review:any'] },
];
const USER: BenchUser = { id: 1, roles: ['EMPLOYEE'] };
/** Granted and refused, in turn. */
const QUERIES = [
  { user: USER, resource: 'document', action: 'read', resourceId: 10 },
  { user: USER, resource: 'document', action: 'approve', resourceId: 10 },
] as const;

/** One comparison: the side with the feature against the side without. */
export interface DecisionLogComparison {
  readonly with: RoundTimes;
  readonly without: RoundTimes;
  /** with.medianNs / without.medianNs. */
  readonly ratio: number;
}

export interface DecisionLogResult {
  readonly settings: InterleavedSettings;
  /** grantPermitSync, with a no-op sink against without. */
  readonly noopSink: DecisionLogComparison & { readonly delivered: number; readonly dropped: number };
  /** A guarded decision, with `@opentelemetry/api` installed and no SDK against telemetry off. */
  readonly tracingWithoutSdk: DecisionLogComparison;
  /** grantPermitSync reading `permit.reason` against not reading it (absent from results recorded before reasons). */
  readonly reasons?: DecisionLogComparison;
}

function engine(options: ConstructorParameters<typeof Permissions<BenchUser>>[0]): Permissions<BenchUser> {
  return new Permissions<BenchUser>({ logger: { warn: () => undefined }, ...options }).addPermissions(DEFINITIONS).build();
}

/** How many times longer the reason's rounds are than the sink's, and the seed of their order. */
const REASON_ROUND_FACTOR = 40;
const REASON_SEED = 20261128;

/** Keeps results alive so that no call is optimised away. */
const kept: unknown[] = [undefined];

function compare(withFeature: RoundTimes, without: RoundTimes): DecisionLogComparison {
  return { with: withFeature, without, ratio: withFeature.medianNs / without.medianNs };
}

/** grantPermitSync with a no-op sink against without, then a guarded decision with tracing against without. */
async function run({ settings: { decisionLog: settings }, log, gc }: BenchContext): Promise<DecisionLogResult> {
  const plain = engine({ telemetry: false });
  const logged = engine({ telemetry: false, onDecision: () => undefined, decisionLog: { maxPending: 1_000_000 } });
  const sync = (permissions: Permissions<BenchUser>) => (iterations: number) => {
    for (let i = 0; i < iterations; i++) kept[0] = permissions.grantPermitSync(QUERIES[i & 1] as (typeof QUERIES)[number]);
  };
  const [withSink, withoutSink] = (await interleavedRounds(
    [
      { name: 'no-op sink', run: sync(logged), settle: async () => logged.decisionLog?.flush() },
      { name: 'no decision log', run: sync(plain) },
    ],
    settings,
    gc,
  )) as [RoundTimes, RoundTimes];
  await logged.decisionLog?.flush();
  const { delivered, dropped } = logged.decisionLog?.stats ?? { delivered: 0, dropped: 0 };
  log(`  grantPermitSync: no-op sink ${withSink.medianNs.toFixed(1)} ns, none ${withoutSink.medianNs.toFixed(1)} ns`);
  const tracingWithoutSdk = await compareTracing(settings, gc, log);
  const reasons = await compareReasons(plain, settings, gc, log);
  return { settings, noopSink: { ...compare(withSink, withoutSink), delivered, dropped }, tracingWithoutSdk, reasons };
}

/** grantPermitSync reading each permit's reason against grantPermitSync alone, on one engine. */
async function compareReasons(
  permissions: Permissions<BenchUser>,
  settings: InterleavedSettings,
  gc: () => void,
  log: (line: string) => void,
): Promise<DecisionLogComparison> {
  const reading = (iterations: number) => {
    for (let i = 0; i < iterations; i++) kept[0] = permissions.grantPermitSync(QUERIES[i & 1] as (typeof QUERIES)[number]).reason;
  };
  const deciding = (iterations: number) => {
    for (let i = 0; i < iterations; i++) kept[0] = permissions.grantPermitSync(QUERIES[i & 1] as (typeof QUERIES)[number]);
  };
  // Rounds long enough (40× the sink's, whose queue must be drained between rounds) that a timer's resolution and
  // the collection before each round do not decide a ratio of nanoseconds, in an order drawn afresh each round.
  const [withReason, withoutReason] = (await interleavedRounds(
    [
      { name: 'reason read', run: reading },
      { name: 'reason not read', run: deciding },
    ],
    { ...settings, iterationsPerRound: settings.iterationsPerRound * REASON_ROUND_FACTOR },
    gc,
    { shuffle: new Random(REASON_SEED) },
  )) as [RoundTimes, RoundTimes];
  log(`  grantPermitSync: reason read ${withReason.medianNs.toFixed(1)} ns, not read ${withoutReason.medianNs.toFixed(1)} ns`);
  return compare(withReason, withoutReason);
}

/** A guarded decision of an engine with telemetry on (the API installed, no SDK) against one with it off. */
async function compareTracing(settings: InterleavedSettings, gc: () => void, log: (line: string) => void): Promise<DecisionLogComparison> {
  const traced = engine({});
  const untraced = engine({ telemetry: false });
  const guarded = (permissions: Permissions<BenchUser>) => async (iterations: number) => {
    for (let i = 0; i < iterations; i++) kept[0] = await permissions.grantPermitVia(QUERIES[i & 1] as (typeof QUERIES)[number], 'express');
  };
  const [tracing, noTracing] = (await interleavedRounds(
    [
      { name: 'api, no SDK', run: guarded(traced) },
      { name: 'telemetry off', run: guarded(untraced) },
    ],
    settings,
    gc,
  )) as [RoundTimes, RoundTimes];
  log(`  guarded decision: @opentelemetry/api without SDK ${tracing.medianNs.toFixed(1)} ns, telemetry off ${noTracing.medianNs.toFixed(1)} ns`);
  return compare(tracing, noTracing);
}

export const NOOP_SINK_TARGET = 'grantPermitSync with a no-op onDecision sink ≤ 1.1× without';
export const TRACING_TARGET = 'Guarded decision with @opentelemetry/api installed and no SDK ≤ 1.03× telemetry off';
export const REASON_TARGET = 'grantPermitSync reading permit.reason ≤ 1.05× not reading it';

/** What the no-op sink's cost is, as profiled. */
const NOOP_SINK_LIMIT =
  "a logged decision copies its query, flags, sequence number and time into the queue's columns (no object is kept or allocated); " +
  'the hand-off costs ~25–30 ns, and without the stores a third to a half of it remains (the out-of-line call into the log and its queue) on a ~70 ns decision';

const rows = (what: string, withLabel: string, withoutLabel: string, c: DecisionLogComparison): string[][] => [
  [what, withLabel, ...roundTimesCells(c.with), formatRatio(c.ratio)],
  [what, withoutLabel, ...roundTimesCells(c.without), formatRatio(1)],
];

/** The decision-log section (none for results recorded before this benchmark existed). */
function sections(result: DecisionLogResult | undefined): string[] {
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
          ...(result.reasons === undefined ? [] : rows('grantPermitSync', 'permit.reason read', 'permit.reason not read', result.reasons)),
        ],
      )}\n\nEvents delivered to the no-op sink: ${noopSink.delivered}; dropped: ${noopSink.dropped}. The reason's rounds are ` +
      `${REASON_ROUND_FACTOR}× longer (${settings.iterationsPerRound * REASON_ROUND_FACTOR} decisions), their sides in an order drawn afresh each round.`,
  ];
}

/** The decision-log targets. */
function targets(result: DecisionLogResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  const verdict = (target: string, c: DecisionLogComparison, limit: number, missedBecause?: string): TargetVerdict => ({
    target,
    measured: `${formatRatio(c.ratio)} (${formatNs(c.with.medianNs)} vs ${formatNs(c.without.medianNs)})`,
    met: c.ratio <= limit,
    ...(missedBecause === undefined ? {} : limitWhenMissed(c.ratio <= limit, missedBecause)),
  });
  return [
    verdict(NOOP_SINK_TARGET, result.noopSink, 1.1, NOOP_SINK_LIMIT),
    verdict(TRACING_TARGET, result.tracingWithoutSdk, 1.03),
    ...(result.reasons === undefined ? [] : [verdict(REASON_TARGET, result.reasons, 1.05)]),
  ];
}

/** The decision log and OpenTelemetry, interleaved. */
export const decisionLogBenchmark: Benchmark<DecisionLogResult> = { title: 'decision log and OpenTelemetry, interleaved', run, sections, targets };
