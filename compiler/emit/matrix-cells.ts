/**
 * The text of one cell of PERMISSIONS.md: what a role may do with one action on one resource (any,
 * own with its ownership check), with the attributes it may see. Each plan and hook is rendered once,
 * not once per cell: a plan can be long, and `*` grants repeat the same few plans in every cell.
 */
import { type GrantCell, type GrantTables, groupOwnershipLabel, planFromJson, planToPatterns } from 'typed-permissions/internal';
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
  private readonly planTexts = new Map<number, string>();
  private readonly hookTexts = new Map<string, string>();
  /** Each long attribute list, by its text, with the name cells use for it (`A1`, `A2`, …), in order of first use. */
  readonly setNames = new Map<string, string>();

  constructor(private readonly tables: GrantTables) {}

  text(cell: GrantCell): string {
    const [resource, , , anyPlan, own] = cell;
    let text = anyPlan === -1 ? '' : `**any**: ${this.attributes(anyPlan)}`;
    for (let i = 0; i < own.length; i += 2) {
      text += `${text === '' ? '' : '<br>'}**own** (${this.ownershipName(own[i]!, resource)}): ${this.attributes(own[i + 1]!)}`;
    }
    return text;
  }

  private attributes(plan: number): string {
    let text = this.planTexts.get(plan);
    if (text === undefined) {
      text = planToPatterns(planFromJson(this.tables.plans[plan]!))
        .map((pattern) => markdownCode(pattern, 'table'))
        .join(' ');
      this.planTexts.set(plan, text);
    }
    if (text.length <= ATTRIBUTE_SET_MIN_CHARS) return text;
    let name = this.setNames.get(text);
    if (name === undefined) this.setNames.set(text, (name = `A${this.setNames.size + 1}`));
    return `set ${name}`;
  }

  private ownershipName(group: number, resource: number): string {
    const key = `${group}/${resource}`;
    let text = this.hookTexts.get(key);
    if (text === undefined) this.hookTexts.set(key, (text = markdownName(groupOwnershipLabel(this.tables, group, resource), 'table')));
    return text;
  }
}
