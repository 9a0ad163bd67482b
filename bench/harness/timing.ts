/**
 * How the bench times: mitata's `measure()` for per-call times (its p50, in nanoseconds), interleaved rounds where
 * two sides must share the machine's drift, and wall-clock times for slow steps (compiling, type-checking).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { do_not_optimize, measure } from 'mitata';
import type { Random } from './random.js';
import type { BenchSettings, InterleavedSettings } from './settings.js';
import { median, quantile } from './statistics.js';

/**
 * The longest call mitata times in batches (4,096 calls a sample, its sum divided); a slower one is timed call by
 * call. Given to mitata as its `batch_threshold` (its default, 65 µs), so that this file and mitata tell calls apart
 * the same way.
 */
export const BATCHED_CALL_NS = 65_536;

/** Measurements of a fast call that mitata timed call by call, before that is an error. */
const UNBATCHED_ATTEMPTS = 3;

/** The warm pass before a measurement: calls until either bound (a slow `fn` is called once more). */
const WARM_PASS = { calls: 10_000, ms: 500 };
/** Calls after the warm pass, each timed, whose median tells a fast `fn` from a slow one. */
const SPEED_CALLS = 25;

/** One call of `fn`, awaited when it is async. */
async function callOnce(fn: () => unknown, isAsync: boolean): Promise<void> {
  const result = fn();
  if (isAsync) await result;
}

/** Calls `fn` until {@link WARM_PASS}'s bounds (once in a smoke run). */
async function warmUp(fn: () => unknown, isAsync: boolean, smoke: boolean): Promise<void> {
  const started = performance.now();
  let calls = 0;
  do {
    await callOnce(fn, isAsync);
    calls++;
  } while (!smoke && calls < WARM_PASS.calls && performance.now() - started < WARM_PASS.ms);
}

/** The median of {@link SPEED_CALLS} calls of `fn`, each timed, in nanoseconds: a preempted call does not move it. */
async function callMedianNs(fn: () => unknown, isAsync: boolean): Promise<number> {
  const times: number[] = [];
  for (let call = 0; call < SPEED_CALLS; call++) {
    const started = performance.now();
    await callOnce(fn, isAsync);
    times.push((performance.now() - started) * 1e6);
  }
  return median(times);
}

/** Whether `fn` is a call faster than {@link BATCHED_CALL_NS} once warm (after a warm pass). */
async function warmAndTellFast(fn: () => unknown, isAsync: boolean, smoke: boolean): Promise<boolean> {
  await warmUp(fn, isAsync, smoke);
  // A smoke run's figures are not read: it does not spend calls telling.
  return smoke || (await callMedianNs(fn, isAsync)) < BATCHED_CALL_NS;
}

/** One call's median time, and whether mitata timed it in batches. */
export interface TimedCall {
  readonly p50Ns: number;
  readonly batched: boolean;
}

/**
 * The median time of one call of `fn` (see {@link medianNs}), with whether it was timed in batches.
 *
 * @example
 * ```ts
 * const { p50Ns, batched } = await timeCall(() => permissions.grantPermitSync(query), settings); // batched: true
 * ```
 */
export async function timeCall(fn: () => unknown, settings: Pick<BenchSettings, 'smoke' | 'mitata'>): Promise<TimedCall> {
  const probe = fn();
  const isAsync = probe instanceof Promise;
  if (isAsync) await probe;
  const timed = isAsync ? fn : () => do_not_optimize(fn());
  // The first calls may be slow (what is decoded on first use): warmed first, then told fast or slow.
  if (!(await warmAndTellFast(timed, isAsync, settings.smoke))) {
    const stats = await measure(timed, { ...settings.mitata, batch_threshold: BATCHED_CALL_NS });
    return { p50Ns: stats.p50, batched: stats.ticks > stats.samples.length };
  }
  // Warm-up samples run whatever the first call took, and the first fast one of them makes mitata batch; a slow
  // spell of the machine over every warm-up sample is measured again.
  for (let attempt = 1; ; attempt++) {
    const stats = await measure(timed, { ...settings.mitata, batch_threshold: BATCHED_CALL_NS, warmup_threshold: Number.POSITIVE_INFINITY });
    const batched = stats.ticks > stats.samples.length;
    if (settings.smoke || batched) return { p50Ns: stats.p50, batched };
    if (attempt === UNBATCHED_ATTEMPTS)
      throw new Error(`mitata timed a call of about ${stats.p50.toFixed(0)} ns one by one ${attempt} times: its clock, not the call, would be measured`);
  }
}

/**
 * The median time of one call of `fn`, in nanoseconds (mitata's p50). An async `fn` is awaited; a
 * sync one's result goes through mitata's `do_not_optimize`, so that V8 cannot drop the work (an
 * object literal whose result is unused is otherwise optimised away entirely).
 *
 * A warm pass comes first, and a call faster than {@link BATCHED_CALL_NS} is always timed in batches. mitata decides
 * from its first call whether to batch at all: when that call was slow — a decision that decoded a resource's cells on
 * first use, a collection — it timed a 50 ns function call by call, and so measured its clock's overhead and
 * resolution (at 500 × 1,000 roles and resources, 100 ns for a decision of 56 ns). A fast call measured unbatched
 * anyway is an error, never a figure.
 *
 * @example
 * ```ts
 * const ns = await medianNs(() => permissions.grantPermitSync(query), settings);
 * ```
 */
export async function medianNs(fn: () => unknown, settings: BenchSettings): Promise<number> {
  return (await timeCall(fn, settings)).p50Ns;
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
 * Times the sides in interleaved rounds — round 1 of A, round 1 of B, round 2 of A, … — after the
 * warm-up rounds, with a collection before every round (when `gc` is given) so that no round pays for
 * the garbage of the one before. Measuring both sides round by round exposes them to the same drift
 * of CPU frequency, other processes and JIT state, which timing one side to the end and then the
 * other does not; the spread of the round means shows how much drift there was.
 *
 * With `shuffle` (a seeded generator), each round runs the sides in an order drawn from it, so that each side
 * follows every other as often: for sides whose call pays for what the previous side left (a database connection
 * idle while another side used its own), a fixed order — or a rotated one, where each side keeps its predecessor —
 * would charge it to the same side every round.
 *
 * @example
 * ```ts
 * const [ours, casl] = await interleavedRounds([oursSide, caslSide], settings.awaitedPick, getGc());
 * ours.medianNs / casl.medianNs; // the ratio of the medians of the round means
 * ```
 */
export async function interleavedRounds(
  sides: readonly TimedSide[],
  settings: InterleavedSettings,
  gc?: () => void,
  { shuffle }: { readonly shuffle?: Random } = {},
): Promise<RoundTimes[]> {
  const rounds = sides.map((): number[] => []);
  for (let round = 0; round < settings.warmupRounds + settings.rounds; round++) {
    const order = sides.map((_, i) => i);
    if (shuffle !== undefined) shuffleInPlace(order, shuffle);
    for (const i of order) {
      const side = sides[i] as TimedSide;
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

/** The ratio of two sides round by round: its median, and the smallest and largest round's. */
export interface RoundRatios {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/**
 * `a` ÷ `b` in each round both ran, summarised. A slow spell of the machine slows the two sides of a round alike,
 * so the ratios of rounds vary less than either side's times do: the median of the rounds' ratios is the steadier
 * estimate on a shared machine, where the ratio of the two medians can pair a fast round of one side with a slow
 * round of the other.
 *
 * @example
 * ```ts
 * const [ours, casl] = await interleavedRounds([oursSide, caslSide], settings.awaitedPick, getGc());
 * roundRatios(ours, casl).median; // 0.15: ours takes 15% of CASL's time in the middle round
 * ```
 */
export function roundRatios(a: RoundTimes, b: RoundTimes): RoundRatios {
  const ratios = a.roundsNs.map((ns, round) => ns / (b.roundsNs[round] as number));
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** Fisher–Yates, drawing from `random`. */
function shuffleInPlace(items: number[], random: Random): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [items[i], items[j]] = [items[j] as number, items[i] as number];
  }
}

/**
 * `gc()`: the exposed one (node --expose-gc), else one obtained at run time.
 *
 * @example
 * ```ts
 * const gc = getGc();
 * gc(); // a full collection, with or without --expose-gc
 * ```
 */
export function getGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
