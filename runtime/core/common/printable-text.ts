/**
 * Text that is safe to print to a terminal or a log: definitions, user roles and resource ids are
 * input, and a control character in them (an ANSI escape sequence, a carriage return, a bidi
 * override) would let that input rewrite what a person reads.
 */

/**
 * Every character that a terminal or a text viewer may act on instead of showing: C0 and C1
 * controls and DEL (Cc), format characters such as bidi overrides and zero-width characters (Cf),
 * the line and paragraph separators (Zl, Zp), and lone surrogate halves (Cs), which have no glyph.
 */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** What JSON.stringify leaves raw: DEL and C1 controls, format characters, line and paragraph separators. */
const NOT_PRINTABLE_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

function visibleEscape(character: string): string {
  const code = character.codePointAt(0) as number;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Returns `text` with every control, format, line-separator or lone-surrogate character written as
 * a visible JavaScript-style escape (`\u001b`, `\u202e`, `\u{e0041}`). Every other character,
 * including letters of any script and emoji, is kept, so plain names come back unchanged.
 *
 * @example
 * ```ts
 * printableText('EMPLOYEE');            // 'EMPLOYEE'
 * printableText('\u001b[31mred\r');     // '\\u001b[31mred\\u000d' (prints as \u001b[31mred\u000d)
 * printableText('abc\u202edef');        // 'abc\\u202edef'
 * ```
 */
export function printableText(text: string): string {
  return text.replace(NOT_PRINTABLE, visibleEscape);
}

/**
 * `JSON.stringify`, with the characters JSON leaves raw (C1 controls, DEL, format characters, line
 * separators) written as `\uXXXX` escapes too. The result is still JSON and parses back to the
 * same value; it is safe to print. Those characters can only occur inside JSON strings, where a
 * `\uXXXX` escape means the same character.
 *
 * @example
 * ```ts
 * printableJson({ role: 'A\u009b2J' }, 2); // '{\n  "role": "A\\u009b2J"\n}'
 * JSON.parse(printableJson({ role: 'A\u009b2J' })).role === 'A\u009b2J'; // true
 * ```
 */
export function printableJson(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent) as string | undefined;
  // JSON.stringify already escapes C0 controls inside strings and lone surrogates, and the line feeds of
  // `indent` must stay; astral format characters (tags) are two code units, escaped as a pair.
  return (json ?? 'null').replace(NOT_PRINTABLE_IN_JSON, (character) => {
    let escaped = '';
    for (let i = 0; i < character.length; i++) escaped += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}

/**
 * A name or value quoted for a message: JSON string syntax with every control and format character
 * as a visible escape (a message reaches logs and terminals), cut after `max` characters, so that a
 * hostile input cannot make a message huge.
 *
 * @example
 * ```ts
 * quoteForMessage('a\nb');          // '"a\\nb"'
 * quoteForMessage('x'.repeat(500)); // '"xxx…xxx…"' (60 characters and an ellipsis)
 * ```
 */
export function quoteForMessage(text: string, max = 60): string {
  return text.length > max ? `${printableText(JSON.stringify(text.slice(0, max)))}…` : printableText(JSON.stringify(text));
}
