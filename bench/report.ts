/**
 * The bench's report: the machine, the tables of medians and ratios (console and Markdown), the
 * targets of issues 5, 11 and 12 with the measured figure next to each, and results.json / BENCHMARKS.md.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  FILTER_PICK_BASELINE,
  OWN_PICK_CASL,
  OWN_PICK_OURS,
  PICK_BASELINE,
  type AttributeRow,
  type AttributesResult,
  type OwnPickResult,
} from './attributes.bench.js';
import { REPO_ROOT, type BuildResult } from './build.bench.js';
import { DECISION_BASELINE, type DecisionResult } from './decision.bench.js';
import type { HttpResult } from './http.bench.js';
import type { MemoryResult } from './memory.bench.js';
import type { OwnershipResult } from './ownership.bench.js';
import type { PackageResult } from './package.bench.js';
import type { Scale } from './scenario.js';

/** The machine the numbers come from. */
export interface Machine {
  readonly node: string;
  readonly nproc: number;
  readonly cpuModel: string;
  readonly totalMemoryGiB: number;
  readonly platform: string;
  /** The commit measured, and whether the working tree had uncommitted changes. */
  readonly revision: string;
}

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
  /** Absent in results recorded before benchmark 6 existed. */
  readonly package?: PackageResult;
  /** Benchmark 7 (issue 12); absent in results recorded before it existed. */
  readonly ownership?: OwnershipResult;
}

/** One target (issues 5, 11 and 12). `met` is undefined when it was not measured in this run. */
export interface TargetVerdict {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
  /** What limits it, when missed (from profiling; see BENCHMARKS.md). */
  readonly limit?: string;
}

/** The command `npm run bench` runs. */
export const BENCH_COMMAND = 'npm run bench   # = node --expose-gc --import tsx bench/run.ts';

/**
 * Describes this machine: `node -v`, `nproc`, the CPU model from /proc/cpuinfo, total memory.
 *
 * @example
 * ```ts
 * describeMachine(); // { node: 'v20.20.2', nproc: 2, cpuModel: 'Intel(R) Xeon(R) Processor', totalMemoryGiB: 23.5, revision: '5495fe2', … }
 * ```
 */
export function describeMachine(): Machine {
  const nproc = Number(spawnSync('nproc', { encoding: 'utf8' }).stdout?.trim()) || availableParallelism();
  let cpuModel = 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // Not Linux: leave it unknown.
  }
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout?.trim() || 'unknown';
  const changed = (spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '').length;
  return {
    node: process.version,
    nproc,
    cpuModel,
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: `${process.platform} ${process.arch}`,
    revision: changed === 0 ? commit : `${commit} + uncommitted changes in ${changed} tracked file${changed === 1 ? '' : 's'}`,
  };
}

/** A duration in ns, µs or ms, 3 significant digits. */
export function formatNs(ns: number): string {
  if (ns < 1_000) return `${ns.toPrecision(3)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toPrecision(3)} µs`;
  return `${(ns / 1_000_000).toPrecision(3)} ms`;
}

const formatMs = (ms: number): string => (ms < 1000 ? `${ms.toPrecision(3)} ms` : `${(ms / 1000).toPrecision(3)} s`);
const formatRatio = (ratio: number): string => `${ratio < 10 ? ratio.toFixed(2) : ratio.toPrecision(3)}×`;
const formatBytes = (bytes: number): string =>
  bytes < 1024 ? `${Math.round(bytes)} B` : bytes < 2 ** 20 ? `${(bytes / 1024).toPrecision(3)} KiB` : `${(bytes / 2 ** 20).toPrecision(3)} MiB`;

/** A Markdown table (also readable on a console). */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

function timeOf(rows: readonly AttributeRow[] | readonly { implementation: string; medianNs: number }[], implementation: string): number | undefined {
  return rows.find((row) => row.implementation === implementation)?.medianNs;
}

const OUR_DECIDERS = ['grantPermitSync', 'typed grantPermitSync', 'grantPermit (await)', 'typed grantPermit (await)'] as const;
const OUR_PICKERS = ['pickSync', 'pick (await)'] as const;
const CASL_CAN = 'CASL ability.can';
const CASL_PICK = 'CASL permittedFieldsOf + pick';

/** What limits each target when it is missed: what profiling showed (kept here so the generated BENCHMARKS.md says it). */
export const LIMITS: Readonly<Record<string, string>> = {
  decisionBaseline: 'See "What limits the missed targets" below: decision.',
  decisionCasl: 'See "What limits the missed targets" below: decision.',
  pickBaseline: 'See "What limits the missed targets" below: pick.',
  pickCasl: 'See "What limits the missed targets" below: pick.',
  filterPickHooks: 'A listOwned hook was called more than once per permit: a regression in Permit.filterPick.',
  build: 'See "What limits the missed targets" below: build().',
  compile: 'See "What limits the missed targets" below: compiler.',
  http: 'See "What limits the missed targets" below: HTTP.',
};

/** The targets of issue 12: the memo-hit pick against CASL, and filterPick on PGlite before and after ownedAmong. */
function ownershipTargets(ownPick: OwnPickResult | undefined, ownership: OwnershipResult | undefined): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  if (ownPick !== undefined) {
    const ours = ownPick.rows.find((row) => row.implementation === OWN_PICK_OURS);
    const casl = ownPick.rows.find((row) => row.implementation === OWN_PICK_CASL);
    const ratio = ours !== undefined && casl !== undefined ? ours.medianNs / casl.medianNs : Number.NaN;
    const hookCalls = Object.keys(ownPick.hookCallsWhileTimed).length === 0 ? 'none' : JSON.stringify(ownPick.hookCallsWhileTimed);
    const outputs = ownPick.mismatches.length === 0 ? 'outputs equal the hand-written one' : `outputs differ: ${ownPick.mismatches.join(', ')}`;
    verdicts.push({
      target: 'Async pick of an owned document whose ownership the permit already knows, at most 0.5× CASL’s permittedFieldsOf + pick (issue 12)',
      measured:
        `${formatRatio(ratio)} (ours ${ours === undefined ? '—' : formatNs(ours.medianNs)}, CASL ${casl === undefined ? '—' : formatNs(casl.medianNs)}); ` +
        `hook calls while timed: ${hookCalls}; ${outputs}`,
      met: ratio <= 0.5 && ownPick.mismatches.length === 0,
    });
  }
  if (ownership !== undefined) {
    const before = ownership.filterPick.find((row) => row.variant === 'before');
    const after = ownership.filterPick.find((row) => row.variant === 'after');
    const subject = `filterPick of ${ownership.documents} example documents for EMPLOYEE 1 on PGlite`;
    const afterTotal = after === undefined ? Number.NaN : after.statements + ownership.fetchStatements;
    verdicts.push({
      target: `${subject} with ownedAmong: at most 2 SQL statements, fetching the documents included (issue 12)`,
      measured:
        `${afterTotal} (${after?.statements ?? '—'} for grantPermit + filterPick, ${ownership.fetchStatements} to fetch the documents); ` +
        `before, isOwner per document: ${before === undefined ? '—' : before.statements + ownership.fetchStatements}`,
      met: afterTotal <= 2,
    });
    const correct = ownership.identical && ownership.asExpected;
    verdicts.push({
      target: `${subject} with ownedAmong at least 20× faster than with isOwner per document (issue 12)`,
      measured:
        `${formatRatio(ownership.speedup)} (${after === undefined ? '—' : formatMs(after.medianMs)} ` +
        `vs ${before === undefined ? '—' : formatMs(before.medianMs)}, ` +
        `medians of ${after?.runsMs.length ?? 0} and ${before?.runsMs.length ?? 0} runs); ` +
        `${correct ? 'results identical and as expected' : `RESULTS DIFFER (identical: ${ownership.identical}, as expected: ${ownership.asExpected})`}`,
      met: ownership.speedup >= 20 && correct,
    });
  }
  return verdicts;
}

/**
 * Checks every target of issues 5, 11 and 12 against the results.
 *
 * @example
 * ```ts
 * evaluateTargets(results).filter((verdict) => verdict.met === false);
 * ```
 */
export function evaluateTargets(results: BenchResults): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  const missed = (met: boolean | undefined, key: string) => (met === false ? { limit: LIMITS[key] as string } : {});
  for (const implementation of OUR_DECIDERS) {
    for (const scale of [...new Set(results.decision.cases.map((c) => c.scale))]) {
      const cases = results.decision.cases.filter((c) => c.scale === scale);
      const ratios = cases.map((c) => ({ name: c.case, ratio: c.rows.find((row) => row.implementation === implementation)?.ratioToBaseline ?? Number.NaN }));
      const worst = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a));
      const met = ratios.every((r) => r.ratio <= 2);
      verdicts.push({
        target: `Decision within 2× of the nested-object baseline — ${implementation}, ${scale}×`,
        measured: `${ratios.map((r) => `${r.name} ${formatRatio(r.ratio)}`).join('; ')} (worst: ${worst.name})`,
        met,
        ...missed(met, 'decisionBaseline'),
      });
      const versus = cases.map((c) => {
        const ours = timeOf(c.rows, implementation) ?? Number.NaN;
        const casl = timeOf(c.rows, CASL_CAN) ?? Number.NaN;
        return { name: c.case, speedup: casl / ours };
      });
      const fasterThanCasl = versus.every((v) => v.speedup > 1);
      verdicts.push({
        target: `Decision faster than CASL's can — ${implementation}, ${scale}×`,
        measured: `CASL's time ÷ ours: ${versus.map((v) => `${v.name} ${formatRatio(v.speedup)}`).join('; ')}`,
        met: fasterThanCasl,
        ...missed(fasterThanCasl, 'decisionCasl'),
      });
    }
  }
  for (const implementation of OUR_PICKERS) {
    const ratios = results.attributes.pick.map((c) => c.rows.find((row) => row.implementation === implementation)?.ratioToBaseline ?? Number.NaN);
    const met = ratios.every((ratio) => ratio <= 2);
    verdicts.push({
      target: `pick within 2× of the hand-written projection — ${implementation}`,
      measured: ratios.map((ratio, i) => `${results.attributes.pick[i]?.case}: ${formatRatio(ratio)}`).join('; '),
      met,
      ...missed(met, 'pickBaseline'),
    });
    const speedups = results.attributes.pick.map((c) => (timeOf(c.rows, CASL_PICK) ?? Number.NaN) / (timeOf(c.rows, implementation) ?? Number.NaN));
    const fast = speedups.every((speedup) => speedup >= 5);
    verdicts.push({
      target: `pick at least 5× faster than CASL permittedFieldsOf + pick — ${implementation}`,
      measured: `CASL's time ÷ ours: ${speedups.map((speedup, i) => `${results.attributes.pick[i]?.case} ${formatRatio(speedup)}`).join('; ')}`,
      met: fast,
      ...missed(fast, 'pickCasl'),
    });
  }
  const { filterPick } = results.attributes;
  const listOwnedCalls = filterPick.hookCalls['listOwnedRecords'] ?? 0;
  const hooksMet =
    listOwnedCalls === 1 &&
    Object.keys(filterPick.hookCalls).length === 1 &&
    filterPick.documentHookCalls['listCreatedInSameCompany'] === 1 &&
    Object.keys(filterPick.documentHookCalls).length === 1;
  verdicts.push({
    target: `filterPick of ${filterPick.items} items with a listOwned hook: exactly one hook call`,
    measured:
      `filler: ${JSON.stringify(filterPick.hookCalls)}; example COMPANY_ADMIN over ${filterPick.items} documents: ` +
      `${JSON.stringify(filterPick.documentHookCalls)} (kept ${filterPick.documentItemsKept})`,
    met: hooksMet,
    ...missed(hooksMet, 'filterPickHooks'),
  });
  const build10 = results.build.build.find((b) => b.scale === 10);
  const buildMet = build10 === undefined ? undefined : build10.buildMs < 50;
  verdicts.push({
    target: '10× build() under 50 ms',
    measured:
      build10 === undefined
        ? 'not measured (smoke run)'
        : `${formatMs(build10.buildMs)} (loading the precomputed tables instead: ${formatMs(build10.loadTablesMs)})`,
    met: buildMet,
    ...missed(buildMet, 'build'),
  });
  const compile10 = results.build.compile.find((c) => c.scale === 10);
  const compileMet = compile10?.cliColdMs === undefined ? undefined : compile10.cliColdMs < 10_000 && (compile10.medianWarmMs ?? 0) < 10_000;
  verdicts.push({
    target: '10× compile under 10 s',
    measured:
      compile10 === undefined
        ? 'not measured (smoke run)'
        : `CLI in a fresh process ${compile10.cliColdMs === undefined ? '—' : formatMs(compile10.cliColdMs)}; ` +
          `in process ${compile10.runsMs.map(formatMs).join(', ')}`,
    met: compileMet,
    ...missed(compileMet, 'compile'),
  });
  if ('skipped' in results.http) {
    verdicts.push({
      target: 'Guarded endpoint at least 85% of the unprotected one’s requests per second',
      measured: `skipped: ${results.http.skipped}`,
      met: undefined,
    });
  } else {
    for (const endpoint of results.http.endpoints.slice(1)) {
      const met = endpoint.ratioToUnprotected >= 0.85;
      verdicts.push({
        target: `Guarded endpoint at least 85% of the unprotected one’s requests per second — ${endpoint.label}`,
        measured:
          `${(endpoint.ratioToUnprotected * 100).toFixed(1)}% (${endpoint.requestsPerSecond.toFixed(0)} vs ` +
          `${results.http.endpoints[0]?.requestsPerSecond.toFixed(0)} req/s)`,
        met,
        ...missed(met, 'http'),
      });
    }
  }
  const packageResult = results.package;
  if (packageResult !== undefined) {
    const { ours, casl } = packageResult.bundle;
    const bundleMet = ours.gzipBytes <= 16 * 1024;
    verdicts.push({
      target: 'Browser bundle of the core runtime (tables + Permit + pick), min+gzip, at most 16 KB (issue 11)',
      measured: `${formatBytes(ours.gzipBytes)} (${formatBytes(ours.minifiedBytes)} minified); CASL for equivalent rules: ${formatBytes(casl.gzipBytes)}`,
      met: bundleMet,
    });
    if (packageResult.client !== undefined) {
      const { bundle, slices } = packageResult.client;
      verdicts.push({
        target: 'Browser client (typed-permissions/client: createClient + can + pick), min+gzip, at most 6 KB (issue 14)',
        measured:
          `${formatBytes(bundle.gzipBytes)} (${formatBytes(bundle.minifiedBytes)} minified); the example users' slices: ` +
          slices.map((slice) => `${slice.user} ${slice.bytes} B`).join(', '),
        met: bundle.gzipBytes <= 6 * 1024,
      });
    }
    const cold = packageResult.coldStart;
    verdicts.push({
      target: 'Cold start (import + load the example tables + one grant, whole process) at most 1.3× CASL’s (issue 11)',
      measured:
        'skipped' in cold
          ? `skipped: ${cold.skipped}`
          : `${cold.ratio.toFixed(2)}× (${cold.oursMs.toFixed(1)} ms vs ${cold.caslMs.toFixed(1)} ms; ` +
            `an empty node process: ${cold.emptyMs.toFixed(1)} ms; median of ${cold.runs} interleaved runs)`,
      met: 'skipped' in cold ? undefined : cold.ratio <= 1.3,
    });
  }
  verdicts.push(...ownershipTargets(results.attributes.ownPick, results.ownership));
  return verdicts;
}

function decisionTables(decision: DecisionResult): string[] {
  const sections: string[] = [];
  for (const scale of [...new Set(decision.cases.map((c) => c.scale))]) {
    const cases = decision.cases.filter((c) => c.scale === scale);
    const implementations = cases[0]?.rows.map((row) => row.implementation) ?? [];
    const rows = implementations.map((implementation) => [
      implementation,
      ...cases.map((c) => {
        const row = c.rows.find((r) => r.implementation === implementation);
        return row === undefined ? '—' : `${formatNs(row.medianNs)} (${formatRatio(row.ratioToBaseline)})`;
      }),
    ]);
    sections.push(
      `Decision, ${scale}× scenario — median per call (ratio to the ${DECISION_BASELINE}):\n\n${table(['implementation', ...cases.map((c) => c.case)], rows)}`,
    );
  }
  const firstDisagreements = decision.disagreements.length > 0 ? `: ${JSON.stringify(decision.disagreements.slice(0, 5))}` : '';
  sections.push(
    `Agreement: ${decision.checkedQueries} answers checked against the baseline before timing, ` +
      `${decision.disagreements.length} disagreements${firstDisagreements}.`,
  );
  return sections;
}

function attributeTables(attributes: AttributesResult): string[] {
  const implementations = attributes.pick[0]?.rows.map((row) => row.implementation) ?? [];
  const pickRows = implementations.map((implementation) => [
    implementation,
    ...attributes.pick.map((c) => {
      const row = c.rows.find((r) => r.implementation === implementation);
      return row === undefined ? '—' : `${formatNs(row.medianNs)} (${formatRatio(row.ratioToBaseline)})`;
    }),
  ]);
  const pickHeader = ['implementation', ...attributes.pick.map((c) => `${c.case} \`${JSON.stringify(c.patterns)}\``)];
  const pickOutputs = attributes.pick.every((c) => c.mismatches.length === 0)
    ? 'all'
    : `mismatches: ${attributes.pick.flatMap((c) => c.mismatches.map((m) => `${c.case}: ${m}`)).join(', ')}`;
  const { filterPick } = attributes;
  const filterPickTable = table(
    ['implementation', 'median', 'ratio'],
    filterPick.rows.map((row) => [row.implementation, formatNs(row.medianNs), formatRatio(row.ratioToBaseline)]),
  );
  const filterPickOutputs = filterPick.mismatches.length === 0 ? 'all' : `mismatches: ${filterPick.mismatches.join(', ')}`;
  return [
    `pick of one 10-field record — median per call (ratio to the ${PICK_BASELINE}):\n\n${table(pickHeader, pickRows)}`,
    `Outputs equal to the hand-written projection: ${pickOutputs}.`,
    `filterPick of ${filterPick.items} records (${filterPick.owned} owned; listOwned hook; per request: decision + list) — ` +
      `median per call (ratio to the ${FILTER_PICK_BASELINE}):\n\n${filterPickTable}`,
    `Outputs equal to the hand-written list: ${filterPickOutputs}. Hook calls of one grantPermit + filterPick: ` +
      `${JSON.stringify(filterPick.hookCalls)}; example COMPANY_ADMIN over ${filterPick.items} documents: ` +
      `${JSON.stringify(filterPick.documentHookCalls)}, ${filterPick.documentItemsKept} kept.`,
    ...ownPickTables(attributes.ownPick),
  ];
}

function ownPickTables(ownPick: OwnPickResult | undefined): string[] {
  if (ownPick === undefined) return [];
  const hookCalls = Object.keys(ownPick.hookCallsWhileTimed).length === 0 ? 'none' : JSON.stringify(ownPick.hookCallsWhileTimed);
  return [
    `Async pick, own grant beyond any, memo hit (issue 12): EMPLOYEE ${ownPick.user.id} reads document ${ownPick.documentId}, which they own ` +
      `(own \`${JSON.stringify(ownPick.patterns)}\`, no ${ownPick.action}:any); the permit came from grantPermit with that resourceId — ` +
      `median per call (ratio to CASL):\n\n${table(
        ['implementation', 'median', 'ratio to CASL'],
        ownPick.rows.map((row) => [row.implementation, formatNs(row.medianNs), formatRatio(row.ratioToCasl)]),
      )}`,
    `Outputs equal to the hand-written one: ${ownPick.mismatches.length === 0 ? 'all' : `mismatches: ${ownPick.mismatches.join(', ')}`}. ` +
      `Ownership-service calls of the grantPermit: ${JSON.stringify(ownPick.hookCallsToGrant)}; during the timed picks: ${hookCalls}.`,
  ];
}

function ownershipTables(ownership: OwnershipResult | undefined): string[] {
  if (ownership === undefined) return [];
  const filterPickRows = ownership.filterPick.map((row) => [
    row.label,
    String(row.statements),
    String(row.statements + ownership.fetchStatements),
    JSON.stringify(row.hookCalls),
    String(row.peakHookCallsInFlight),
    formatMs(row.medianMs),
    `${row.runsMs.length}`,
  ]);
  return [
    `Ownership on the example's data layer (issue 12) — ${ownership.database}; EMPLOYEE ${ownership.user.id} reads all ` +
      `${ownership.documents} documents with one grantPermit + filterPick (documents fetched beforehand, ${ownership.fetchStatements} statement):\n\n${table(
        ['variant', 'SQL statements', 'with the fetch', 'ownership-service calls', 'most calls in flight', 'median', 'timed runs'],
        filterPickRows,
      )}`,
    `${ownership.kept} documents kept; the two variants' results are ${ownership.identical ? 'identical' : 'DIFFERENT'} and ` +
      `${ownership.asExpected ? 'equal' : 'NOT equal'} to user ${ownership.user.id}'s documents without \`confidential\`. ` +
      `Time before ÷ time after: ${formatRatio(ownership.speedup)}.`,
    `isOwn of one document on a fresh permit (grantPermitSync without resourceId, then isOwn; ` +
      `${ownership.isOwnIdsChecked} ids cycled, half owned) — median per call:\n\n${table(
        ['variant', 'SQL statements per check', 'median'],
        ownership.isOwn.map((row) => [row.label, String(row.statementsPerCheck), formatNs(row.medianNs)]),
      )}`,
    `isOwn answers: ${ownership.isOwnIdentical ? 'identical' : 'DIFFERENT'} in both variants, ` +
      `${ownership.isOwnAsExpected ? 'and as the data says' : 'NOT as the data says'}.`,
  ];
}

function buildTables(build: BuildResult): string[] {
  const sections = [
    `build — median:\n\n${table(
      ['scale', 'definitions', 'cells', 'new Permissions + addPermissions + build()', 'createTypedPermissions (load precomputed tables)'],
      build.build.map((b) => [`${b.scale}×`, String(b.definitions), String(b.cells), formatMs(b.buildMs), formatMs(b.loadTablesMs)]),
    )}`,
  ];
  if (build.compile.length > 0) {
    sections.push(
      `Compiler end to end (definitions folder → generated/, formatted and written):\n\n${table(
        ['scale', 'input files', 'compile() in process, each run', 'median of warm runs', 'CLI, fresh process', 'largest outputs'],
        build.compile.map((c) => {
          const largest = Object.entries(c.outputBytes)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 3)
            .map(([name, bytes]) => `${name} ${formatBytes(bytes)}`)
            .join(', ');
          return [
            `${c.scale}×`,
            String(c.inputFiles),
            c.runsMs.map(formatMs).join(', '),
            c.medianWarmMs === undefined ? '—' : formatMs(c.medianWarmMs),
            c.cliColdMs === undefined ? '—' : formatMs(c.cliColdMs),
            largest,
          ];
        }),
      )}`,
    );
  }
  const { tsc } = build;
  sections.push(
    'skipped' in tsc
      ? `tsc --noEmit of the 10× output: skipped (${tsc.skipped}).`
      : `tsc --noEmit of the 10× generated output (plus the runtime core it imports): ${formatMs(tsc.ms)}, ` +
          `exit code ${tsc.exitCode} — \`${tsc.command}\`${tsc.output === '' ? '' : `\n\n\`\`\`\n${tsc.output}\n\`\`\``}`,
  );
  return sections;
}

function httpTables(http: HttpResult): string[] {
  if ('skipped' in http) return [`HTTP: skipped — ${http.skipped}`];
  return [
    `HTTP — ${http.connections} connections, ${http.durationSeconds} s per endpoint and round, ${http.rounds} rounds ` +
      `in alternating order (mean shown):\n\n${table(
        ['endpoint', 'x-user-id', 'req/s', 'p99', 'ratio to unprotected', 'non-2xx / errors'],
        http.endpoints.map((e) => [
          e.label,
          String(e.userId),
          e.requestsPerSecond.toFixed(0),
          `${e.p99Ms.toFixed(1)} ms`,
          formatRatio(e.ratioToUnprotected),
          e.rounds.map((r) => `${r.non2xx}/${r.errors}`).join(', '),
        ]),
      )}`,
    `Load: ${http.command}`,
  ];
}

function memoryTables(memory: MemoryResult): string[] {
  return [
    `Heap retained per built instance, ${memory.scale}× scenario (gc before and after):\n\n${table(
      ['instance', 'heap'],
      memory.heapPerInstance.map((h) => [h.implementation, formatBytes(h.bytes)]),
    )}`,
    `Approximate allocation per call (heap growth over a batch of calls between two collections):\n\n${table(
      ['call', 'bytes per call'],
      memory.allocationPerCall.map((a) => [a.implementation, a.bytes === undefined ? '—' : formatBytes(a.bytes)]),
    )}`,
  ];
}

function packageTables(result: PackageResult | undefined): string[] {
  if (result === undefined) return [];
  const { ours, casl } = result.bundle;
  const cold = result.coldStart;
  return [
    `Browser bundle for reading one document with the example's rules (esbuild, minified, ESM; gzip level 9):\n\n${table(
      ['bundle', 'minified', 'min+gzip'],
      [
        ['typed-permissions/precompiled + compiled tables', formatBytes(ours.minifiedBytes), formatBytes(ours.gzipBytes)],
        ['@casl/ability + permittedFieldsOf', formatBytes(casl.minifiedBytes), formatBytes(casl.gzipBytes)],
        ...(result.client === undefined
          ? []
          : [
              [
                'typed-permissions/client (decide a button, pick a document from the slice)',
                formatBytes(result.client.bundle.minifiedBytes),
                formatBytes(result.client.bundle.gzipBytes),
              ],
            ]),
      ],
    )}`,
    ...(result.client === undefined
      ? []
      : [
          `The slices the client reads (\`permissions.sliceFor(user)\`, JSON) for the example users:\n\n${table(
            ['user', 'bytes'],
            result.client.slices.map((slice) => [slice.user, String(slice.bytes)]),
          )}`,
        ]),
    'skipped' in cold
      ? `Cold start: skipped (${cold.skipped}).`
      : `Cold start, whole \`node\` processes, median of ${cold.runs} interleaved runs:\n\n${table(
          ['process', 'median', 'ratio to CASL'],
          [
            [
              'import the compiled example tables (typed-permissions/precompiled), one grantPermit',
              `${cold.oursMs.toFixed(1)} ms`,
              `${cold.ratio.toFixed(2)}×`,
            ],
            ['import @casl/ability, build equivalent rules, one can()', `${cold.caslMs.toFixed(1)} ms`, '1.00×'],
            ['an empty module (the floor)', `${cold.emptyMs.toFixed(1)} ms`, `${(cold.emptyMs / cold.caslMs).toFixed(2)}×`],
          ],
        )}`,
  ];
}

function targetTable(verdicts: readonly TargetVerdict[]): string {
  return table(
    ['target', 'measured', 'status'],
    verdicts.map((v) => [v.target, v.measured, v.met === undefined ? 'not measured' : v.met ? 'met' : 'MISSED']),
  );
}

/** The tables of every benchmark, in report order (the console and BENCHMARKS.md show the same). */
function resultSections(results: BenchResults): string[] {
  return [
    ...decisionTables(results.decision),
    ...attributeTables(results.attributes),
    ...buildTables(results.build),
    ...httpTables(results.http),
    ...memoryTables(results.memory),
    ...packageTables(results.package),
    ...ownershipTables(results.ownership),
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
  return [...resultSections(results), `Targets (issues 5, 11 and 12):\n\n${targetTable(evaluateTargets(results))}`].join('\n\n');
}

const INTERPRETATION = `## Scenario (how issue 5 was read)

- **Definitions**: the example definitions (\`definitions/document.permissions.json\`: EMPLOYEE, EMPLOYEE_MANAGER,
  COMPANY_ADMIN on \`document\` with ownership hooks, SUPER_ADMIN \`'*'\` / \`['*:any']\`; since issue 12 EMPLOYEE and
  EMPLOYEE_MANAGER have only \`limitOwned\`, and \`document\` has the ownedAmong executor that
  \`document.resource.json\` declares) plus generated filler
  (\`bench/scenario.ts\`, mulberry32 PRNG, seed 20240605 × scale, so every run builds the same definitions).
- **"20 roles × 50 resources × ~5 grants each"** is read as: 20 filler roles and 50 filler resources; every role has
  4–6 definitions (mean ≈ 5) on distinct random resources; each definition grants 2–4 actions drawn from
  create/read/update/delete/approve/publish/archive/assign. About 45% are array form (\`'read:any'\` or bare
  \`'read'\`), 35% object form \`:any\` with attribute patterns (\`['*']\`, \`['*','!secret']\`, \`['*','!secret','!notes']\`,
  include lists), 20% possession \`own\` with \`isOwner\` plus \`listOwned\` or \`limitOwned\` (and \`read:any\`
  \`['id','name','status']\` when they grant read). The first definitions of ROLE_0001–0003 are pinned to the shapes the
  attribute benchmarks use. Every filler record has 10 fields.
- **10×**: 200 roles × 500 resources at the same per-role density (so about 10× the definitions and cells).
- **Decision queries** use CRUD actions only, so that accesscontrol 2.2.1 (which rejects any other action) answers the
  very same queries; the cost of a lookup does not depend on whether the action is custom. Custom actions are covered
  by the agreement check: before timing, every implementation answers the timed queries plus a few hundred random
  queries over all actions (1–3 roles, SUPER_ADMIN included; CRUD ones only for accesscontrol 2), and must agree with
  the baseline. The timed function cycles through 64 sampled queries per case (64 users).
- **Typed wrapper**: \`createTypedPermissions(tables, options)\` over the built tables — exactly what the generated
  \`createPermissions\` in \`generated/permissions.ts\` calls (it only adds types).
- **Ownership on PGlite (issue 12)**: the example's \`createSeededDatabase\` (embedded PGlite through kysely) plus
  documents up to 10,000 (creators cycle through users 1–8), the example's real \`DocumentOwnershipService\`, EMPLOYEE 1
  reading. *Before*: the definitions with \`isOwner\` put back (\`isCreator\`, \`isCreatorOrManagerOfCreator\`) and no
  ownedAmong executor; *after*: the current definitions with \`ownedAmong: { document: 'ownedDocumentsAmong' }\`.
  Statements are counted by a kysely plugin added with \`db.withPlugin\` (it counts in \`transformResult\`, once per
  executed statement); the documents are fetched once beforehand (counted apart), and what is timed is
  \`grantPermit\` + \`filterPick\` with a fresh permit per run, after one untimed run that counts. The smoke run does the
  same with 200 documents.

## How each library is modelled

- **typed-permissions**: \`new Permissions({ ownership })\` + \`addPermissions\` + \`build()\`; \`grantPermitSync(query).granted\`,
  \`(await grantPermit(query)).granted\`; \`permit.pickSync(item)\` / \`await permit.pick(item)\` with the permit granted once;
  \`await (await grantPermit(query)).filterPick(items)\` per call.
- **accesscontrol 3.1.1**: one instance from a grants list (\`'*'\` resources and actions expanded; it has none);
  \`ac.can(roles).do('<action>:own', resource).granted\` (without an ownership resolver, \`:own\` is granted by an own or
  an any grant: "granted in some possession"); \`ac.can(roles).readAny(resource)\` once, then \`permission.filter(item)\`.
- **accesscontrol 2.2.1** (\`accesscontrol-2\`): its grants object; **CRUD only** — its grants reject custom actions, so
  its model drops them; \`ac.permission({ role, resource, action, possession: 'own' }).granted\`; \`permission.filter(item)\`.
- **CASL 7**: one ability per user, built once (outside the timing) from the rules of the user's roles; \`'*'\` →
  \`manage\`/\`all\`; \`['*','!x']\` → a rule plus an inverted rule on field \`x\`; own grants carry the ownership condition
  (\`{ ownerId: user.id }\` …), modelled from the definition's isOwner hook or, without one, its limitOwned hook
  (\`limitToCreator\` → the creator; \`limitToCreatorOrManagedCreators\` → self and managed creators);
  \`ability.can(action, resource)\`; \`permittedFieldsOf(ability, action, subject(type, item), { fieldsFrom })\`
  plus a simple pick loop. CASL resolves inverted field rules by rule order, not as a union across roles; the
  attribute cases use single-role users, where both agree.
- **casbin 5**: \`newEnforcer(newModelFromString(RBAC model), new StringAdapter(policy))\`, users assigned their roles with
  \`g\` lines, one \`p\` line per role/resource/action (no possession, no attributes), \`'*'\` kept as one line matched by the
  matcher; \`enforcer.enforceSync(user, resource, action)\`.
- **Baselines**: a hand-written nested object \`table[role][resource][action]\` (several roles: a loop), and hand-written
  projection functions (object literals) for the pinned attribute rules.
`;

/**
 * BENCHMARKS.md: command, machine, scenario, every table, the targets and what limits the missed ones.
 *
 * @example
 * ```ts
 * writeFileSync('BENCHMARKS.md', renderMarkdown(results, analysis));
 * ```
 */
export function renderMarkdown(results: BenchResults, analysis: string): string {
  const { machine } = results;
  const verdicts = evaluateTargets(results);
  const command = BENCH_COMMAND.split('#')[0]?.trim();
  const scenarios = results.scenarios
    .map((s) => `${s.scale}×: ${s.roles} roles, ${s.resources} resources, ${s.actions} actions, ${s.definitions} definitions, ${s.cells} grant cells`)
    .join('; ');
  return `# Benchmarks

Generated by \`${command}\` (\`node --expose-gc --import tsx bench/run.ts\`) on ${results.startedAt}; it took ${Math.round(results.durationSeconds)} s.
Raw figures: \`bench/results.json\`. Medians are mitata's p50 per call. **Ratios within one run are what count**: the
machine is shared and noisy, absolute times move between runs.

## Machine

| | |
| --- | --- |
| \`node -v\` | ${machine.node} |
| \`nproc\` | ${machine.nproc} |
| CPU (/proc/cpuinfo) | ${machine.cpuModel} |
| total memory | ${machine.totalMemoryGiB} GiB |
| platform | ${machine.platform} |
| code measured | ${machine.revision} |

Scenarios as built: ${scenarios}.

## Targets (issues 5, 11 and 12)

${targetTable(verdicts)}

${analysis}

## Results

${resultSections(results).join('\n\n')}

${INTERPRETATION}`;
}

/**
 * Writes bench/results.json and BENCHMARKS.md.
 *
 * @example
 * ```ts
 * writeReports(results, analysis);
 * ```
 */
export function writeReports(results: BenchResults, analysis: string): void {
  writeFileSync(join(REPO_ROOT, 'bench', 'results.json'), `${JSON.stringify({ ...results, targets: evaluateTargets(results) }, null, 2)}\n`);
  writeFileSync(join(REPO_ROOT, 'BENCHMARKS.md'), renderMarkdown(results, analysis));
}
