/** Counted nouns in the compiler's messages and generated text. */

/**
 * `count noun`, with an `s` unless the count is one.
 *
 * @example
 * ```ts
 * plural(1, 'resource'); // '1 resource'
 * plural(3, 'grant'); // '3 grants'
 * ```
 */
export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
