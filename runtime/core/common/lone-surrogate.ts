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
  return lone === null ? undefined : codePointLabel(lone[0]);
}

/**
 * The label of the first code point of `character`, as messages name it.
 *
 * @example
 * ```ts
 * codePointLabel('\n'); // 'U+000A'
 * ```
 */
export function codePointLabel(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The end of the refusal of a value compared in a database that holds lone surrogate `lone`.
 *
 * @example
 * ```ts
 * `User attribute "team" ${NOT_TEXT('U+D800')}`; // 'User attribute "team" holds a lone surrogate (U+D800): a database reads it as U+FFFD, another text. …'
 * ```
 */
export const NOT_TEXT = (lone: string): string => `holds a lone surrogate (${lone}): a database reads it as U+FFFD, another text. Give it whole characters.`;
