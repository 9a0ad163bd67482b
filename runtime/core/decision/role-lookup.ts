/**
 * The combination of a user's roles for one resource and action: one map look-up for a single role; for
 * several, the combination of their distinct cells, made once per set and kept (bounded) per resource and action.
 */
import { describeValue } from '../common/describe-value.js';
import { PermissionsUsageError } from '../common/errors.js';
import { didYouMean } from '../common/nearest-name.js';
import { undeclaredActionMessage } from '../definition/declared-actions.js';
import { BoundedCache } from '../common/bounded-cache.js';
import {
  combinationBytes,
  combineRoles,
  MAX_CACHED_COMBINATIONS,
  NO_GRANT,
  UNKNOWN_ACTION,
  UNKNOWN_RESOURCE,
  UNKNOWN_ROLES,
  type Combination,
  type GrantIndex,
  type LoadedResource,
} from '../tables/table-loader.js';
import { declaredActionsOf } from '../tables/vocabulary.js';
import { notARoleName } from './grant-query.js';
import type { OnceWarnings } from './once-warnings.js';
import type { RefusalReason } from './permit-reason.js';

/** The distinct combinations of one multi-role look-up, sorted by id: reused by every look-up (they never nest). */
const scratch: Combination[] = [];

/** A cache key for the first `count` combinations of `sorted` (ids below `bound`): one number while it fits exactly, else a string. */
function combinationKey(sorted: readonly Combination[], count: number, bound: number): number | string {
  const base = bound + 1;
  if (base ** count >= Number.MAX_SAFE_INTEGER)
    return sorted
      .slice(0, count)
      .map((combination) => combination.id)
      .join(',');
  let key = 0;
  for (let i = 0; i < count; i++) key = key * base + (sorted[i] as Combination).id + 1;
  return key;
}

function warnUnknownRole(index: GrantIndex, warnings: OnceWarnings, name: string): void {
  warnings.warn('role', name, () => ({
    problem: `unknown role ${describeValue(name)}: no definition names it`,
    consequence: 'it is ignored',
    hint: didYouMean(name, index.tables.roles),
  }));
}

/**
 * The refusal of an action a resource does not declare: asking it is a mistake in the code (the generated types
 * do not allow it), not a question with an answer, so it is refused whatever `strict` says.
 *
 * @example
 * ```ts
 * throw undeclaredActionError('document', 'aprove', ['approve', 'read']);
 * // grantPermit: "aprove" is not an action of "document"; its actions are "approve", "read". Did you mean "approve"?
 * ```
 */
export function undeclaredActionError(resource: string, action: string, declared: readonly string[]): PermissionsUsageError {
  return new PermissionsUsageError(`grantPermit: ${undeclaredActionMessage(resource, action, declared)}${didYouMean(action, declared)}`);
}

/** A miss on the first look-up: an unknown resource, or an action the resource does not take. */
function unknownResourceOrAction(index: GrantIndex, resource: LoadedResource | undefined, name: string, action: string, warnings: OnceWarnings): Combination {
  if (resource === undefined) {
    warnings.warn('resource', name, () => ({
      problem: `unknown resource ${describeValue(name)}: no definition names it`,
      consequence: 'nothing is granted',
      hint: didYouMean(name, index.tables.resources),
    }));
    return UNKNOWN_RESOURCE;
  }
  // A resource that declares its actions takes those only: any other is asked in vain.
  const declared = declaredActionsOf(index.tables).get(name);
  if (declared !== undefined) throw undeclaredActionError(name, action, [...declared]);
  warnings.warn('action', action, () => ({
    problem: `unknown action ${describeValue(action)}: no definition grants it on any resource`,
    consequence: 'nothing is granted',
    hint: didYouMean(action, index.tables.actions),
  }));
  return UNKNOWN_ACTION;
}

/**
 * What `roles` may do with `action` on `resource` (the loaded resource named `name`, or undefined when none is).
 * Unknown roles, resources and actions grant nothing (and are warned about once each, or refused with `strict`); an
 * action the resource does not declare, on a resource that declares its actions, is refused with a
 * PermissionsUsageError. A role without a cell costs what a role with one does: both are one look-up.
 *
 * @example
 * ```ts
 * lookupCombination(index, ['EMPLOYEE'], index.resourceByName['document'], 'document', 'read', warnings).ownActionGranted; // true
 * ```
 */
export function lookupCombination(
  index: GrantIndex,
  roles: readonly string[],
  resource: LoadedResource | undefined,
  name: string,
  action: string,
  warnings: OnceWarnings,
): Combination {
  const a = index.actionIds[action];
  if (resource === undefined || a === undefined || (resource.takes !== undefined && resource.takes[a] !== true))
    return unknownResourceOrAction(index, resource, name, action, warnings);
  const byRole = resource.byRole ?? index.combinationsOf(resource);
  if (roles.length === 1) {
    const name = roles[0];
    // Checked where it is read: a getter or a proxy may answer the query's check with a string and this read without.
    if (typeof name !== 'string') throw notARoleName(0, name);
    const role = index.roleIds[name] ?? index.roleOnFirstUse(name);
    if (role !== undefined) return (byRole[role] as readonly Combination[])[a] as Combination;
    warnUnknownRole(index, warnings, name);
    return UNKNOWN_ROLES;
  }
  // Most multi-role users have one role that matters for a given resource and action, and roles whose cells say
  // the same share one combination: only when distinct combinations meet is a key made, from their ids kept sorted
  // in a scratch list (no allocation, no comparator sort on the hot path).
  let count = 0;
  let unknown = 0;
  for (let i = 0; i < roles.length; i++) {
    const name = roles[i];
    if (typeof name !== 'string') throw notARoleName(i, name);
    const role = index.roleIds[name] ?? index.roleOnFirstUse(name);
    if (role === undefined) {
      warnUnknownRole(index, warnings, name);
      unknown++;
      continue;
    }
    const combination = (byRole[role] as readonly Combination[])[a] as Combination;
    if (combination === NO_GRANT) continue;
    let at = count;
    while (at > 0 && (scratch[at - 1] as Combination).id > combination.id) at--;
    if (at > 0 && scratch[at - 1] === combination) continue;
    for (let k = count; k > at; k--) scratch[k] = scratch[k - 1] as Combination;
    scratch[at] = combination;
    count++;
  }
  // Most often no role or one role grants: answered without touching the cache (and without a call to clear the scratch list).
  if (count === 0) return unknown > 0 && unknown === roles.length ? UNKNOWN_ROLES : NO_GRANT;
  if (count === 1) {
    const only = scratch[0] as Combination;
    scratch[0] = NO_GRANT;
    return only;
  }
  const key = combinationKey(scratch, count, index.combinationIdBound);
  const cache = (resource.multiRole[a] ??= new BoundedCache(MAX_CACHED_COMBINATIONS, index.combinationBudget));
  let combination = cache.get(key);
  if (combination === undefined) {
    combination = combineRoles(scratch.slice(0, count));
    // Full: the oldest is forgotten, so a changing working set of role combinations stays cached.
    cache.set(key, combination, combinationBytes(combination));
  }
  // The scratch list holds no combination between calls (nothing is kept alive by it).
  for (let i = 0; i < count; i++) scratch[i] = NO_GRANT;
  return combination;
}

/**
 * Why a combination the look-up gave refuses, whatever the user owns: an unknown resource, an unknown action, every
 * role unknown (`'unknown-tenant'` when asked in a tenant without custom roles kept), else no grant. Read from the
 * combination's identity ({@link UNKNOWN_RESOURCE} and its twins), so a permit's reason costs no look-up.
 *
 * @example
 * ```ts
 * refusalOfCombination(lookupCombination(index, ['GHOST'], loaded, 'document', 'read', warnings), true); // 'unknown-role'
 * ```
 */
export function refusalOfCombination(combination: Combination, tenantKnown: boolean): RefusalReason {
  if (combination === UNKNOWN_RESOURCE) return 'unknown-resource';
  if (combination === UNKNOWN_ACTION) return 'unknown-action';
  if (combination === UNKNOWN_ROLES) return tenantKnown ? 'unknown-role' : 'unknown-tenant';
  return 'no-grant';
}
