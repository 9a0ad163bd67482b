/**
 * Text from definitions, written into generated Markdown so that it renders as exactly that text:
 * never as HTML, a link, emphasis, a new table cell or a new line. Names and descriptions are input;
 * a policy must not be able to make PERMISSIONS.md say it grants something it does not.
 */
import { printableText } from 'typed-permissions/internal';

/**
 * Where the text goes. In a GFM table cell a `|` ends the cell even inside a code span, so it is
 * written `\|` there (GFM turns that back into `|`); elsewhere `\|` inside a code span would show
 * the backslash.
 */
export type MarkdownPlace = 'table' | 'text';

/** Characters with no glyph that a viewer may act on: controls, format characters, line separators, lone surrogates. */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * The ASCII punctuation that can start or delimit an inline construct of GFM: escapes, code spans,
 * emphasis and strikethrough, links and images (and footnotes, which start with `[`), raw HTML and
 * autolinks, character references, table cells, and a heading's closing `#`s. A backslash before
 * any ASCII punctuation is an escape in CommonMark, so escaping these never changes the text.
 */
const SIGNIFICANT = /[\\`*_~[\]<>&|!#]/g;

/**
 * A word GFM may turn into a link by itself (`http://…`, `www.…`, `a@b.c`, `mailto:`/`xmpp:` with
 * an `@`). Backslash escapes do not stop that: the autolink transform runs on the unescaped text
 * (measured with mdast-util-gfm), so such a word is written as a code span, which is never linked.
 */
const LINK_LIKE = /:\/\/|www\.|@/i;

/** A single code span whose fence is longer than any run of backticks inside. `content` is printable and not empty. */
function codeSpan(content: string, place: MarkdownPlace): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < content.length; i++) {
    if (content.charCodeAt(i) === 0x60) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end when both ends have one, and a backtick next to the fence would lengthen it.
  const bothSpaced = content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content);
  const pad = content.startsWith('`') || content.endsWith('`') || bothSpaced ? ' ' : '';
  const body = place === 'table' ? content.replaceAll('|', '\\|') : content;
  return `${fence}${pad}${body}${pad}${fence}`;
}

function codeSpans(visible: string, place: MarkdownPlace): string {
  if (visible === '') return '';
  if (place === 'text') return codeSpan(visible, place);
  // A backslash right before a pipe would pair with the pipe's escape (`\\|` ends the cell), and a code span cannot escape it:
  // close the span there and write that pipe as an escaped character between two spans.
  return visible
    .split(/(?<=\\)\|/)
    .map((piece) => (piece === '' ? '' : codeSpan(piece, place)))
    .join('\\|');
}

/** Where the text between leading and trailing ASCII spaces starts and ends (a loop: ` +$` backtracks quadratically on long inner runs of spaces). */
function spaceBounds(text: string): [start: number, end: number] {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) === 0x20) start++;
  let end = text.length;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return [start, end];
}

const ALPHANUMERIC = /^[A-Za-z0-9]$/;

function escapeCharacter(character: string, offset: number, word: string): string {
  // An underscore between two ASCII letters or digits can neither open nor close emphasis, so names such as EMPLOYEE_MANAGER stay as written.
  if (character === '_' && ALPHANUMERIC.test(word.charAt(offset - 1)) && ALPHANUMERIC.test(word.charAt(offset + 1))) return character;
  return `\\${character}`;
}

function escapeWords(text: string, place: MarkdownPlace): string {
  return text
    .split(' ')
    .map((word) => (LINK_LIKE.test(word) ? codeSpans(word, place) : word.replace(SIGNIFICANT, escapeCharacter)))
    .join(' ');
}

/**
 * A name, attribute pattern or file name as a code span: shown literally, in monospace. Control and
 * format characters appear as visible escapes (`\u0007`) — they have no glyph, and a line break
 * would end the table row.
 *
 * @example
 * ```ts
 * markdownCode('!confidential', 'table');        // '`!confidential`'
 * markdownCode('a` | **b**', 'table');           // '``a` \\| **b**``'
 * markdownCode('`', 'text');                      // '`` ` ``'
 * ```
 */
export function markdownCode(text: string, place: MarkdownPlace): string {
  return codeSpans(printableText(text), place);
}

/**
 * A role, resource, action, hook or file name as plain text: Markdown punctuation is escaped with
 * backslashes, link-like words become code spans, control and format characters appear as visible
 * escapes, and spaces at either end (which a table cell would trim) are written as `&#32;`. A
 * plain name comes back unchanged.
 *
 * @example
 * ```ts
 * markdownName('EMPLOYEE', 'table');            // 'EMPLOYEE'
 * markdownName('**any**', 'table');             // '\\*\\*any\\*\\*'
 * markdownName('www.evil.example', 'table');    // '`www.evil.example`'
 * ```
 */
export function markdownName(text: string, place: MarkdownPlace): string {
  const visible = printableText(text);
  const [start, end] = spaceBounds(visible);
  return `${'&#32;'.repeat(start)}${escapeWords(visible.slice(start, end), place)}${'&#32;'.repeat(visible.length - end)}`;
}

/**
 * A description as prose: Markdown punctuation is escaped with backslashes, link-like words become
 * code spans, and line breaks, control and format characters become spaces (a description is read,
 * not compared); spaces at either end are dropped.
 *
 * @example
 * ```ts
 * markdownProse('Editors *may* publish.\r\nSee www.example.com', 'table');
 * // 'Editors \\*may\\* publish.  See `www.example.com`'
 * ```
 */
export function markdownProse(text: string, place: MarkdownPlace): string {
  const spaced = text.replace(NOT_PRINTABLE, ' ');
  const [start, end] = spaceBounds(spaced);
  return escapeWords(spaced.slice(start, end), place);
}
