/**
 * What one cell of the tables grants, as parts a reader can be told about: every record (`any`) or the records the
 * user owns (`own`, with the ownership check or rule that decides), each with the attribute patterns it shows. Both
 * PERMISSIONS.md (matrix-cells.ts) and the review page word cells from these parts, so they never disagree. Each
 * plan and ownership group is read once per tables: `*` grants repeat the same few in every cell.
 */
import { describeRule, type GrantCell, type GrantTables, groupOwnershipLabel, planFromJson, planToPatterns } from 'typed-permissions/internal';

/** How a part of a cell decides which records it covers. */
export interface CellOwnership {
  /** The ownership check as PERMISSIONS.md names it: `rule creator`, `isCreator`, `limitToCreator via ownedDocumentsAmong`. */
  readonly label: string;
  /** When an ownership rule decides: its name and its condition in words (`creatorId is the user's id`). */
  readonly rule?: { readonly name: string; readonly condition: string };
}

/** One part of a cell: every record, or the owned records through one ownership check, with the attribute patterns shown. */
export type CellGrant =
  | { readonly possession: 'any'; readonly patterns: readonly string[] }
  | { readonly possession: 'own'; readonly ownership: CellOwnership; readonly patterns: readonly string[] };

/**
 * Reads the parts of the cells of one policy's tables.
 *
 * @example
 * ```ts
 * const grants = new CellGrants(tables);
 * grants.of(cell);
 * // [{ possession: 'any', patterns: ['date', 'title'] },
 * //  { possession: 'own', ownership: { label: 'rule creator', … }, patterns: ['*', '!confidential'] }]
 * ```
 */
export class CellGrants {
  private readonly planPatterns = new Map<number, readonly string[]>();
  private readonly ownerships = new Map<string, CellOwnership>();

  constructor(private readonly tables: GrantTables) {}

  /** The parts of `cell`: `any` first when granted, then each ownership group in the cell's order. */
  of(cell: GrantCell): CellGrant[] {
    const [resource, , , anyPlan, own] = cell;
    const parts: CellGrant[] = anyPlan === -1 ? [] : [{ possession: 'any', patterns: this.patterns(anyPlan) }];
    for (let i = 0; i < own.length; i += 2)
      parts.push({ possession: 'own', ownership: this.ownership(own[i]!, resource), patterns: this.patterns(own[i + 1]!) });
    return parts;
  }

  /**
   * The canonical attribute patterns of plan number `plan` (`['*', '!confidential']`).
   *
   * @example
   * ```ts
   * new CellGrants(tables).patterns(0); // ['*']
   * ```
   */
  patterns(plan: number): readonly string[] {
    let patterns = this.planPatterns.get(plan);
    if (patterns === undefined) this.planPatterns.set(plan, (patterns = planToPatterns(planFromJson(this.tables.plans[plan]!))));
    return patterns;
  }

  private ownership(group: number, resource: number): CellOwnership {
    const key = `${group}/${resource}`;
    let ownership = this.ownerships.get(key);
    if (ownership === undefined) {
      const label = groupOwnershipLabel(this.tables, group, resource);
      const ruleIndex = this.tables.owners[group]?.rule;
      const rule = ruleIndex === undefined ? undefined : this.tables.ownershipRules?.rules[ruleIndex];
      ownership = rule === undefined ? { label } : { label, rule: { name: rule.name, condition: describeRule(rule.condition) } };
      this.ownerships.set(key, ownership);
    }
    return ownership;
  }
}
