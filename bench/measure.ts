/**
 * How the bench measures: mitata's `measure()` for per-call times (its p50, in nanoseconds),
 * interleaved rounds where two sides must share the machine's drift, wall clock medians for slow
 * steps (compiling, type-checking), and the settings of a full run and of the smoke run that
 * `npm test` does.
 */
import { do_not_optimize, measure } from 'mitata';
import type { LivePolicySettings } from './live-policy.bench.js';
import type { Scale } from './scenario.js';

/** The mitata options the bench sets (a subset of its `k_options`). */
export interface MitataOptions {
  readonly min_cpu_time: number;
  readonly min_samples: number;
  readonly max_samples: number;
  readonly warmup_samples: number;
  readonly batch_samples: number;
}

/** Rounds of an interleaved comparison: each side runs `iterationsPerRound` calls per round, in turn. */
export interface InterleavedSettings {
  /** Rounds run first and not recorded, while V8 optimises both sides. */
  readonly warmupRounds: number;
  readonly rounds: number;
  readonly iterationsPerRound: number;
}

/** What one run of the bench does. */
export interface BenchSettings {
  readonly smoke: boolean;
  readonly mitata: MitataOptions;
  /** Queries per decision case; the timed function cycles through them. A power of two. */
  readonly queriesPerCase: number;
  /** Scales the decision benchmark runs at. */
  readonly decisionScales: readonly Scale[];
  /** Items given to filterPick. */
  readonly filterPickItems: number;
  /** Timed compile() runs per scale (in process, each into a fresh folder). */
  readonly compileRuns: Readonly<Record<Scale, number>>;
  /** Also time the CLI in a fresh process, and `tsc --noEmit` of the 10× output. */
  readonly spawnProcesses: boolean;
  /** Instances built for heap per instance, and calls per allocation sample. */
  readonly memory: { readonly instances: number; readonly callsPerSample: number; readonly samples: number };
  /** The awaited pick against a three-rule CASL ability: rounds of calls, alternating between the two. */
  readonly awaitedPick: InterleavedSettings;
  /** The decision log's and OpenTelemetry's cost: rounds of decisions with and without, alternating. */
  readonly decisionLog: InterleavedSettings;
  /**
   * The ownership benchmark on PGlite: documents in the database, and timed runs of
   * grantPermit + filterPick per variant (after one untimed run that counts the statements).
   */
  readonly ownership: { readonly documents: number; readonly runs: { readonly before: number; readonly after: number } };
  /** Swaps timed in process; propagation and requests during swaps (undefined: skipped). */
  readonly livePolicy: LivePolicySettings;
  /** autocannon settings; undefined skips the HTTP benchmark. */
  readonly http: { readonly warmupSeconds: number; readonly durationSeconds: number; readonly connections: number } | undefined;
  /** autocannon settings of the decision service's benchmark; undefined skips it. */
  readonly service: { readonly warmupSeconds: number; readonly durationSeconds: number; readonly connections: number } | undefined;
}

/**
 * The settings of a full run or of the smoke run (tiny counts, no processes spawned, no HTTP).
 *
 * @example
 * ```ts
 * const settings = benchSettings(process.argv.includes('--smoke') ? 'smoke' : 'full');
 * ```
 */
export function benchSettings(mode: 'full' | 'smoke'): BenchSettings {
  if (mode === 'smoke') {
    return {
      smoke: true,
      mitata: { min_cpu_time: 0, min_samples: 1, max_samples: 2, warmup_samples: 0, batch_samples: 2 },
      queriesPerCase: 8,
      decisionScales: [1],
      filterPickItems: 1000,
      compileRuns: { 1: 1, 10: 0 },
      spawnProcesses: false,
      memory: { instances: 1, callsPerSample: 50, samples: 1 },
      awaitedPick: { warmupRounds: 1, rounds: 2, iterationsPerRound: 20 },
      decisionLog: { warmupRounds: 1, rounds: 2, iterationsPerRound: 20 },
      ownership: { documents: 200, runs: { before: 1, after: 1 } },
      livePolicy: { swaps: 3, propagation: undefined, requests: undefined },
      http: undefined,
      service: undefined,
    };
  }
  return {
    smoke: false,
    mitata: { min_cpu_time: 300e6, min_samples: 12, max_samples: 1e9, warmup_samples: 2, batch_samples: 4096 },
    queriesPerCase: 64,
    decisionScales: [1, 10],
    filterPickItems: 1000,
    compileRuns: { 1: 5, 10: 3 },
    spawnProcesses: true,
    memory: { instances: 5, callsPerSample: 5000, samples: 9 },
    awaitedPick: { warmupRounds: 4, rounds: 20, iterationsPerRound: 20_000 },
    decisionLog: { warmupRounds: 6, rounds: 30, iterationsPerRound: 5_000 },
    ownership: { documents: 10_000, runs: { before: 3, after: 15 } },
    livePolicy: {
      swaps: 50,
      propagation: { publishes: 20, polledPublishes: 10, pollIntervalMs: 1000 },
      requests: { connections: 10, durationSeconds: 5, roundPairs: 2, swapIntervalMs: 100 },
    },
    http: { warmupSeconds: 1, durationSeconds: 5, connections: 10 },
    service: { warmupSeconds: 1, durationSeconds: 5, connections: 10 },
  };
}

/**
 * The median time of one call of `fn`, in nanoseconds (mitata's p50). An async `fn` is awaited; a
 * sync one's result goes through mitata's `do_not_optimize`, so that V8 cannot drop the work (an
 * object literal whose result is unused is otherwise optimised away entirely).
 *
 * @example
 * ```ts
 * const ns = await medianNs(() => permissions.grantPermitSync(query), settings);
 * ```
 */
export async function medianNs(fn: () => unknown, settings: BenchSettings): Promise<number> {
  const probe = fn();
  const stats = probe instanceof Promise ? (await probe, await measure(fn, settings.mitata)) : await measure(() => do_not_optimize(fn()), settings.mitata);
  return stats.p50;
}

/**
 * The median of a non-empty list.
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Wall-clock times of `runs` sequential calls, in milliseconds.
 *
 * @example
 * ```ts
 * const runsMs = await wallClockMs(() => compile(options), 3); // three runs, one after the other
 * ```
 */
export async function wallClockMs(fn: (run: number) => unknown, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await fn(run);
    times.push(performance.now() - start);
  }
  return times;
}

/** One side of an interleaved comparison. */
export interface TimedSide {
  readonly name: string;
  /** Makes `iterations` calls back to back, awaiting each when the operation is async. */
  readonly run: (iterations: number) => void | Promise<void>;
  /** Runs before each of its rounds, untimed: lets work the calls left behind finish (a queue drained on a later turn). */
  readonly settle?: () => Promise<void>;
}

/** Per-call times of one side, in ns: the mean of each recorded round, and the median, p95 and p99 of those means. */
export interface RoundTimes {
  readonly roundsNs: readonly number[];
  readonly medianNs: number;
  readonly p95Ns: number;
  readonly p99Ns: number;
}

/**
 * The `p` quantile (0–1) of a non-empty list, by nearest rank: with 20 values p95 is the 19th smallest and p99 the largest.
 *
 * @example
 * ```ts
 * quantile([5, 1, 4, 2, 3], 0.95); // 5
 * ```
 */
export function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/**
 * Times the sides in interleaved rounds — round 1 of A, round 1 of B, round 2 of A, … — after the
 * warm-up rounds, with a collection before every round (when `gc` is given) so that no round pays for
 * the garbage of the one before. Measuring both sides round by round exposes them to the same drift
 * of CPU frequency, other processes and JIT state, which timing one side to the end and then the
 * other does not; the spread of the round means shows how much drift there was.
 *
 * @example
 * ```ts
 * const [ours, casl] = await interleavedRounds([oursSide, caslSide], settings.awaitedPick, getGc());
 * ours.medianNs / casl.medianNs; // the ratio of the medians of the round means
 * ```
 */
export async function interleavedRounds(sides: readonly TimedSide[], settings: InterleavedSettings, gc?: () => void): Promise<RoundTimes[]> {
  const rounds = sides.map((): number[] => []);
  for (let round = 0; round < settings.warmupRounds + settings.rounds; round++) {
    for (const [i, side] of sides.entries()) {
      await side.settle?.();
      gc?.();
      const start = process.hrtime.bigint();
      await side.run(settings.iterationsPerRound);
      const ns = Number(process.hrtime.bigint() - start) / settings.iterationsPerRound;
      if (round >= settings.warmupRounds) rounds[i]?.push(ns);
    }
  }
  return rounds.map((roundsNs) => ({ roundsNs, medianNs: median(roundsNs), p95Ns: quantile(roundsNs, 0.95), p99Ns: quantile(roundsNs, 0.99) }));
}
