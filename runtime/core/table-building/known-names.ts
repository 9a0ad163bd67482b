/**
 * The known universe of a set of definitions: every role and resource a definition names (except `'*'`),
 * and the CRUD actions plus every action a grant names or a resource declares — sorted, and indexed, for the
 * expansion of `'*'`.
 */
import { CRUD_ACTIONS, isSyntaxProblem, parseGrantKey } from '../definition/grant-syntax.js';
import { grantEntries, rolesOf, type LocatedDefinition } from './definition-parts.js';

/** Sorted names and their positions. */
export interface KnownNames {
  readonly roles: readonly string[];
  readonly resources: readonly string[];
  readonly actions: readonly string[];
  readonly roleIndex: ReadonlyMap<string, number>;
  readonly resourceIndex: ReadonlyMap<string, number>;
  readonly actionIndex: ReadonlyMap<string, number>;
}

/**
 * Resources and actions known beyond what the definitions name: a tenant's custom roles are built within the
 * compiled policy's names, so that `'*'` means every resource of that policy and the indexes are the policy's own.
 */
export interface KnownUniverse {
  readonly resources: readonly string[];
  readonly actions: readonly string[];
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The known roles, resources and actions of `located` (with the actions its resources declare), sorted by code
 * unit (stable across machines).
 *
 * @example
 * ```ts
 * knownNames([{ definition: { roles: 'ADMIN', resource: 'doc', grant: ['approve'] }, location: { index: 0 } }]).actions;
 * // ['approve', 'create', 'delete', 'read', 'update']
 * ```
 */
export function knownNames(
  located: readonly LocatedDefinition[],
  declaredActions?: ReadonlyMap<string, { readonly actions: readonly string[] }>,
  universe?: KnownUniverse,
): KnownNames {
  const roleSet = new Set<string>();
  const resourceSet = new Set<string>(universe?.resources);
  const actionSet = new Set<string>([...CRUD_ACTIONS, ...(universe?.actions ?? [])]);
  for (const { definition } of located) {
    for (const role of rolesOf(definition)) if (role !== '*') roleSet.add(role);
    if (definition.resource !== '*') resourceSet.add(definition.resource);
    for (const [key] of grantEntries(definition)) {
      const parsed = parseGrantKey(key);
      if (!isSyntaxProblem(parsed) && parsed.action !== '*') actionSet.add(parsed.action);
    }
  }
  // What a resource no definition names declares is not used (the builder warns about it).
  for (const [resource, declared] of declaredActions ?? []) if (resourceSet.has(resource)) for (const action of declared.actions) actionSet.add(action);
  const roles = [...roleSet].sort(byCodeUnit);
  const resources = [...resourceSet].sort(byCodeUnit);
  const actions = [...actionSet].sort(byCodeUnit);
  const indexOf = (names: readonly string[]) => new Map(names.map((name, i) => [name, i]));
  return { roles, resources, actions, roleIndex: indexOf(roles), resourceIndex: indexOf(resources), actionIndex: indexOf(actions) };
}
