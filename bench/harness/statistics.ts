/**
 * The statistics the reports show: medians of timed runs, nearest-rank percentiles of samples, means of rounds.
 */

/**
 * The median of a non-empty list.
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * The `p` quantile (0–1) of a non-empty list, by nearest rank: with 20 values p95 is the 19th smallest and p99 the largest.
 *
 * @example
 * ```ts
 * quantile([5, 1, 4, 2, 3], 0.95); // 5
 * ```
 */
export function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/**
 * The mean of a non-empty list.
 *
 * @example
 * ```ts
 * mean([1, 2, 6]); // 3
 * ```
 */
export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
