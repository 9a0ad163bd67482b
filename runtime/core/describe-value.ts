/**
 * How a message names a value it refuses: the one helper every error of the library uses.
 */
import { quoteForMessage } from './definition/names.js';

/**
 * A short description of `value` for an error message: a string quoted (and cut at 60 characters), `null`,
 * `an array`, else its type (`number`, `object`, `undefined`).
 *
 * @example
 * ```ts
 * `user.roles must be an array of role names, got ${describeValue('EMPLOYEE')}.`; // … got "EMPLOYEE".
 * describeValue([1]); // 'an array'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? quoteForMessage(value) : typeof value;
}
