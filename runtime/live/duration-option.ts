/**
 * The one check of every duration option of the sources (poll intervals, timeouts, reconnect delays): a whole
 * number of milliseconds a timer can hold.
 */
import { durationShape, MAX_TIMER_MS } from '../core/shape/option-shapes.js';
import { usageChecked } from '../core/shape/shape-check.js';

export { MAX_TIMER_MS };

/**
 * `value`, or `fallback` when undefined; a PermissionsUsageError naming `where` when it is not a whole number of
 * milliseconds from `min` to {@link MAX_TIMER_MS}.
 *
 * @example
 * ```ts
 * const pollIntervalMs = durationOption('filePolicySource(): pollIntervalMs', options.pollIntervalMs, 1000, 10); // 1000
 * ```
 */
export function durationOption(where: string, value: number | undefined, fallback: number, min: number): number {
  return usageChecked(durationShape(where, min), value ?? fallback);
}
