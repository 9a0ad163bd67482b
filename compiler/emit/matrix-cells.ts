/**
 * The text of one cell of PERMISSIONS.md: what a role may do with one action on one resource (any,
 * own with its ownership check), with the attributes it may see — the parts cell-grants.ts reads, in Markdown.
 * Each plan and hook is rendered once, not once per cell: a plan can be long, and `*` grants repeat the same
 * few plans in every cell.
 */
import type { GrantCell, GrantTables } from 'typed-permissions/internal';
import { CellGrants } from './cell-grants.js';
import { markdownCode, markdownName } from './markdown-text.js';

/** An attribute list whose Markdown is longer than this is shown once, under "Attribute sets", and cells name it. */
export const ATTRIBUTE_SET_MIN_CHARS = 120;

/**
 * Renders the cells of one policy's tables, remembering the long attribute lists it named as sets.
 *
 * @example
 * ```ts
 * const cells = new MatrixCells(tables);
 * row[column] = cells.text(cell); // '**any**: `*`<br>**own** (`isCreator`): `title`'
 * ```
 */
export class MatrixCells {
  private readonly grants: CellGrants;
  private readonly planTexts = new Map<readonly string[], string>();
  private readonly hookTexts = new Map<string, string>();
  /** Each long attribute list, by its text, with the name cells use for it (`A1`, `A2`, …), in order of first use. */
  readonly setNames = new Map<string, string>();

  constructor(tables: GrantTables) {
    this.grants = new CellGrants(tables);
  }

  text(cell: GrantCell): string {
    let text = '';
    for (const part of this.grants.of(cell)) {
      if (part.possession === 'any') text = `**any**: ${this.attributes(part.patterns)}`;
      else text += `${text === '' ? '' : '<br>'}**own** (${this.ownershipName(part.ownership.label)}): ${this.attributes(part.patterns)}`;
    }
    return text;
  }

  /** `patterns` are the same array for the same plan (CellGrants keeps one per plan), so its text is made once. */
  private attributes(patterns: readonly string[]): string {
    let text = this.planTexts.get(patterns);
    if (text === undefined) {
      text = patterns.map((pattern) => markdownCode(pattern, 'table')).join(' ');
      this.planTexts.set(patterns, text);
    }
    if (text.length <= ATTRIBUTE_SET_MIN_CHARS) return text;
    let name = this.setNames.get(text);
    if (name === undefined) this.setNames.set(text, (name = `A${this.setNames.size + 1}`));
    return `set ${name}`;
  }

  private ownershipName(label: string): string {
    let text = this.hookTexts.get(label);
    if (text === undefined) this.hookTexts.set(label, (text = markdownName(label, 'table')));
    return text;
  }
}
