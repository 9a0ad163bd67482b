/**
 * What the review page highlights when it compares two versions of a policy: per cell, what changed (a cell
 * granted or no longer granted, attributes shown widened or narrowed, ownership changed), each as a word the page
 * prints beside its colour, and a summary for the top of every page.
 */
import { plural } from '../emit/plural.js';
import { attributesInWords, listInWords } from './cell-sentence.js';
import { declarationLines } from './diff-text.js';
import type { AttributeChange, CellChange, DeclarationChange, NameChanges, OwnershipChange, PolicyDiff } from './policy-diff.js';
import { cellKey, type PolicyView } from './policy-view.js';

/** One change of one cell; `text` says what changed in words (`any: only date and title`). */
export interface CellMark {
  readonly kind: 'added' | 'removed' | 'widened' | 'narrowed' | 'changed';
  readonly text: string;
}

/** The changes from an earlier version of the policy to the one the page shows. */
export interface SiteChanges {
  /** How the earlier and the shown versions are named to readers (a folder, a bundle file). */
  readonly beforeLabel: string;
  readonly afterLabel: string;
  /** The earlier version, for the cells and names it had that the shown version no longer has. */
  readonly before: PolicyView;
  /** The changes of each cell that changed, by `cellKey`, in a fixed order per cell. */
  readonly marks: ReadonlyMap<string, readonly CellMark[]>;
  /** The summary, one plain sentence a line; empty when nothing changed. */
  readonly summary: readonly string[];
}

function ownershipWords(labels: readonly string[]): string {
  return labels.length === 0 ? '' : ` (${listInWords(labels)})`;
}

function cellMark(change: CellChange): CellMark {
  const what = `${change.possession}${change.possession === 'own' ? ownershipWords(change.ownership) : ''}, ${attributesInWords(change.attributes)}`;
  return { kind: change.change === 'gained' ? 'added' : 'removed', text: what };
}

function attributeMark(change: AttributeChange): CellMark {
  // Declared attributes are named as attributes; without declarations, the patterns themselves are what changed.
  const noun = change.basis === 'declared' ? '' : 'the patterns ';
  const said: string[] = [];
  if (change.added.length > 0) said.push(`now also shows ${noun}${listInWords(change.added)}`);
  if (change.removed.length > 0) said.push(`no longer shows ${noun}${listInWords(change.removed)}`);
  const group = change.ownership === undefined ? '' : ` (records owned by ${change.ownership})`;
  return { kind: change.change, text: `${change.possession}${group}: ${said.join('; ')}` };
}

function ownershipMark(change: OwnershipChange): CellMark {
  if (change.redefined.length > 0) {
    const redefined = `${listInWords(change.redefined)} redefined`;
    return {
      kind: 'changed',
      text: `own: ownership ${redefined}, now ${listInWords(change.definitionsAfter)}, before ${listInWords(change.definitionsBefore)}`,
    };
  }
  return { kind: 'changed', text: `own: ownership now decided by ${listInWords(change.after)}, before by ${listInWords(change.before)}` };
}

/** A sentence per changed declaration of a resource: `Resource doc: id type number -> string.` */
function declarationSentences(change: DeclarationChange): string[] {
  return declarationLines(change).map((line) => `Resource ${change.resource}: ${line.slice(2)}.`);
}

function nameLines(changes: NameChanges, what: string): string[] {
  const lines: string[] = [];
  if (changes.added.length > 0) lines.push(`${what} added: ${changes.added.join(', ')}.`);
  if (changes.removed.length > 0) lines.push(`${what} removed: ${changes.removed.join(', ')}.`);
  return lines;
}

/**
 * The highlights of the review page from the exact diff of two policies (policy-diff.ts): a mark per change of each
 * cell, and a summary in sentences.
 *
 * @example
 * ```ts
 * const changes = siteChangesOf(policyView(before), diffPolicies(before, after, { before: 'main/definitions', after: 'definitions' }));
 * changes.marks.get(cellKey('document', 'EMPLOYEE', 'list')); // [{ kind: 'narrowed', text: 'any: no longer shows date' }]
 * changes.summary; // ['1 attribute set narrowed (fewer attributes shown).']
 * ```
 */
export function siteChangesOf(before: PolicyView, diff: PolicyDiff): SiteChanges {
  const marks = new Map<string, CellMark[]>();
  const mark = (cell: { resource: string; role: string; action: string }, one: CellMark) => {
    const key = cellKey(cell.resource, cell.role, cell.action);
    const list = marks.get(key);
    if (list === undefined) marks.set(key, [one]);
    else list.push(one);
  };
  for (const change of diff.cells) mark(change, cellMark(change));
  for (const change of diff.attributes) mark(change, attributeMark(change));
  for (const change of diff.ownership) mark(change, ownershipMark(change));
  const { summary } = diff;
  const counted: [number, string][] = [
    [summary.cellsGained, `${plural(summary.cellsGained, 'permission')} added.`],
    [summary.cellsLost, `${plural(summary.cellsLost, 'permission')} removed.`],
    [summary.attributesWidened, `${plural(summary.attributesWidened, 'attribute set')} widened (more attributes shown).`],
    [summary.attributesNarrowed, `${plural(summary.attributesNarrowed, 'attribute set')} narrowed (fewer attributes shown).`],
    [summary.attributesChanged, `${plural(summary.attributesChanged, 'attribute set')} changed (some attributes shown, others hidden).`],
    [summary.ownershipChanged, `${plural(summary.ownershipChanged, 'ownership change')} (another rule or check decides which records are own).`],
  ];
  const lines = [
    ...counted.filter(([count]) => count > 0).map(([, line]) => line),
    ...nameLines(diff.roles, 'Roles'),
    ...nameLines(diff.resources, 'Resources'),
    ...nameLines(diff.actions, 'Actions'),
    ...diff.declarations.flatMap(declarationSentences),
  ];
  return { beforeLabel: diff.before, afterLabel: diff.after, before, marks, summary: lines };
}
