/**
 * Lone UTF-16 surrogates: halves of a pair without their other half. They are no text — encoders write each as
 * U+FFFD, so a database, a file or a terminal receives another string than the one held in memory, and two
 * different strings can arrive as the same one. Names refuse them, and so do the values ownership rules compare.
 */

/** With the `u` flag a surrogate pair is one code point, so this matches lone surrogates only. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * The code point label (`U+D800`) of the first lone surrogate in `text`, or undefined when it has none.
 *
 * @example
 * ```ts
 * loneSurrogateIn('ops\uD800'); // 'U+D800'
 * loneSurrogateIn('ops 😀'); // undefined: a whole pair
 * ```
 */
export function loneSurrogateIn(text: string): string | undefined {
  const lone = LONE_SURROGATE.exec(text);
  return lone === null ? undefined : `U+${(lone[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
