/**
 * A policy diff as plain text for a terminal: the summary line, the names added or removed, then each resource's
 * changes, one line each — `+` a cell gained, `-` a cell lost, `~` attributes or ownership changed.
 */
import type { AttributeChange, CellChange, DeclarationChange, OwnershipChange, PolicyDiff } from './policy-diff.js';
import { summaryLine } from './policy-diff.js';

const list = (names: readonly string[]): string => names.map((name) => JSON.stringify(name)).join(', ');
/** The most characters of one list of attribute patterns in the text; the rest are counted (`--format json` lists them). */
export const MAX_TEXT_PATTERNS = 300;

/**
 * A list of attribute patterns, as many as fit {@link MAX_TEXT_PATTERNS} characters, then how many more there are:
 * a policy of thousands of patterns per cell would otherwise make a text longer than a string may hold.
 */
function patterns(values: readonly string[]): string {
  if (values.length === 0) return '(none)';
  let text = '';
  let shown = 0;
  for (const value of values) {
    if (shown > 0 && text.length + 1 + value.length > MAX_TEXT_PATTERNS) break;
    text = shown === 0 ? value : `${text} ${value}`;
    shown++;
  }
  return shown === values.length ? text : `${text} … and ${values.length - shown} more`;
}

/** One line per change of `diff`, grouped by resource (sorted), without the heading. */
export function changeLinesByResource(diff: PolicyDiff): Map<string, string[]> {
  const byResource = new Map<string, { order: string; line: string }[]>();
  const add = (resource: string, order: string, line: string) => {
    const lines = byResource.get(resource) ?? [];
    lines.push({ order, line });
    byResource.set(resource, lines);
  };
  const key = (change: { action: string; role: string }, possession: string, kind: number) => JSON.stringify([change.action, change.role, possession, kind]);
  for (const cell of diff.cells) add(cell.resource, key(cell, cell.possession, 0), cellLine(cell));
  for (const change of diff.attributes) add(change.resource, key(change, change.possession, 1), attributeLine(change));
  for (const change of diff.ownership) add(change.resource, key(change, 'own', 2), ownershipLine(change));
  // A resource's declarations come first: they concern every cell of it.
  for (const change of diff.declarations) for (const line of declarationLines(change)) add(change.resource, JSON.stringify(['', line]), line);
  const sorted = new Map<string, string[]>();
  for (const resource of [...byResource.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const lines = byResource.get(resource) ?? [];
    lines.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    sorted.set(
      resource,
      lines.map(({ line }) => line),
    );
  }
  return sorted;
}

function cellLine(cell: CellChange): string {
  const ownership = cell.ownership.length === 0 ? '' : ` (ownership: ${cell.ownership.join(', ')})`;
  return `${cell.change === 'gained' ? '+' : '-'} ${cell.role} ${cell.action}:${cell.possession}, attributes ${patterns(cell.attributes)}${ownership}`;
}

function attributeLine(change: AttributeChange): string {
  const parts = [...change.added.map((name) => `+${name}`), ...change.removed.map((name) => `-${name}`)].join(' ');
  const basis = change.basis === 'declared' ? 'declared attributes' : 'patterns';
  const group = change.ownership === undefined ? '' : ` (ownership: ${change.ownership})`;
  const what = `${change.role} ${change.action}:${change.possession}${group}, attributes ${change.change} (${basis} ${parts})`;
  return `~ ${what}: ${patterns(change.before)} -> ${patterns(change.after)}`;
}

function ownershipLine(change: OwnershipChange): string {
  const line = `~ ${change.role} ${change.action}:own, ownership ${change.before.join(', ') || '(none)'} -> ${change.after.join(', ') || '(none)'}`;
  return change.redefined.length === 0 ? line : `${line} (redefined ${change.redefined.join(', ')}: ${redefinition(change)})`;
}

/**
 * What the groups of a redefined ownership decide, before and after: `isOwner isCreator, listOwned listCreated ->
 * isOwner isCreator, listOwned listEveryDocument` (groups apart by ` | `).
 *
 * @example
 * ```ts
 * redefinition(change); // "rule creator: creatorId is the user's id -> rule creator: creatorId is one of the user's managedUserIds"
 * ```
 */
export function redefinition(change: OwnershipChange): string {
  return `${change.definitionsBefore.join(' | ')} -> ${change.definitionsAfter.join(' | ')}`;
}

/**
 * A resource's changed declarations, one line each: `~ id type number -> string`, `~ declared actions read -> purge,
 * read (+purge)`.
 *
 * @example
 * ```ts
 * declarationLines({ resource: 'doc', idType: { before: 'number', after: 'string' } }); // ['~ id type number -> string']
 * ```
 */
export function declarationLines(change: DeclarationChange): string[] {
  const lines: string[] = [];
  if (change.idType !== undefined) lines.push(`~ id type ${change.idType.before ?? '(none)'} -> ${change.idType.after ?? '(none)'}`);
  if (change.actions !== undefined) {
    const { before, after, added, removed } = change.actions;
    const declared = (actions: readonly string[] | null) => (actions === null ? '(none: any action)' : actions.join(', ') || '(no action)');
    const parts = [...added.map((name) => `+${name}`), ...removed.map((name) => `-${name}`)].join(' ');
    lines.push(`~ declared actions ${declared(before)} -> ${declared(after)}${parts === '' ? '' : ` (${parts})`}`);
  }
  return lines;
}

/**
 * The diff as text: `Policy diff <before> -> <after>: <summary>`, then the roles, resources and actions added or
 * removed, then each resource's changes.
 *
 * @example
 * ```ts
 * console.log(formatDiffText(diffPolicies(before, after, { before: 'main', after: 'definitions' })));
 * // Policy diff main -> definitions: +1 −0 cells
 * // document:
 * //   + EDITOR review:any, attributes *
 * ```
 */
export function formatDiffText(diff: PolicyDiff): string {
  const lines = [`Policy diff ${diff.before} -> ${diff.after}: ${summaryLine(diff.summary)}`];
  for (const [what, changes] of [
    ['roles', diff.roles],
    ['resources', diff.resources],
    ['actions', diff.actions],
  ] as const) {
    if (changes.added.length > 0) lines.push(`${what} added: ${list(changes.added)}`);
    if (changes.removed.length > 0) lines.push(`${what} removed: ${list(changes.removed)}`);
  }
  for (const [resource, changes] of changeLinesByResource(diff)) {
    lines.push(`${resource}:`);
    for (const line of changes) lines.push(`  ${line}`);
  }
  return lines.join('\n');
}
