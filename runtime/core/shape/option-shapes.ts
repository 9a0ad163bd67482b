/**
 * The shapes options share across the runtime — a duration a timer can hold, a positive count, a function, a
 * flag — so that one kind of option is checked, and its refusal worded, the same way everywhere.
 */
import { describeValue } from '../common/describe-value.js';
import { integer, optional, valid, type Shape } from './shape-check.js';

/** The longest delay a Node timer holds (about 24.8 days): past 2³¹−1 ms a timer fires at once, turning a long poll into a busy one. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * How a refused number option names the value it got: a number as written (`1.5`, `Infinity`, `NaN`), anything else
 * as every error of the library does (a bigint, which JSON cannot write, is `bigint`).
 */
const got = (value: unknown): string => (typeof value === 'number' ? String(value) : describeValue(value));

/**
 * A whole number of milliseconds from `min` to {@link MAX_TIMER_MS}, refused with a message naming `where`.
 *
 * @example
 * ```ts
 * usageChecked(durationShape('filePolicySource(): pollIntervalMs', 10), 5); // throws: … must be a whole number of milliseconds from 10 to 2147483647, got 5.
 * ```
 */
export function durationShape(where: string, min: number): Shape<number> {
  return integer(min, MAX_TIMER_MS, (value) => `${where} must be a whole number of milliseconds from ${min} to ${MAX_TIMER_MS}, got ${got(value)}.`);
}

/**
 * A positive whole number (a count, a size in bytes), refused with a message naming `where`.
 *
 * @example
 * ```ts
 * usageChecked(positiveCountShape('createRemotePermissions(): maxCachedRoleSets'), 0); // throws: … must be a positive whole number, got 0.
 * ```
 */
export function positiveCountShape(where: string): Shape<number> {
  return integer(1, Number.MAX_SAFE_INTEGER, (value) => `${where} must be a positive whole number, got ${got(value)}.`);
}

/**
 * An optional function option.
 *
 * @example
 * ```ts
 * const onDecision = functionOption('Permissions option onDecision must be a function (event) => void.');
 * ```
 */
export function functionOption(message: string): Shape<((...args: never[]) => unknown) | undefined> {
  return optional(valid((value) => typeof value === 'function', message));
}

/**
 * An optional `true` or `false` option.
 *
 * @example
 * ```ts
 * const compileProjections = flagOption('Permissions option compileProjections must be true or false.');
 * ```
 */
export function flagOption(message: string): Shape<boolean | undefined> {
  return optional(valid((value) => typeof value === 'boolean', message));
}
