/**
 * The report writer: durations, ratios and sizes formatted alike everywhere, Markdown tables (also
 * readable on a console), and the layout of one list of sections plus the targets, on the console and
 * as BENCHMARKS.md. It knows no benchmark: each benchmark's `*.report.ts` turns its results into
 * sections and target verdicts, and results.ts puts them in order — so the console and the file can
 * never show different tables.
 */
import type { Machine } from './machine.js';

/** One target checked against this run. `met` is undefined when it was not measured in this run. */
export interface TargetVerdict {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
  /** What limits it, when missed (from profiling; see BENCHMARKS.md). */
  readonly limit?: string;
}

/** What one run reports: its sections (tables and notes, in report order) and its targets. */
export interface Report {
  readonly sections: readonly string[];
  readonly targets: readonly TargetVerdict[];
}

/** The heading of the target table, on the console and in BENCHMARKS.md. */
export const TARGETS_HEADING = 'Targets';

/**
 * A duration in ns, µs or ms, 3 significant digits.
 *
 * @example
 * ```ts
 * formatNs(1234); // '1.23 µs'
 * ```
 */
export function formatNs(ns: number): string {
  if (ns < 1_000) return `${ns.toPrecision(3)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toPrecision(3)} µs`;
  return `${(ns / 1_000_000).toPrecision(3)} ms`;
}

/**
 * A duration in ms or s, 3 significant digits.
 *
 * @example
 * ```ts
 * formatMs(2270); // '2.27 s'
 * ```
 */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms.toPrecision(3)} ms` : `${(ms / 1000).toPrecision(3)} s`;
}

/**
 * A ratio: two decimals below 10, else 3 significant digits.
 *
 * @example
 * ```ts
 * formatRatio(0.1291); // '0.13×'
 * ```
 */
export function formatRatio(ratio: number): string {
  return `${ratio < 10 ? ratio.toFixed(2) : ratio.toPrecision(3)}×`;
}

/**
 * A size in B, KiB or MiB.
 *
 * @example
 * ```ts
 * formatBytes(12_288); // '12.0 KiB'
 * ```
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  return bytes < 2 ** 20 ? `${(bytes / 1024).toPrecision(3)} KiB` : `${(bytes / 2 ** 20).toPrecision(3)} MiB`;
}

/**
 * Calls counted per method, as JSON, or `none` when nothing was called.
 *
 * @example
 * ```ts
 * formatCalls({}); // 'none'
 * ```
 */
export function formatCalls(calls: Readonly<Record<string, number>>): string {
  return Object.keys(calls).length === 0 ? 'none' : JSON.stringify(calls);
}

/**
 * A Markdown table (also readable on a console).
 *
 * @example
 * ```ts
 * table(['bundle', 'min+gzip'], [['ours', '12.0 KiB']]); // '| bundle | min+gzip |\n| --- | --- |\n| ours | 12.0 KiB |'
 * ```
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

/**
 * The `limit` of a verdict: present only when the target was missed, so that results.json says why
 * next to the figure that missed.
 *
 * @example
 * ```ts
 * verdicts.push({ target, measured, met, ...limitWhenMissed(met, 'See "What limits the missed targets" below: pick.') });
 * ```
 */
export function limitWhenMissed(met: boolean | undefined, limit: string): { readonly limit?: string } {
  return met === false ? { limit } : {};
}

/**
 * The table of targets: what each one asks, what was measured, and met / MISSED / not measured.
 *
 * @example
 * ```ts
 * console.log(targetTable([{ target: '10× build() under 50 ms', measured: '17.4 ms', met: true }]));
 * ```
 */
export function targetTable(verdicts: readonly TargetVerdict[]): string {
  return table(
    ['target', 'measured', 'status'],
    verdicts.map((v) => [v.target, v.measured, v.met === undefined ? 'not measured' : v.met ? 'met' : 'MISSED']),
  );
}

/**
 * The console report: every section, then the targets.
 *
 * @example
 * ```ts
 * console.log(consoleReport({ sections: ['build — median: …'], targets: [] }));
 * ```
 */
export function consoleReport(report: Report): string {
  return [...report.sections, `${TARGETS_HEADING}:\n\n${targetTable(report.targets)}`].join('\n\n');
}

/** What BENCHMARKS.md says around the report: how and where it was made, and the hand-written parts. */
export interface MarkdownPage {
  /** What a reader types (`npm run bench`), and what it runs. */
  readonly command: string;
  readonly script: string;
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly machine: Machine;
  /** The scenarios as built, one sentence. */
  readonly scenarios: string;
  /** What limits the missed targets (bench/limits.md). */
  readonly analysis: string;
  /** How the scenarios were chosen and each library modelled (bench/method.md). */
  readonly method: string;
}

/**
 * BENCHMARKS.md: command, machine, scenarios, the targets and what limits the missed ones, every
 * section, then how it was all measured.
 *
 * @example
 * ```ts
 * writeFileSync('BENCHMARKS.md', markdownReport(report, page));
 * ```
 */
export function markdownReport(report: Report, page: MarkdownPage): string {
  const { machine } = page;
  return `# Benchmarks

Generated by \`${page.command}\` (\`${page.script}\`) on ${page.startedAt}; it took ${Math.round(page.durationSeconds)} s.
Raw figures: \`bench/results.json\`. Medians are mitata's p50 per call unless a section says otherwise. **Ratios within
one run are what count**: the machine is shared and noisy, absolute times move between runs.

## Machine

| | |
| --- | --- |
| \`node -v\` | ${machine.node} |
| \`nproc\` | ${machine.nproc} |
| CPU (/proc/cpuinfo) | ${machine.cpuModel} |
| total memory | ${machine.totalMemoryGiB} GiB |
| platform | ${machine.platform} |
| code measured | ${machine.revision} |

Scenarios as built: ${page.scenarios}.

## ${TARGETS_HEADING}

${targetTable(report.targets)}

${page.analysis}

## Results

${report.sections.join('\n\n')}

${page.method}`;
}
