/**
 * Serialising built cells into the tables' rows: sorted by (resource, action, role), attribute plans
 * interned by their JSON, and the small number lists cells repeat shared as one array each.
 */
import { planToJson, type AttributePlan, type AttributePlanJson } from '../projection/attribute-plan.js';
import type { GrantCell } from '../tables/grant-tables.js';
import type { CellBuild } from './grant-cells.js';
import type { KnownNames } from './known-names.js';

const NO_NUMBERS: readonly number[] = [];

/**
 * The rows and the distinct plans of `cells`, deterministic for equal definitions.
 *
 * @example
 * ```ts
 * const { plans, rows } = cellRows(cells.cells, names);
 * ```
 */
export function cellRows(cells: ReadonlyMap<number, CellBuild>, names: KnownNames): { plans: AttributePlanJson[]; rows: GrantCell[] } {
  const plans: AttributePlanJson[] = [];
  const planIndex = new Map<string, number>();
  const planIdentity = new Map<AttributePlan, number>();
  const internPlan = (plan: AttributePlan): number => {
    const known = planIdentity.get(plan);
    if (known !== undefined) return known;
    const json = planToJson(plan);
    const key = JSON.stringify(json);
    let index = planIndex.get(key);
    if (index === undefined) planIndex.set(key, (index = plans.push(json) - 1));
    planIdentity.set(plan, index);
    return index;
  };
  // Cells repeat the same few lists (a '*' grant gives every cell it reaches the same sources): one
  // exact-size array per distinct list keeps the tables of a large policy small.
  const lists = new Map<string, readonly number[]>();
  const shared = (list: readonly number[]): readonly number[] => {
    const key = list.join(',');
    let known = lists.get(key);
    if (known === undefined) lists.set(key, (known = [...list]));
    return known;
  };
  const rows: GrantCell[] = [];
  for (const key of [...cells.keys()].sort((a, b) => a - b)) {
    const cell = cells.get(key) as CellBuild;
    const role = key % names.roles.length;
    const rest = (key - role) / names.roles.length;
    const action = rest % names.actions.length;
    const resource = (rest - action) / names.actions.length;
    const own = cell.own === undefined ? NO_NUMBERS : shared([...cell.own].sort(([a], [b]) => a - b).flatMap(([group, plan]) => [group, internPlan(plan)]));
    rows.push([
      resource,
      action,
      role,
      cell.any === undefined ? -1 : internPlan(cell.any),
      own,
      cell.owners === undefined ? NO_NUMBERS : shared(cell.owners.sort((a, b) => a - b)),
      shared(cell.sources.sort((a, b) => a - b)),
    ]);
  }
  return { plans, rows };
}
