/**
 * How figures are written, alike in every section: durations, ratios, sizes and call counts, and Markdown tables
 * (also readable on a console).
 */
import type { RoundTimes } from './timing.js';

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
 * A size in B, KiB, MiB or GiB, with three significant digits and never an exponent.
 *
 * @example
 * ```ts
 * formatBytes(12_288); // '12.0 KiB'
 * formatBytes(1_247_805_440); // '1.16 GiB'
 * ```
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  // toPrecision(3) of 999.5 or more would print an exponent (1.19e+3): from there the next unit is used.
  if (bytes < 999.5 * 1024) return `${(bytes / 1024).toPrecision(3)} KiB`;
  return bytes < 999.5 * 2 ** 20 ? `${(bytes / 2 ** 20).toPrecision(3)} MiB` : `${(bytes / 2 ** 30).toPrecision(3)} GiB`;
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
 * The median, p95 and p99 of interleaved round means, as the cells of a table row.
 *
 * @example
 * ```ts
 * [document, implementation, ...roundTimesCells(ours), formatRatio(ratio)]; // […, '150 ns', '162 ns', '170 ns', '0.58×']
 * ```
 */
export function roundTimesCells(times: RoundTimes): string[] {
  return [formatNs(times.medianNs), formatNs(times.p95Ns), formatNs(times.p99Ns)];
}

/**
 * A delay in ms or s, shown as at least 0.001 ms: a delay stamped by two processes' clocks can come out at or
 * below zero, which no table should show.
 *
 * @example
 * ```ts
 * formatDelayMs(-0.2); // '0.00100 ms'
 * ```
 */
export function formatDelayMs(ms: number): string {
  return formatMs(Math.max(ms, 0.001));
}
