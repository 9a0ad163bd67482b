/**
 * Implementations compared case by case against a baseline: the rows of per-call medians with their ratios, and the
 * table that shows them, one row per implementation and one column per case.
 */
import { isDeepStrictEqual } from 'node:util';
import { formatNs, formatRatio, table } from './format.js';
import type { BenchSettings } from './settings.js';
import { medianNs } from './timing.js';

/** One implementation's median time per call in one case. */
export interface TimedRow {
  readonly implementation: string;
  readonly medianNs: number;
  /** medianNs / the baseline's medianNs in the same case. */
  readonly ratioToBaseline: number;
}

/**
 * The rows of one case: each implementation's time, divided by `baseline`'s.
 *
 * @example
 * ```ts
 * rowsWithRatios(new Map([['ours', 20], ['baseline', 10]]), 'baseline')[0]?.ratioToBaseline; // 2
 * ```
 */
export function rowsWithRatios(times: ReadonlyMap<string, number>, baseline: string): TimedRow[] {
  const base = times.get(baseline) as number;
  return [...times].map(([implementation, ns]) => ({ implementation, medianNs: ns, ratioToBaseline: ns / base }));
}

/**
 * The median of `implementation` among `rows`, or NaN when it has no row (so that a ratio with it is no verdict).
 *
 * @example
 * ```ts
 * timeOf(rows, 'CASL ability.can'); // 512.3
 * ```
 */
export function timeOf(rows: readonly { readonly implementation: string; readonly medianNs: number }[], implementation: string): number {
  return rows.find((row) => row.implementation === implementation)?.medianNs ?? Number.NaN;
}

/**
 * A table with a row per implementation (those of the first case, in its order) and a column per case, each cell
 * `median (ratio)`, or `—` where the implementation did not run in that case.
 *
 * @example
 * ```ts
 * comparisonTable(['implementation', '1 role, granted'], [{ rows }]); // '| implementation | 1 role, granted |\n…| grantPermitSync | 41.2 ns (1.10×) |'
 * ```
 */
export function comparisonTable(header: readonly string[], cases: readonly { readonly rows: readonly TimedRow[] }[]): string {
  const implementations = cases[0]?.rows.map((row) => row.implementation) ?? [];
  const rows = implementations.map((implementation) => [
    implementation,
    ...cases.map((c) => {
      const row = c.rows.find((r) => r.implementation === implementation);
      return row === undefined ? '—' : `${formatNs(row.medianNs)} (${formatRatio(row.ratioToBaseline)})`;
    }),
  ]);
  return table(header, rows);
}

/** One implementation of a timed operation: `prepare` does the untimed setup and returns the call to time. */
export interface Contender {
  readonly name: string;
  prepare(): Promise<() => unknown>;
}

/**
 * Prepares each contender in turn, checks that its call returns `expected`, then times the call; returns the medians
 * by name and the names whose output differed.
 *
 * @example
 * ```ts
 * const { times, mismatches } = await timeContenders(contenders, expected, settings, (name, ns) => log(`${name} ${ns} ns`));
 * ```
 */
export async function timeContenders(
  contenders: readonly Contender[],
  expected: unknown,
  settings: BenchSettings,
  logTime: (name: string, ns: number) => void,
): Promise<{ readonly times: Map<string, number>; readonly mismatches: string[] }> {
  const times = new Map<string, number>();
  const mismatches: string[] = [];
  for (const contender of contenders) {
    const call = await contender.prepare();
    if (!isDeepStrictEqual(await call(), expected)) mismatches.push(contender.name);
    const ns = await medianNs(call, settings);
    times.set(contender.name, ns);
    logTime(contender.name, ns);
  }
  return { times, mismatches };
}
