/**
 * Lines and columns in a text, counted as editors and TypeScript count them, so that the compiler
 * and the runtime name the same place for a problem.
 */

/** A 1-based line and column (in UTF-16 code units, as editors and TypeScript count them). */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/**
 * The offset at which each line of `text` starts, up to `end` (the whole text by default): 0, then the offset after
 * each line break. Line breaks are those of ECMAScript (`\n`, `\r\n`, `\r`, U+2028, U+2029), as TypeScript counts them,
 * so the compiler and the runtime name the same place.
 *
 * @example
 * ```ts
 * lineStarts('[\n  1,\r\n]'); // [0, 2, 8]
 * ```
 */
export function lineStarts(text: string, end = text.length): number[] {
  const starts = [0];
  for (let i = 0; i < end && i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue; // counted at the \n
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) starts.push(i + 1);
  }
  return starts;
}

/**
 * The line and column of `offset` in `text` (lines as {@link lineStarts} counts them).
 *
 * @example
 * ```ts
 * positionAt('[\n  1,\n]', 6); // { line: 2, column: 5 }
 * ```
 */
export function positionAt(text: string, offset: number): TextPosition {
  const starts = lineStarts(text, offset);
  return { line: starts.length, column: offset - (starts[starts.length - 1] as number) + 1 };
}
