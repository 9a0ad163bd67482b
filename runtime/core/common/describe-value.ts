/**
 * How a message names a value it refuses: the one helper every error of the library uses.
 */
import { quoteForMessage } from './printable-text.js';

/**
 * A short description of `value` for an error message: `null`, `an array`, a string quoted (cut at 60
 * characters) — or, with `quoteStrings: false`, just `string` where the text itself says nothing (an item
 * that should have been an object) — else its type (`number`, `object`, `undefined`).
 *
 * @example
 * ```ts
 * `user.roles must be an array of role names, got ${describeValue('EMPLOYEE')}.`; // … got "EMPLOYEE".
 * `pick expects an object, got ${describeValue('text', { quoteStrings: false })}.`; // … got string.
 * describeValue([1]); // 'an array'
 * ```
 */
export function describeValue(value: unknown, options: { readonly quoteStrings?: boolean } = {}): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' && options.quoteStrings !== false ? quoteForMessage(value) : typeof value;
}
