/**
 * Text from definitions written into the review page so that it shows as exactly that text: never as markup, an
 * attribute's end or a character reference. Names and descriptions are input; a policy must not be able to make the
 * page say it grants something it does not, nor run a script in the reviewer's browser.
 */
import { printableText } from 'typed-permissions/internal';

const SPECIAL = /[&<>"']/g;
const REFERENCES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * `text` for an HTML element's content or a quoted attribute value: `& < > " '` as character references, control
 * and format characters (which have no glyph, and could reorder what is shown) as visible escapes such as `\u202e`.
 *
 * @example
 * ```ts
 * htmlText('<script>alert("x")</script> & co'); // '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co'
 * htmlText('a\u202eb');                          // 'a\\u202eb'
 * ```
 */
export function htmlText(text: string): string {
  return printableText(text).replace(SPECIAL, (character) => REFERENCES[character]!);
}

/**
 * A file name for a page about `name`, number `index` of its kind: ASCII letters, digits and dashes only, so that
 * no name can reach outside the site's folder, clash with another page (the number keeps each unique, also when
 * two names differ only in case) or need escaping in a link. At most 40 characters of the name are kept.
 *
 * @example
 * ```ts
 * pageFileName('role', 2, 'EMPLOYEE_MANAGER'); // 'role-3-employee-manager.html'
 * pageFileName('resource', 0, '../<x>');       // 'resource-1-x.html'
 * ```
 */
export function pageFileName(kind: 'role' | 'resource', index: number, name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
  return `${kind}-${index + 1}${slug === '' ? '' : `-${slug}`}.html`;
}
