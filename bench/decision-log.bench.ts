/**
 * Benchmark 10: what the decision log and OpenTelemetry cost a decision, timed in interleaved rounds (see
 * `interleavedRounds`), each pair of engines built from the same definitions:
 *
 * - `grantPermitSync` of an engine with a no-op `onDecision` sink against one without. Before each round the
 *   sink's queue is drained, untimed: the timed calls pay what a decision pays — queueing its permit — and not
 *   the delivery, which happens on a later turn, off the decision's path.
 * - A guarded decision (`grantPermitVia(query, 'express')`, what the integrations call) of an engine with
 *   telemetry on — `@opentelemetry/api` is installed here, and no SDK registered — against one with
 *   `telemetry: false`.
 *
 * Alone: `node --expose-gc --import tsx bench/decision-log.bench.ts [--smoke]`.
 */
import { pathToFileURL } from 'node:url';
import { Permissions, type PermissionDefinition } from '../runtime/permissions/index.js';
import { decisionLogSections, decisionLogTargets } from './decision-log.report.js';
import { benchSettings, interleavedRounds, type InterleavedSettings, type RoundTimes } from './measure.js';
import { getGc } from './memory.bench.js';
import type { BenchUser } from './peers/peer.js';
import { consoleReport } from './report.js';

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
}

function engine(options: ConstructorParameters<typeof Permissions<BenchUser>>[0]): Permissions<BenchUser> {
  return new Permissions<BenchUser>({ logger: { warn: () => undefined }, ...options }).addPermissions(DEFINITIONS).build();
}

/** Keeps results alive so that no call is optimised away. */
const kept: unknown[] = [undefined];

function compare(withFeature: RoundTimes, without: RoundTimes): DecisionLogComparison {
  return { with: withFeature, without, ratio: withFeature.medianNs / without.medianNs };
}

/**
 * Runs benchmark 10.
 *
 * @example
 * ```ts
 * const result = await runDecisionLogBench(benchSettings('smoke').decisionLog);
 * result.noopSink.ratio; // with a no-op sink ÷ without
 * ```
 */
export async function runDecisionLogBench(settings: InterleavedSettings, log: (line: string) => void = () => undefined): Promise<DecisionLogResult> {
  const gc = getGc();
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
  return { settings, noopSink: { ...compare(withSink, withoutSink), delivered, dropped }, tracingWithoutSdk: compare(tracing, noTracing) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runDecisionLogBench(benchSettings(process.argv.includes('--smoke') ? 'smoke' : 'full').decisionLog, console.log);
  console.log(consoleReport({ sections: decisionLogSections(result), targets: decisionLogTargets(result) }));
}
