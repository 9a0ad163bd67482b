/**
 * The report of a run: every benchmark's sections, then every target, in the suite's order — on the console, in
 * BENCHMARKS.md (around the hand-written bench/limits.md and bench/method.md) and, with the verdicts, in
 * bench/results.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark } from './harness/benchmark.js';
import { consoleReport, markdownReport, type Report, type TargetVerdict } from './harness/report.js';
import { REPO_ROOT, REPORT_PATH, RESULTS_PATH } from './harness/repository.js';
import { BENCH_SCRIPT, BENCHMARKS, type BenchmarkName, type RecordedResults } from './suite.js';

const RESULTS_FILE = join(REPO_ROOT, RESULTS_PATH);

/** Each benchmark with its recorded results, in report order. */
function recorded(results: RecordedResults): { benchmark: Benchmark<unknown>; result: unknown }[] {
  return (Object.keys(BENCHMARKS) as BenchmarkName[]).map((name) => ({ benchmark: BENCHMARKS[name], result: results[name] }));
}

/**
 * The report of a run: every benchmark's sections, then every target, in the same order.
 *
 * @example
 * ```ts
 * const { sections, targets } = benchReport(results);
 * ```
 */
export function benchReport(results: RecordedResults): Report {
  return { sections: recorded(results).flatMap(({ benchmark, result }) => benchmark.sections(result)), targets: evaluateTargets(results) };
}

/**
 * Checks every target against the results.
 *
 * @example
 * ```ts
 * evaluateTargets(results).filter((verdict) => verdict.met === false);
 * ```
 */
export function evaluateTargets(results: RecordedResults): TargetVerdict[] {
  return recorded(results).flatMap(({ benchmark, result }) => benchmark.targets(result));
}

/**
 * The console report: every table, then the targets.
 *
 * @example
 * ```ts
 * console.log(renderConsole(results));
 * ```
 */
export function renderConsole(results: RecordedResults): string {
  return consoleReport(benchReport(results));
}

/**
 * BENCHMARKS.md: command, machine, scenarios, the targets and `analysis` (what limits the missed ones), every table,
 * then bench/method.md.
 *
 * @example
 * ```ts
 * writeFileSync('BENCHMARKS.md', renderMarkdown(results, readLimitsAnalysis()));
 * ```
 */
export function renderMarkdown(results: RecordedResults, analysis: string): string {
  const scenarios = results.scenarios
    .map((s) => `${s.scale}×: ${s.roles} roles, ${s.resources} resources, ${s.actions} actions, ${s.definitions} definitions, ${s.cells} grant cells`)
    .join('; ');
  return markdownReport(benchReport(results), {
    command: 'npm run bench',
    script: BENCH_SCRIPT,
    startedAt: results.startedAt,
    durationSeconds: results.durationSeconds,
    machine: results.machine,
    scenarios,
    analysis,
    method: readFileSync(join(REPO_ROOT, 'bench', 'method.md'), 'utf8'),
  });
}

/**
 * The hand-written analysis of the missed targets (from profiling, in bench/limits.md), included in BENCHMARKS.md.
 *
 * @example
 * ```ts
 * writeReports(results, readLimitsAnalysis());
 * ```
 */
export function readLimitsAnalysis(): string {
  const file = join(REPO_ROOT, 'bench', 'limits.md');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
}

/**
 * Writes bench/results.json (with the verdicts, for readers of the raw figures) and BENCHMARKS.md.
 *
 * @example
 * ```ts
 * writeReports(results, readLimitsAnalysis());
 * ```
 */
export function writeReports(results: RecordedResults, analysis: string): void {
  writeFileSync(RESULTS_FILE, `${JSON.stringify({ ...results, targets: evaluateTargets(results) }, null, 2)}\n`);
  writeMarkdown(results, analysis);
}

/**
 * Writes BENCHMARKS.md only: how `--report` renders it again from the recorded results.
 *
 * @example
 * ```ts
 * writeMarkdown(readRecordedResults(), readLimitsAnalysis());
 * ```
 */
export function writeMarkdown(results: RecordedResults, analysis: string): void {
  writeFileSync(join(REPO_ROOT, REPORT_PATH), renderMarkdown(results, analysis));
}

/**
 * The results bench/results.json recorded, without the verdicts saved with them: they are derived data, evaluated
 * again from the figures.
 *
 * @example
 * ```ts
 * writeFileSync('BENCHMARKS.md', renderMarkdown(readRecordedResults(), readLimitsAnalysis()));
 * ```
 */
export function readRecordedResults(): RecordedResults {
  const results = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as RecordedResults & { targets?: unknown };
  delete results.targets;
  return results;
}
