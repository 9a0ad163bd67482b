/**
 * `npm run bench`: one process that measures this library and its peers on the same scenario, prints medians and
 * ratios, and writes bench/results.json and BENCHMARKS.md.
 * - `--smoke` runs everything with tiny counts and writes nothing (the test suite does the same);
 * - `--report` only re-renders BENCHMARKS.md from bench/results.json (after editing bench/limits.md or method.md);
 * - `--only <name>` runs one benchmark (a key of results.json, such as `awaitedPick`), prints its report, and (unless
 *   `--smoke`) writes its results into bench/results.json in place of the recorded ones — the other benchmarks'
 *   results and the run's description stay as recorded — and re-renders BENCHMARKS.md;
 * - `--rounds N` and `--iterations N` override the rounds of the interleaved benchmarks (awaited pick, decision log).
 */
import { parseArgs } from 'node:util';
import type { Benchmark } from './harness/benchmark.js';
import { consoleReport } from './harness/report.js';
import { benchSettings, type BenchSettings, type InterleavedSettings } from './harness/settings.js';
import { readLimitsAnalysis, readRecordedResults, renderConsole, writeMarkdown, writeReports } from './report.js';
import { BENCHMARKS, createContext, runBenchmarks, runInOrder, type BenchmarkName } from './suite.js';

const log = (line: string): void => console.log(line);

/** The rounds of an interleaved comparison, with the counts given on the command line. */
function withRounds(settings: InterleavedSettings, rounds: string | undefined, iterations: string | undefined): InterleavedSettings {
  return {
    ...settings,
    rounds: rounds === undefined ? settings.rounds : Number(rounds),
    iterationsPerRound: iterations === undefined ? settings.iterationsPerRound : Number(iterations),
  };
}

/** Runs one benchmark and prints its sections and targets. */
async function runOne(name: string, settings: BenchSettings): Promise<void> {
  if (!Object.hasOwn(BENCHMARKS, name)) throw new Error(`--only ${name}: no such benchmark; the benchmarks are ${Object.keys(BENCHMARKS).join(', ')}`);
  const benchmarkName = name as BenchmarkName;
  const result = (await runInOrder([benchmarkName], createContext(settings, log)))[benchmarkName];
  const benchmark: Benchmark<unknown> = BENCHMARKS[benchmarkName];
  console.log(`\n${consoleReport({ sections: benchmark.sections(result), targets: benchmark.targets(result) })}\n`);
  if (settings.smoke) return console.log('Smoke run: nothing written.');
  writeReports({ ...readRecordedResults(), [benchmarkName]: result }, readLimitsAnalysis());
  console.log(`Wrote the results of ${benchmarkName} into bench/results.json, and BENCHMARKS.md.`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { smoke: { type: 'boolean' }, report: { type: 'boolean' }, only: { type: 'string' }, rounds: { type: 'string' }, iterations: { type: 'string' } },
  });
  if (values.report === true) {
    writeMarkdown(readRecordedResults(), readLimitsAnalysis());
    return console.log('Re-rendered BENCHMARKS.md from bench/results.json.');
  }
  const defaults = benchSettings(values.smoke === true ? 'smoke' : 'full');
  const settings: BenchSettings = {
    ...defaults,
    awaitedPick: withRounds(defaults.awaitedPick, values.rounds, values.iterations),
    decisionLog: withRounds(defaults.decisionLog, values.rounds, values.iterations),
  };
  if (values.only !== undefined) return runOne(values.only, settings);
  const results = await runBenchmarks(settings, log);
  console.log(`\n${renderConsole(results)}\n`);
  if (settings.smoke) return console.log('Smoke run: nothing written.');
  writeReports(results, readLimitsAnalysis());
  console.log(`Wrote bench/results.json and BENCHMARKS.md (${Math.round(results.durationSeconds)} s).`);
}

await main();
