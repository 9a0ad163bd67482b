/**
 * A compiled policy as the review page reads it: by name rather than by index, so that two versions of a policy
 * (whose tables number their names differently) can be shown side by side in one matrix.
 */
import { describeRule, type GrantTables } from 'typed-permissions/internal';
import { CellGrants, type CellGrant } from '../emit/cell-grants.js';

/** An ownership rule definitions name, in words. */
export interface RuleView {
  readonly resource: string;
  readonly name: string;
  readonly condition: string;
}

/** One policy, by name; every list sorted by code unit (as the tables sort their names). */
export interface PolicyView {
  readonly roles: readonly string[];
  readonly resources: readonly string[];
  /** Per resource, the actions its table has a column for: those it declares, else those granted on it. */
  readonly actions: ReadonlyMap<string, readonly string[]>;
  /** What each granted (resource, role, action) grants, by {@link cellKey}; a cell not granted is absent. */
  readonly cells: ReadonlyMap<string, readonly CellGrant[]>;
  /** Per resource, the descriptions of the definitions that grant something on it, each once, in definition order. */
  readonly descriptions: ReadonlyMap<string, readonly string[]>;
  readonly rules: readonly RuleView[];
}

/**
 * The key of one cell of a {@link PolicyView}: the names as a JSON array, so no name can make two cells share a key.
 *
 * @example
 * ```ts
 * cellKey('document', 'EMPLOYEE', 'read'); // '["document","EMPLOYEE","read"]'
 * ```
 */
export function cellKey(resource: string, role: string, action: string): string {
  return JSON.stringify([resource, role, action]);
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The {@link PolicyView} of compiled tables.
 *
 * @example
 * ```ts
 * const view = policyView(model.tables);
 * view.cells.get(cellKey('document', 'EMPLOYEE', 'read'));
 * // [{ possession: 'own', ownership: { label: 'rule creator', … }, patterns: ['*', '!confidential'] }]
 * ```
 */
export function policyView(tables: GrantTables): PolicyView {
  const grants = new CellGrants(tables);
  const cells = new Map<string, readonly CellGrant[]>();
  const granted = tables.resources.map(() => new Set<string>());
  const described = tables.resources.map(() => new Set<number>());
  for (const cell of tables.cells) {
    const [resource, action, role, , , , sources] = cell;
    const parts = grants.of(cell);
    if (parts.length === 0) continue;
    const resourceName = tables.resources[resource]!;
    cells.set(cellKey(resourceName, tables.roles[role]!, tables.actions[action]!), parts);
    granted[resource]!.add(tables.actions[action]!);
    for (const source of sources) described[resource]!.add(source >> 1);
  }
  const actions = new Map<string, readonly string[]>();
  const descriptions = new Map<string, readonly string[]>();
  tables.resources.forEach((resource, r) => {
    const declared = tables.declaredActions?.[r] ?? null;
    actions.set(resource, declared === null ? [...granted[r]!].sort(byCodeUnit) : declared.map((a) => tables.actions[a]!).sort(byCodeUnit));
    const texts = [...described[r]!]
      .sort((a, b) => a - b)
      .map((d) => tables.definitions[d]?.descr ?? '')
      .filter((text) => text.trim() !== '');
    descriptions.set(resource, [...new Set(texts)]);
  });
  const rules = (tables.ownershipRules?.rules ?? []).map((rule) => ({ resource: rule.resource, name: rule.name, condition: describeRule(rule.condition) }));
  return { roles: [...tables.roles], resources: [...tables.resources], actions, cells, descriptions, rules };
}
