/**
 * The tokens of JSON text (strings, numbers, the value that should have been there), read after
 * `JSON.parse` has failed, to name what a person probably meant: a comment, single quotes, NaN, a
 * hexadecimal number, a leading zero, an unescaped line break, an invisible space.
 */

/** Where and why a text is not strict JSON, before the offset is turned into a line and column. */
export interface JsonMistake {
  /** Offset in the text (after the byte order mark, if any). */
  readonly offset: number;
  /** What is wrong, as a phrase: `a comment (JSON has no comments)`. */
  readonly description: string;
  readonly fix: string;
}

/**
 * Whether the character code is an ASCII digit.
 *
 * @example
 * ```ts
 * isDigit('7'.charCodeAt(0)); // true
 * ```
 */
export function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/**
 * Whether the character code can be part of an unquoted word (`NaN`, `roles`, `truex`).
 *
 * @example
 * ```ts
 * isWordChar('$'.charCodeAt(0)); // true
 * ```
 */
export function isWordChar(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x24;
}

/**
 * Whether the character code is one of the four spaces JSON allows between tokens (not U+00A0).
 *
 * @example
 * ```ts
 * isJsonSpace('\t'.charCodeAt(0)); // true
 * ```
 */
export function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * The character at `offset`, quoted, or by code point when it is invisible or confusable: a quoted
 * U+00A0 looks like a space.
 *
 * @example
 * ```ts
 * shown('a\u00a0b', 1); // 'U+00A0'
 * shown('a;b', 1);      // "';'"
 * ```
 */
export function shown(text: string, offset: number): string {
  const code = text.codePointAt(offset) ?? 0;
  const char = String.fromCodePoint(code);
  if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff) || (code > 0x7e && /[\s\p{Cf}\p{Zl}\p{Zp}]/u.test(char)))
    return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${char}'`;
}

const NUMBER_FIX = 'Write numbers as JSON does: 10, -1.5, 2e3 (decimal, no leading zero or plus sign).';

/** A word where a value was expected: JavaScript's non-JSON values, or an unquoted string. */
function unquotedWord(text: string, offset: number): JsonMistake {
  let end = offset;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end += 1;
  const word = text.slice(offset, end);
  if (word === 'NaN' || word === 'Infinity' || word === 'undefined')
    return { offset, description: `${word}, which is not a JSON value`, fix: 'Write a number, a string, true, false or null.' };
  return { offset, description: `the unquoted word ${word}`, fix: `Write strings in double quotes ("${word}"), or use true, false or null.` };
}

/**
 * Names what stands at `offset` where a value (or a key) was expected and is not one.
 *
 * @example
 * ```ts
 * notAValue("['read']", 1).description; // 'a single-quoted string (JSON strings use double quotes)'
 * ```
 */
export function notAValue(text: string, offset: number, expected: 'value' | 'key' = 'value'): JsonMistake {
  const code = text.charCodeAt(offset);
  if (code === 0xfeff)
    return { offset, description: 'a byte order mark (U+FEFF) inside the text', fix: 'Remove it: one byte order mark is allowed, at the very start only.' };
  if (code > 0x7e && /\s/.test(text[offset] ?? ''))
    return {
      offset,
      description: `the space character ${shown(text, offset)}, which JSON does not allow`,
      fix: 'Replace it with an ordinary space, or remove it.',
    };
  if (code === 0x2f && (text[offset + 1] === '/' || text[offset + 1] === '*')) {
    return { offset, description: 'a comment (JSON has no comments)', fix: 'Remove the comment; a definition can carry its explanation in "descr".' };
  }
  if (code === 0x27)
    return { offset, description: 'a single-quoted string (JSON strings use double quotes)', fix: 'Write the string in double quotes: "read", not \'read\'.' };
  if (code === 0x2b || code === 0x2e) return { offset, description: `a number starting with ${shown(text, offset)}`, fix: NUMBER_FIX };
  if (isWordChar(code)) return unquotedWord(text, offset);
  if (expected === 'key')
    return { offset, description: `${shown(text, offset)} where a key was expected`, fix: 'Write "key": value there, with the key in double quotes.' };
  return {
    offset,
    description: `${shown(text, offset)} where a value was expected`,
    fix: 'Write a value there: a string in double quotes, a number, an array, an object, true, false or null.',
  };
}

/**
 * Reads the string starting at the `"` at `start`.
 *
 * @returns its end (after the closing quote), or the mistake in it.
 * @example
 * ```ts
 * scanString('"read", 1', 0); // 6
 * ```
 */
export function scanString(text: string, start: number): number | JsonMistake {
  let i = start + 1;
  for (;;) {
    if (i >= text.length) return { offset: start, description: 'a string that is never closed', fix: 'Close the string with a double quote.' };
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code === 0x5c) {
      const escaped = text[i + 1];
      if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i += 2;
      else if (escaped === 'u' && [2, 3, 4, 5].every((k) => isHex(text.charCodeAt(i + k)))) i += 6;
      else
        return { offset: i, description: `the invalid escape \\${escaped ?? ''} in a string`, fix: 'Use one of \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX.' };
      continue;
    }
    if (code < 0x20)
      return {
        offset: i,
        description: `an unescaped control character (${shown(text, i)}) in a string`,
        fix: 'Escape it: \\n for a line break, \\t for a tab.',
      };
    i += 1;
  }
}

/** The end of the digits starting at `i`. */
function skipDigits(text: string, i: number): number {
  let end = i;
  while (isDigit(text.charCodeAt(end))) end += 1;
  return end;
}

/** The integer part of a number (after its sign), starting at `i`: its end, or the mistake. */
function scanIntegerPart(text: string, start: number, i: number): number | JsonMistake {
  if (text.charCodeAt(i) !== 0x30) return skipDigits(text, i);
  const next = text[i + 1] ?? '';
  if (/[xXoObB]/.test(next))
    return {
      offset: start,
      description: `a ${/[xX]/.test(next) ? 'hexadecimal' : /[oO]/.test(next) ? 'octal' : 'binary'} number`,
      fix: 'Write the number in decimal.',
    };
  if (isDigit(text.charCodeAt(i + 1))) return { offset: start, description: 'a number with a leading zero', fix: NUMBER_FIX };
  return i + 1;
}

/**
 * Reads the number starting at `start`.
 *
 * @returns its end, or the mistake in it.
 * @example
 * ```ts
 * scanNumber('-1.5e3]', 0); // 6
 * scanNumber('0x1F', 0);    // { offset: 0, description: 'a hexadecimal number', … }
 * ```
 */
export function scanNumber(text: string, start: number): number | JsonMistake {
  let i = start;
  if (text.charCodeAt(i) === 0x2d) {
    i += 1;
    if (text.startsWith('Infinity', i))
      return { offset: start, description: '-Infinity, which is not a JSON value', fix: 'Write a number, a string, true, false or null.' };
    if (!isDigit(text.charCodeAt(i))) return { offset: start, description: 'a minus sign without a number', fix: NUMBER_FIX };
  }
  const integerEnd = scanIntegerPart(text, start, i);
  if (typeof integerEnd !== 'number') return integerEnd;
  i = integerEnd;
  if (text.charCodeAt(i) === 0x2e) {
    i += 1;
    if (!isDigit(text.charCodeAt(i))) return { offset: start, description: 'a number without digits after its decimal point', fix: NUMBER_FIX };
    i = skipDigits(text, i);
  }
  if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
    i += 1;
    if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i += 1;
    if (!isDigit(text.charCodeAt(i))) return { offset: start, description: 'a number without digits in its exponent', fix: NUMBER_FIX };
    i = skipDigits(text, i);
  }
  return i;
}
