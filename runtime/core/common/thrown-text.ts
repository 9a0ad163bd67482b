/**
 * What a thrown value says, for a warning: its message when it is an Error, else its text — and, when even that
 * throws (an object without a prototype, a `toString` that throws), what kind of value it is. Reporting a failure
 * must not fail in turn.
 */
/**
 * The text of `thrown`, never throwing.
 *
 * @example
 * ```ts
 * thrownText(new Error('disk full')); // 'disk full'
 * thrownText(Object.create(null)); // 'a value of type object'
 * ```
 */
export function thrownText(thrown: unknown): string {
  try {
    return thrown instanceof Error ? String(thrown.message) : String(thrown);
  } catch {
    // Its kind only (no other module: this one is bundled with the decision log's delivery alone).
    return `a value of type ${thrown === null ? 'null' : typeof thrown}`;
  }
}
