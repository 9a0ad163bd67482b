/**
 * A tenant's effective policy as one set of tables: the policy's roles and the tenant's custom roles side by side,
 * as the engine decides a question asked in that tenant. The custom roles' tables share the policy's names, hooks
 * and ownership groups (the tenant roles builder makes them so), so merging renumbers only roles and plans.
 */
import { resourceCells, type GrantCell, type GrantTables } from 'typed-permissions/internal';

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The tables of `policy` with the custom roles `tenant` (built against `policy` by the tenant roles builder)
 * beside its own roles, for a diff of what a tenant's users may do. Roles are kept sorted, as the table
 * builder keeps them; cells sorted by (resource, action, role).
 *
 * @example
 * ```ts
 * const effective = tenantEffectiveTables(policy, checkTenantRoles(policy, 'acme', document).tables);
 * diffPolicies(policy, effective, { before: 'policy', after: 'tenant acme' }); // the custom roles, gained
 * ```
 */
export function tenantEffectiveTables(policy: GrantTables, tenant: GrantTables): GrantTables {
  const roles = [...new Set([...policy.roles, ...tenant.roles])].sort(byCodeUnit);
  const roleIndex = new Map(roles.map((role, i) => [role, i]));
  const policyRole = policy.roles.map((role) => roleIndex.get(role) as number);
  const tenantRole = tenant.roles.map((role) => roleIndex.get(role) as number);
  const planOffset = policy.plans.length;
  const definitionOffset = policy.definitions.length;
  const cells: GrantCell[] = [];
  policy.resources.forEach((_, resource) => {
    const { cells: range, start, end } = resourceCells(policy, resource);
    for (let i = start; i < end; i++) {
      const [r, action, role, any, own, owners, sources] = range[i] as GrantCell;
      cells.push([r, action, policyRole[role] as number, any, own, owners, sources]);
    }
  });
  for (const [r, action, role, any, own, owners, sources] of tenant.cells) {
    cells.push([
      r,
      action,
      tenantRole[role] as number,
      any === -1 ? -1 : any + planOffset,
      own.map((value, i) => (i % 2 === 1 ? value + planOffset : value)),
      owners,
      // Sources name definitions as `definition * 2 + (own ? 1 : 0)`: the tenant's follow the policy's.
      sources.map((source) => source + definitionOffset * 2),
    ]);
  }
  cells.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return {
    ...policy,
    roles,
    plans: [...policy.plans, ...tenant.plans],
    cells,
    definitions: [...policy.definitions, ...tenant.definitions.map((definition) => ({ ...definition, index: definition.index + definitionOffset }))],
  };
}
