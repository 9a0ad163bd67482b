/**
 * A cell of the policy as plain sentences, for readers who are not developers: who may do what to which records,
 * seeing which attributes. Built from the same parts as PERMISSIONS.md's cells (emit/cell-grants.ts). The sentences
 * are plain text; the page escapes them (html-text.ts).
 */
import type { CellGrant } from '../emit/cell-grants.js';

/**
 * `a, b and c`.
 *
 * @example
 * ```ts
 * listInWords(['date', 'status', 'title']); // 'date, status and title'
 * ```
 */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/**
 * The attributes a part shows, in words: `all attributes`, `all attributes except confidential and personal`,
 * `only date and title`, or — for a mix that reads no other way — `the attributes` and the patterns as written.
 *
 * @example
 * ```ts
 * attributesInWords(['*', '!confidential']); // 'all attributes except confidential'
 * attributesInWords(['date', 'title']);      // 'only date and title'
 * ```
 */
export function attributesInWords(patterns: readonly string[]): string {
  if (patterns.length === 0) return 'no attributes';
  const [first, ...rest] = patterns;
  if (first === '*' && rest.every((pattern) => pattern.startsWith('!') && pattern.length > 1)) {
    return rest.length === 0 ? 'all attributes' : `all attributes except ${listInWords(rest.map((pattern) => pattern.slice(1)))}`;
  }
  if (patterns.every((pattern) => !pattern.startsWith('!') && pattern !== '*' && !pattern.endsWith('.*'))) return `only ${listInWords(patterns)}`;
  return `the attributes ${patterns.join(' ')}`;
}

/** `a document`, `an invoice`: the article a reader expects before a name starting with a vowel letter. */
function withArticle(name: string): string {
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/**
 * What one cell grants, as one sentence per part (every record first, then each ownership check), or one sentence
 * saying it grants nothing.
 *
 * @example
 * ```ts
 * cellSentences('EMPLOYEE', 'list', 'document', grants.of(cell));
 * // ['EMPLOYEE may list any document, seeing only date and title.',
 * //  "EMPLOYEE may list a document where creatorId is the user's id (rule creator), seeing all attributes except confidential."]
 * cellSentences('EMPLOYEE', 'delete', 'document', []); // ['EMPLOYEE may not delete any document.']
 * ```
 */
export function cellSentences(role: string, action: string, resource: string, parts: readonly CellGrant[]): string[] {
  if (parts.length === 0) return [`${role} may not ${action} any ${resource}.`];
  return parts.map((part) => {
    const seeing = `seeing ${attributesInWords(part.patterns)}`;
    if (part.possession === 'any') return `${role} may ${action} any ${resource}, ${seeing}.`;
    const { rule, label } = part.ownership;
    const which = rule === undefined ? `they own, as the check ${label} decides` : `where ${rule.condition} (rule ${rule.name})`;
    return `${role} may ${action} ${withArticle(resource)} ${which}, ${seeing}.`;
  });
}
