/**
 * The benchmarks of `npm run bench`: the list in report order, the order they run in and why, and what one run
 * records (bench/results.json).
 */
import type { Kysely } from 'kysely';
import { createSeededDatabase } from '../examples/documents/database.js';
import type { ExampleDatabase } from '../examples/documents/example-database.js';
import { attributesBenchmark } from './benchmarks/attributes.js';
import { awaitedPickBenchmark } from './benchmarks/awaited-pick.js';
import { buildBenchmark } from './benchmarks/build.js';
import { decisionLogBenchmark } from './benchmarks/decision-log.js';
import { decisionBenchmark } from './benchmarks/decision.js';
import { httpBenchmark } from './benchmarks/http.js';
import { listFiltersBenchmark } from './benchmarks/list-filters.js';
import { livePolicyPropagationBenchmark } from './benchmarks/live-policy-propagation.js';
import { livePolicyRequestsBenchmark } from './benchmarks/live-policy-requests.js';
import { livePolicySwapBenchmark } from './benchmarks/live-policy-swap.js';
import { memoryBenchmark } from './benchmarks/memory.js';
import { ownershipBenchmark } from './benchmarks/ownership.js';
import { packageBenchmark } from './benchmarks/package.js';
import { scaleBenchmark } from './benchmarks/scale.js';
import { serviceBenchmark } from './benchmarks/service.js';
import { tenantsBenchmark } from './benchmarks/tenants.js';
import { replayBenchmark } from './benchmarks/replay.js';
import { benchmarkOfParts, type Benchmark, type BenchContext } from './harness/benchmark.js';
import { describeMachine, type Machine } from './harness/machine.js';
import { createScenario, type Scale } from './harness/scenario.js';
import type { BenchSettings } from './harness/settings.js';
import { createSubjects, type BenchSubjects } from './harness/subjects.js';
import { getGc } from './harness/timing.js';

/** Every benchmark, by the key of its results in results.json, in report order. */
export const BENCHMARKS = {
  decision: decisionBenchmark,
  attributes: attributesBenchmark,
  awaitedPick: awaitedPickBenchmark,
  build: buildBenchmark,
  http: httpBenchmark,
  memory: memoryBenchmark,
  package: packageBenchmark,
  ownership: ownershipBenchmark,
  listFilters: listFiltersBenchmark,
  livePolicy: benchmarkOfParts('live policy', {
    swap: livePolicySwapBenchmark,
    propagation: livePolicyPropagationBenchmark,
    requests: livePolicyRequestsBenchmark,
  }),
  decisionLog: decisionLogBenchmark,
  service: serviceBenchmark,
  scale: scaleBenchmark,
  tenants: tenantsBenchmark,
  replay: replayBenchmark,
} as const;

export type BenchmarkName = keyof typeof BENCHMARKS;

/**
 * The order they run in, each for a reason:
 * - the awaited pick first, as when it runs alone: the later benchmarks run CASL's permittedFieldsOf and Permit.pick
 *   over other rules and records, which makes their call sites polymorphic (after them, CASL's side measured ~1.6×
 *   slower);
 * - the live policy after HTTP: its requests during swaps load the app that HTTP built;
 * - the tenants after the scale (both build large tables), and before PGlite: they measure the heap too;
 * - ownership on PGlite, then the list filters (a generated Prisma client, and PGlite in the smoke run) last: neither
 *   PGlite's WASM heap nor the Prisma client may sit in the process while memory is measured.
 */
export const RUN_ORDER: readonly BenchmarkName[] = [
  'awaitedPick',
  'decision',
  'decisionLog',
  'attributes',
  'build',
  'memory',
  'http',
  'package',
  'service',
  'livePolicy',
  'scale',
  'tenants',
  'replay',
  'ownership',
  'listFilters',
];

type ResultOf<TBenchmark> = TBenchmark extends Benchmark<infer TResult> ? TResult : never;

/** Every benchmark's results, by its key. */
export type BenchmarkResults = { readonly [K in BenchmarkName]: ResultOf<(typeof BENCHMARKS)[K]> };

/** Size of one scenario, as built. */
export interface ScenarioSize {
  readonly scale: Scale;
  readonly roles: number;
  readonly resources: number;
  readonly actions: number;
  readonly definitions: number;
  readonly cells: number;
}

/** How, when and where a run was made. */
export interface RunDescription {
  readonly mode: 'full' | 'smoke';
  readonly command: string;
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly machine: Machine;
  readonly scenarios: readonly ScenarioSize[];
}

/** What one run measured. */
export type BenchResults = RunDescription & BenchmarkResults;

/** What a results.json may hold: the results of a benchmark added after it was recorded are absent. */
export type RecordedResults = RunDescription & Partial<BenchmarkResults>;

/** What `npm run bench` runs. */
export const BENCH_SCRIPT = 'node --expose-gc --import tsx bench/run.ts';
/** The command recorded in results.json. */
export const BENCH_COMMAND = `npm run bench   # = ${BENCH_SCRIPT}`;

/**
 * What every benchmark of a run is given: the settings, the subjects of every scale it measures — 1× and 10×, or
 * 1× alone in the smoke run —, and where a new seeded example database comes from (`createSeededDatabase`, unless
 * the caller has a faster source of the same data).
 *
 * @example
 * ```ts
 * const context = createContext(benchSettings('full'), console.log);
 * ```
 */
export function createContext(
  settings: BenchSettings,
  log: (line: string) => void,
  seededDatabase: () => Promise<Kysely<ExampleDatabase>> = createSeededDatabase,
): BenchContext {
  const scales: readonly Scale[] = settings.smoke ? [1] : [1, 10];
  const gc = settings.smoke ? () => undefined : getGc();
  return { settings, subjects: scales.map((scale) => createSubjects(createScenario(scale))), log, seededDatabase, gc };
}

function sizeOf({ scenario, universe, permissions }: BenchSubjects): ScenarioSize {
  const { roles, resources, actions } = universe;
  return {
    scale: scenario.scale,
    roles: roles.length,
    resources: resources.length,
    actions: actions.length,
    definitions: scenario.definitions.length,
    cells: permissions.tables.cells.length,
  };
}

/**
 * Runs every benchmark in run order with `settings`, and returns what they measured; writes nothing. Throws when a
 * benchmark is not in the run order, so that none is left out of the report. `seededDatabase` is as in
 * {@link createContext}.
 *
 * @example
 * ```ts
 * const results = await runBenchmarks(benchSettings('smoke'));
 * results.decision.disagreements; // []
 * ```
 */
export async function runBenchmarks(
  settings: BenchSettings,
  log: (line: string) => void = () => undefined,
  seededDatabase?: () => Promise<Kysely<ExampleDatabase>>,
): Promise<BenchResults> {
  const missing = Object.keys(BENCHMARKS).filter((name) => !RUN_ORDER.includes(name as BenchmarkName));
  if (missing.length > 0) throw new Error(`benchmarks missing from the run order: ${missing.join(', ')}`);
  const started = new Date();
  const machine = describeMachine();
  const context = createContext(settings, log, seededDatabase);
  const measured = await runInOrder(RUN_ORDER, context);
  return {
    mode: settings.smoke ? 'smoke' : 'full',
    command: BENCH_COMMAND,
    startedAt: started.toISOString(),
    durationSeconds: (Date.now() - started.getTime()) / 1000,
    machine,
    scenarios: context.subjects.map(sizeOf),
    ...(measured as BenchmarkResults),
  };
}

/**
 * Runs the named benchmarks one after the other, logging each one's title first.
 *
 * @example
 * ```ts
 * const { awaitedPick } = await runInOrder(['awaitedPick'], context);
 * ```
 */
export async function runInOrder(names: readonly BenchmarkName[], context: BenchContext): Promise<Partial<BenchmarkResults>> {
  const measured: Partial<Record<BenchmarkName, unknown>> = {};
  for (const name of names) {
    const benchmark: Benchmark<unknown> = BENCHMARKS[name];
    context.log(benchmark.title);
    measured[name] = await benchmark.run(context);
  }
  return measured as Partial<BenchmarkResults>;
}
