/**
 * A policy diff as Markdown for a pull-request comment: a summary line, the names added or removed, then a table
 * per resource (collapsed in `<details>` when it is long). Names come from definitions anyone may write, so every
 * name and pattern is escaped: it shows as written and never becomes a link, a tag, a table column or code.
 */
import { declarationLines, redefinition } from './diff-text.js';
import type { AttributeChange, CellChange, DeclarationChange, OwnershipChange, PolicyDiff } from './policy-diff.js';
import { summaryLine } from './policy-diff.js';

/** The most table rows one Markdown diff shows; the rest are counted, and `--format json` lists them all. */
export const MAX_MARKDOWN_ROWS = 250;
/**
 * The most characters of one Markdown diff: GitHub refuses a comment of more than 65,536, so rows stop before this,
 * with room for the note that says how many were left out.
 */
export const MAX_MARKDOWN_LENGTH = 60_000;
/** A resource with more rows than this is collapsed in `<details>`. */
export const COLLAPSE_AFTER_ROWS = 10;
/** The most characters of one table cell's text (a long list of patterns is cut, with `…`). */
export const MAX_MARKDOWN_CELL = 300;

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '|': '&#124;', '`': '&#96;', '"': '&quot;' };

/**
 * `text` as literal Markdown inline text, also inside a table cell (never at the start of a line, where `#`, `-`
 * and digits mean more): HTML and table characters as entities, the punctuation of emphasis, links and automatic
 * links behind a backslash, line breaks as spaces.
 *
 * @example
 * ```ts
 * markdownText('a|b <i>'); // 'a&#124;b &lt;i&gt;'
 * ```
 */
export function markdownText(text: string): string {
  return (
    text
      .replace(/[\r\n]+/g, ' ')
      .replace(/[&<>|`"]/g, (char) => ENTITIES[char] as string)
      // Emphasis, links and strikethrough; `:` and `@` so that no name becomes an automatic link (`https://…`, `a@b.c`).
      .replace(/[\\*_[\]~:@]/g, (char) => `\\${char}`)
      .replace(/www\./gi, (www) => `${www.slice(0, 3)}&#46;`)
  );
}

/** `text` as literal HTML text: its markup characters as entities, line breaks as spaces. */
function htmlText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[&<>|`"]/g, (char) => ENTITIES[char] as string);
}

function cut(text: string): string {
  return text.length <= MAX_MARKDOWN_CELL ? text : `${text.slice(0, MAX_MARKDOWN_CELL - 1)}…`;
}

const patterns = (values: readonly string[]): string => (values.length === 0 ? '(none)' : cut(values.join(' ')));

interface Row {
  readonly order: string;
  readonly cells: readonly string[];
}

function cellRow(cell: CellChange): Row {
  return {
    order: JSON.stringify([cell.action, cell.role, cell.possession, 0]),
    cells: [cell.change, cell.role, cell.action, cell.possession, patterns(cell.attributes), cut(cell.ownership.join(', '))],
  };
}

function attributeRow(change: AttributeChange): Row {
  const parts = [...change.added.map((name) => `+${name}`), ...change.removed.map((name) => `-${name}`)].join(' ');
  return {
    order: JSON.stringify([change.action, change.role, change.possession, 1]),
    cells: [
      `attributes ${change.change}`,
      change.role,
      change.action,
      change.possession,
      cut(`${parts} (${patterns(change.before)} → ${patterns(change.after)})`),
      cut(change.ownership ?? ''),
    ],
  };
}

function ownershipRow(change: OwnershipChange): Row {
  return {
    order: JSON.stringify([change.action, change.role, 'own', 2]),
    cells: [
      'ownership changed',
      change.role,
      change.action,
      'own',
      '',
      cut(
        `${change.before.join(', ') || '(none)'} → ${change.after.join(', ') || '(none)'}` +
          (change.redefined.length === 0 ? '' : ` (redefined ${change.redefined.join(', ')}: ${redefinition(change)})`),
      ),
    ],
  };
}

/** A row per changed declaration of a resource, its words in the Change column (`id type number -> string`). */
function declarationRows(change: DeclarationChange): Row[] {
  return declarationLines(change).map((line) => ({ order: JSON.stringify(['', line]), cells: [cut(line.slice(2)), '', '', '', '', ''] }));
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function rowsByResource(diff: PolicyDiff): [string, Row[]][] {
  const rows = new Map<string, Row[]>();
  const add = (resource: string, row: Row) => rows.set(resource, [...(rows.get(resource) ?? []), row]);
  for (const cell of diff.cells) add(cell.resource, cellRow(cell));
  for (const change of diff.attributes) add(change.resource, attributeRow(change));
  for (const change of diff.ownership) add(change.resource, ownershipRow(change));
  for (const change of diff.declarations) for (const row of declarationRows(change)) add(change.resource, row);
  return [...rows.entries()].sort(([a], [b]) => byCodeUnit(a, b)).map(([resource, list]) => [resource, list.sort((a, b) => byCodeUnit(a.order, b.order))]);
}

const HEADER = '| Change | Role | Action | Possession | Attributes | Ownership |\n| --- | --- | --- | --- | --- | --- |';

/** The longest list of names added or removed: six such lists leave room for the tables of changes. */
const MAX_NAMES_LINE_LENGTH = 5000;

/** `- Roles added: A, B` with as many names as fit {@link MAX_NAMES_LINE_LENGTH}, then how many more there are. */
function namesLine(what: string, names: readonly string[]): string {
  let line = `- ${what}: `;
  let listed = 0;
  for (const name of names) {
    const text = `${listed === 0 ? '' : ', '}${markdownText(name)}`;
    if (line.length + text.length > MAX_NAMES_LINE_LENGTH - 40) break;
    line += text;
    listed++;
  }
  return listed === names.length ? line : `${line}${listed === 0 ? '' : ','} and ${names.length - listed} more`;
}

/** One resource's section: a heading (or a collapsed `<details>` for many rows) and its table of `body` rows. */
function sectionText(resource: string, rows: number, body: string): string {
  const count = `${rows} ${rows === 1 ? 'change' : 'changes'}`;
  const table = `${HEADER}\n${body}`;
  // Inside <summary> Markdown is not read: the name is escaped as HTML only, or its backslashes would show.
  return rows > COLLAPSE_AFTER_ROWS
    ? `<details>\n<summary>${htmlText(resource)}: ${count}</summary>\n\n${table}\n\n</details>`
    : `#### ${markdownText(resource)}: ${count}\n\n${table}`;
}

/** The last line when rows were left out, naming the limit that was reached first. */
function leftOutNote(left: number, limit: 'rows' | 'length'): string {
  const why =
    limit === 'rows' ? `at most ${MAX_MARKDOWN_ROWS} rows fit a comment` : `at most ${MAX_MARKDOWN_LENGTH.toLocaleString('en-US')} characters fit a comment`;
  return (
    `${left} more ${left === 1 ? 'change is' : 'changes are'} not shown (${why}); ` +
    '`npx typed-permissions diff <before> <after> --format json` lists every change.'
  );
}

/** The room the note takes at most (with its separator): kept free while rows are added. */
const NOTE_ROOM = 2 + Math.max(leftOutNote(Number.MAX_SAFE_INTEGER, 'rows').length, leftOutNote(Number.MAX_SAFE_INTEGER, 'length').length);

/**
 * The diff as Markdown: `**Policy diff** before → after: summary`, then per resource a table of its changes. At
 * most {@link MAX_MARKDOWN_ROWS} rows and {@link MAX_MARKDOWN_LENGTH} characters; a last line says how many
 * changes were left out.
 *
 * @example
 * ```ts
 * writeFileSync('policy-diff.md', formatDiffMarkdown(diffPolicies(main, branch, { before: 'main', after: 'definitions' })));
 * ```
 */
export function formatDiffMarkdown(diff: PolicyDiff): string {
  const parts = [`**Policy diff** ${markdownText(diff.before)} → ${markdownText(diff.after)}: ${markdownText(summaryLine(diff.summary))}`];
  const names: string[] = [];
  for (const [what, changes] of [
    ['Roles', diff.roles],
    ['Resources', diff.resources],
    ['Actions', diff.actions],
  ] as const) {
    if (changes.added.length > 0) names.push(namesLine(`${what} added`, changes.added));
    if (changes.removed.length > 0) names.push(namesLine(`${what} removed`, changes.removed));
  }
  if (names.length > 0) parts.push(names.join('\n'));
  let shown = 0;
  let left = 0;
  let limit: 'rows' | 'length' | undefined;
  let length = parts.join('\n\n').length;
  for (const [resource, rows] of rowsByResource(diff)) {
    const shell = sectionText(resource, rows.length, '');
    let body = '';
    for (const row of rows) {
      const line = `| ${row.cells.map(markdownText).join(' | ')} |`;
      // The section's heading and table header count from its first row; the note's room is kept whatever comes.
      const projected = length + 2 + shell.length + body.length + (body === '' ? 0 : 1) + line.length + NOTE_ROOM;
      if (shown >= MAX_MARKDOWN_ROWS || projected > MAX_MARKDOWN_LENGTH) {
        limit ??= shown >= MAX_MARKDOWN_ROWS ? 'rows' : 'length';
        left++;
        continue;
      }
      body = body === '' ? line : `${body}\n${line}`;
      shown++;
    }
    if (body === '') continue;
    const section = sectionText(resource, rows.length, body);
    length += 2 + section.length;
    parts.push(section);
  }
  if (left > 0) parts.push(leftOutNote(left, limit ?? 'rows'));
  return `${parts.join('\n\n')}\n`;
}
