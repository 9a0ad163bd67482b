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
 * The line and column of `offset` in `text`. Line breaks are those of ECMAScript (`\n`, `\r\n`, `\r`,
 * U+2028, U+2029), as TypeScript counts them, so the compiler and the runtime name the same place.
 *
 * @example
 * ```ts
 * positionAt('[\n  1,\n]', 6); // { line: 2, column: 5 }
 * ```
 */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue; // counted at the \n
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
