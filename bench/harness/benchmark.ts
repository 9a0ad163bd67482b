/**
 * What a benchmark is to the suite: something that measures, given the run's settings and the scenarios' subjects,
 * and turns what it measured into report sections and target verdicts. The suite only runs benchmarks and puts
 * their sections in order, so adding one touches its own file and the suite's list.
 */
import type { Kysely } from 'kysely';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import type { TargetVerdict } from './report.js';
import type { BenchSettings } from './settings.js';
import type { BenchSubjects } from './subjects.js';

/** What a benchmark is given. */
export interface BenchContext {
  readonly settings: BenchSettings;
  /** Everything built from each scenario of this run, smallest scale first. */
  readonly subjects: readonly BenchSubjects[];
  /** Progress lines for the console (not the report). */
  readonly log: (line: string) => void;
  /**
   * A new embedded example database, migrated and seeded: the example app's `createSeededDatabase`, or one of the
   * same data started from a dump (the smoke test's, which skips PGlite's seconds of `initdb`).
   */
  readonly seededDatabase: () => Promise<Kysely<ExampleDatabase>>;
  /**
   * A full collection: made in a full run, so that timings and heap figures are comparable; nothing in a smoke run,
   * which asserts what each part did, not its figures (a test worker's heap is large: without
   * some 130 collections, the bench's smoke test takes 27 s instead of 33 s on an idle machine).
   */
  readonly gc: () => void;
}

/** One benchmark: how it measures, and how its results read in the report. */
export interface Benchmark<TResult> {
  /** What the console shows before it runs. */
  readonly title: string;
  run(context: BenchContext): Promise<TResult>;
  /**
   * Its tables and notes, in report order. `undefined` comes from results recorded before the benchmark existed:
   * it then shows nothing (and has no verdict).
   */
  sections(result: TResult | undefined): string[];
  targets(result: TResult | undefined): TargetVerdict[];
}

/** A part of a benchmark that was not run, and why (a smoke run, a missing server). */
export interface Skipped {
  readonly skipped: string;
}

/**
 * One benchmark made of parts that each measure one thing: run in the order given, their results under their keys,
 * their sections and targets one after the other.
 *
 * @example
 * ```ts
 * const livePolicy = benchmarkOfParts('live policy', { swap: swapBenchmark, propagation: propagationBenchmark });
 * ```
 */
export function benchmarkOfParts<TParts extends Record<string, unknown>>(
  title: string,
  parts: { readonly [K in keyof TParts]: Benchmark<TParts[K]> },
): Benchmark<TParts> {
  const entries = Object.entries(parts) as [keyof TParts & string, Benchmark<unknown>][];
  return {
    title,
    run: async (context) => {
      const results: Record<string, unknown> = {};
      for (const [key, part] of entries) {
        context.log(`  ${part.title}`);
        results[key] = await part.run(context);
      }
      return results as TParts;
    },
    sections: (result) => entries.flatMap(([key, part]) => part.sections(result?.[key])),
    targets: (result) => entries.flatMap(([key, part]) => part.targets(result?.[key])),
  };
}
