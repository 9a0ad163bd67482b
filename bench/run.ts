/**
 * `npm run bench`: one process that measures this library and its peers on the same scenario,
 * prints medians and ratios, and writes bench/results.json and BENCHMARKS.md.
 * `--smoke` runs everything with tiny counts and writes nothing (the test suite does the same);
 * `--report` only re-renders BENCHMARKS.md from bench/results.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runAttributesBench } from './attributes.bench.js';
import { runAwaitedPickBench } from './awaited-pick.bench.js';
import { REPO_ROOT, runBuildBench } from './build.bench.js';
import { runDecisionBench } from './decision.bench.js';
import { runDecisionLogBench } from './decision-log.bench.js';
import { runHttpBench } from './http.bench.js';
import { runLivePolicyBench } from './live-policy.bench.js';
import { benchSettings, type BenchSettings } from './measure.js';
import { runMemoryBench } from './memory.bench.js';
import { runOwnershipBench } from './ownership.bench.js';
import { runPackageBench } from './package.bench.js';
import { runServiceBench } from './service.bench.js';
import { describeMachine } from './machine.js';
import { BENCH_COMMAND, renderConsole, writeReports, type BenchResults } from './results.js';
import { createScenario, type Scale } from './scenario.js';
import { createSubjects, type BenchSubjects } from './subjects.js';

/**
 * Runs every benchmark with `settings` and returns the results (writes nothing).
 *
 * @example
 * ```ts
 * const results = await runBenchmarks(benchSettings('smoke'));
 * ```
 */
export async function runBenchmarks(settings: BenchSettings, log: (line: string) => void = () => undefined): Promise<BenchResults> {
  const started = new Date();
  const machine = describeMachine();
  const scales: readonly Scale[] = settings.smoke ? [1] : [1, 10];
  const subjects = new Map<Scale, BenchSubjects>(scales.map((scale) => [scale, createSubjects(createScenario(scale))]));
  const all = [...subjects.values()];
  const largest = all[all.length - 1] as BenchSubjects;

  // First, as when it runs alone: the later benchmarks run CASL's permittedFieldsOf and Permit.pick over other rules
  // and records, which makes their call sites polymorphic (after them, CASL's side measured ~1.6× slower).
  log('8. awaited pick, interleaved against a three-rule CASL ability');
  const awaitedPick = await runAwaitedPickBench(settings, log);
  log('1. decision');
  const decision = await runDecisionBench(
    all.filter((s) => settings.decisionScales.includes(s.scenario.scale)),
    settings,
    log,
  );
  log('10. decision log and OpenTelemetry, interleaved');
  const decisionLog = await runDecisionLogBench(settings.decisionLog, log);
  log('2. attributes');
  const attributes = await runAttributesBench(subjects.get(1) as BenchSubjects, settings, log);
  log('3. build and compile');
  const build = await runBuildBench(all, settings, log);
  log('5. memory');
  const memory = await runMemoryBench(largest, settings);
  log('4. HTTP');
  const http = await runHttpBench(settings, log);
  log('6. package: bundle and cold start');
  const packageResult = await runPackageBench(settings, log);
  log('11. decision service');
  const service = await runServiceBench(settings, log);
  // After HTTP: it runs the app that benchmark built.
  log('9. live policy');
  const livePolicy = await runLivePolicyBench(largest, settings.livePolicy, log);
  // Last: PGlite's WASM heap must not sit in the process while memory is measured.
  log('7. ownership on PGlite');
  const ownership = await runOwnershipBench(settings, log);

  return {
    mode: settings.smoke ? 'smoke' : 'full',
    command: BENCH_COMMAND,
    startedAt: started.toISOString(),
    durationSeconds: (Date.now() - started.getTime()) / 1000,
    machine,
    scenarios: all.map(({ scenario, universe, permissions }) => ({
      scale: scenario.scale,
      roles: universe.roles.length,
      resources: universe.resources.length,
      actions: universe.actions.length,
      definitions: scenario.definitions.length,
      cells: permissions.tables.cells.length,
    })),
    decision,
    attributes,
    build,
    http,
    memory,
    package: packageResult,
    ownership,
    awaitedPick,
    livePolicy,
    decisionLog,
    service,
  };
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

/** Re-renders BENCHMARKS.md from bench/results.json (after editing bench/limits.md), without measuring again. */
function rerender(): void {
  const results = JSON.parse(readFileSync(join(REPO_ROOT, 'bench', 'results.json'), 'utf8')) as BenchResults & { targets?: unknown };
  // The saved verdicts are derived data: writeReports evaluates them again from the figures.
  delete results.targets;
  writeReports(results, readLimitsAnalysis());
  console.log('Re-rendered BENCHMARKS.md from bench/results.json.');
}

async function main(): Promise<void> {
  if (process.argv.includes('--report')) return rerender();
  const smoke = process.argv.includes('--smoke');
  const results = await runBenchmarks(benchSettings(smoke ? 'smoke' : 'full'), (line) => console.log(line));
  console.log(`\n${renderConsole(results)}\n`);
  if (smoke) {
    console.log('Smoke run: nothing written.');
    return;
  }
  writeReports(results, readLimitsAnalysis());
  console.log(`Wrote bench/results.json and BENCHMARKS.md (${Math.round(results.durationSeconds)} s).`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
