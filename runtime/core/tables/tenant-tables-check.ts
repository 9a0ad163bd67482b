/**
 * The check of a tenant's compiled custom roles (compiled-tenant-roles.ts): their header holds their own parts only
 * — `format`, `roles`, `plans` and the counts of `cells` and `definitions` — and their cells name the names and
 * ownership groups of the policy's tables, whose vocabulary is checked once per policy however many tenants are
 * read. The same checks as the generated code's tables (table-shape.ts), and a check of packed cells that makes
 * none of them. Only the tenant's chunk imports it.
 */
import type { GrantTables } from './grant-tables.js';
import type { PackedCellBounds } from './packed-cells-fit.js';
import { checkedRolesAndPlans, checkedVocabulary, fail, partsCheck, type CellRules, type CellVocabulary, type PackedTablesCheck } from './table-shape.js';

/** A tenant's parts' checks, and the bounds their packed cells are read within. */
export interface TenantTablesCheck {
  readonly check: PackedTablesCheck;
  /** Undefined when the header is malformed (`check.header` says why). */
  readonly bounds: PackedCellBounds | undefined;
}

/** The vocabulary of each policy's tables, checked once however many tenants' tables are checked against it. */
const policyVocabularies = new WeakMap<GrantTables, CellVocabulary>();

/** The bounds of packed cells under `rules`. */
function packedBounds({ vocabulary, counts }: CellRules): PackedCellBounds {
  return {
    actions: vocabulary.actions,
    roles: counts.roles,
    plans: counts.plans,
    owners: vocabulary.owners.length,
    sources: counts.definitions * 2,
    takes: (resource, action) => action < vocabulary.actions && vocabulary.declaredSets?.[resource]?.has(action) !== false,
    decides: vocabulary.decidable,
  };
}

/**
 * The checks of a tenant's packed tables over `base`, the policy's tables; each check says where a part is wrong,
 * as the generated code's tables' do.
 *
 * @example
 * ```ts
 * const { check, bounds } = tenantTablesCheck(grantTables, { format: 1, roles: ['AUDITOR'], plans: [[1, []]], cells: 2, definitions: 1 });
 * check.cellsProblem(cells, 'document'); // undefined, or 'cells of "document"[0][2] is not an index below 1'
 * ```
 */
export function tenantTablesCheck(base: GrantTables, header: unknown): TenantTablesCheck {
  let rules: CellRules | undefined;
  const check = partsCheck(header, (own, definitions) => {
    if (own['format'] !== 1) fail('format', 'is not 1');
    const counts = checkedRolesAndPlans(own);
    let vocabulary = policyVocabularies.get(base);
    if (vocabulary === undefined) policyVocabularies.set(base, (vocabulary = checkedVocabulary(base)));
    return (rules = { vocabulary, counts: { ...counts, definitions } });
  });
  return { check, bounds: rules === undefined ? undefined : packedBounds(rules) };
}
