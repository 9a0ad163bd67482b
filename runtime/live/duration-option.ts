/**
 * The one check of every duration option of the sources (poll intervals, timeouts, reconnect delays): a whole
 * number of milliseconds a timer can hold. Past 2³¹−1 ms Node fires a timer at once, which would turn a long
 * poll into a busy one.
 */
import { PermissionsUsageError } from '../core/common/errors.js';

/** The longest delay a Node timer holds (about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

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
  const ms = value ?? fallback;
  if (!(Number.isSafeInteger(ms) && ms >= min && ms <= MAX_TIMER_MS))
    throw new PermissionsUsageError(`${where} must be a whole number of milliseconds from ${min} to ${MAX_TIMER_MS}, got ${JSON.stringify(value)}.`);
  return ms;
}
