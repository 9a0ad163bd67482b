/**
 * What one `npm run bench` records (bench/results.json), and the report made of it: the one list of
 * sections and the one list of targets, in report order, that the console and BENCHMARKS.md share.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attributeSections, attributeTargets } from './attributes.report.js';
import type { AttributesResult } from './attributes.bench.js';
import type { AwaitedPickResult } from './awaited-pick.bench.js';
import { awaitedPickSections, awaitedPickTargets } from './awaited-pick.report.js';
import { REPO_ROOT, type BuildResult } from './build.bench.js';
import { buildSections, buildTargets } from './build.report.js';
import type { DecisionResult } from './decision.bench.js';
import { decisionSections, decisionTargets } from './decision.report.js';
import type { HttpResult } from './http.bench.js';
import { httpSections, httpTargets } from './http.report.js';
import type { DecisionLogResult } from './decision-log.bench.js';
import { decisionLogSections, decisionLogTargets } from './decision-log.report.js';
import type { ServiceResult } from './service.bench.js';
import { serviceSections, serviceTargets } from './service.report.js';
import type { LivePolicyResult } from './live-policy.bench.js';
import { livePolicySections, livePolicyTargets } from './live-policy.report.js';
import type { Machine } from './machine.js';
import type { MemoryResult } from './memory.bench.js';
import { memorySections } from './memory.report.js';
import type { OwnershipResult } from './ownership.bench.js';
import { ownershipSections, ownershipTargets } from './ownership.report.js';
import type { PackageResult } from './package.bench.js';
import { packageSections, packageTargets } from './package.report.js';
import { consoleReport, markdownReport, type Report, type TargetVerdict } from './report.js';
import type { Scale } from './scenario.js';

/** What `npm run bench` runs. */
export const BENCH_SCRIPT = 'node --expose-gc --import tsx bench/run.ts';
/** The command recorded in results.json. */
export const BENCH_COMMAND = `npm run bench   # = ${BENCH_SCRIPT}`;

/** Size of one scenario, as built. */
export interface ScenarioSize {
  readonly scale: Scale;
  readonly roles: number;
  readonly resources: number;
  readonly actions: number;
  readonly definitions: number;
  readonly cells: number;
}

export interface BenchResults {
  readonly mode: 'full' | 'smoke';
  readonly command: string;
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly machine: Machine;
  readonly scenarios: readonly ScenarioSize[];
  readonly decision: DecisionResult;
  readonly attributes: AttributesResult;
  readonly build: BuildResult;
  readonly http: HttpResult;
  readonly memory: MemoryResult;
  /** The optional ones are absent in results recorded before their benchmark existed. */
  readonly package?: PackageResult;
  readonly ownership?: OwnershipResult;
  readonly awaitedPick?: AwaitedPickResult;
  readonly livePolicy?: LivePolicyResult;
  readonly decisionLog?: DecisionLogResult;
  readonly service?: ServiceResult;
}

/**
 * The report of a run: every benchmark's sections, then every target, in the same order.
 *
 * @example
 * ```ts
 * const { sections, targets } = benchReport(results);
 * ```
 */
export function benchReport(results: BenchResults): Report {
  return {
    sections: [
      ...decisionSections(results.decision),
      ...attributeSections(results.attributes),
      ...awaitedPickSections(results.awaitedPick),
      ...buildSections(results.build),
      ...httpSections(results.http),
      ...memorySections(results.memory),
      ...packageSections(results.package),
      ...ownershipSections(results.ownership),
      ...livePolicySections(results.livePolicy),
      ...decisionLogSections(results.decisionLog),
      ...serviceSections(results.service),
    ],
    targets: evaluateTargets(results),
  };
}

/**
 * Checks every target against the results.
 *
 * @example
 * ```ts
 * evaluateTargets(results).filter((verdict) => verdict.met === false);
 * ```
 */
export function evaluateTargets(results: BenchResults): TargetVerdict[] {
  return [
    ...decisionTargets(results.decision),
    ...attributeTargets(results.attributes),
    ...awaitedPickTargets(results.awaitedPick),
    ...buildTargets(results.build),
    ...httpTargets(results.http),
    ...packageTargets(results.package),
    ...ownershipTargets(results.ownership),
    ...livePolicyTargets(results.livePolicy),
    ...decisionLogTargets(results.decisionLog),
    ...serviceTargets(results.service),
  ];
}

/**
 * The console report: every table, then the targets.
 *
 * @example
 * ```ts
 * console.log(renderConsole(results));
 * ```
 */
export function renderConsole(results: BenchResults): string {
  return consoleReport(benchReport(results));
}

/** How the scenarios were chosen and each library modelled: prose kept in bench/method.md, ending BENCHMARKS.md. */
function readMethod(): string {
  return readFileSync(join(REPO_ROOT, 'bench', 'method.md'), 'utf8');
}

/**
 * BENCHMARKS.md: command, machine, scenarios, the targets and `analysis` (what limits the missed
 * ones), every table, then bench/method.md.
 *
 * @example
 * ```ts
 * writeFileSync('BENCHMARKS.md', renderMarkdown(results, readLimitsAnalysis()));
 * ```
 */
export function renderMarkdown(results: BenchResults, analysis: string): string {
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
    method: readMethod(),
  });
}

/**
 * Writes bench/results.json (with the verdicts, for readers of the raw figures) and BENCHMARKS.md.
 *
 * @example
 * ```ts
 * writeReports(results, readLimitsAnalysis());
 * ```
 */
export function writeReports(results: BenchResults, analysis: string): void {
  writeFileSync(join(REPO_ROOT, 'bench', 'results.json'), `${JSON.stringify({ ...results, targets: evaluateTargets(results) }, null, 2)}\n`);
  writeFileSync(join(REPO_ROOT, 'BENCHMARKS.md'), renderMarkdown(results, analysis));
}
