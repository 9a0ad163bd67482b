/**
 * The combination of a user's roles for one resource and action: one map look-up for a single role; for
 * several, the combination of their distinct cells, made once per set and kept (bounded) per resource and action.
 */
import { describeValue } from '../common/describe-value.js';
import { PermissionsUsageError } from '../common/errors.js';
import { didYouMean } from '../common/nearest-name.js';
import { undeclaredActionMessage } from '../definition/declared-actions.js';
import { combinationBytes, combineRoles, NO_GRANT, type Combination, type GrantIndex } from '../tables/table-loader.js';
import { declaredActionsOf } from '../tables/vocabulary.js';
import type { OnceWarnings } from './once-warnings.js';

/** A cache key for a set of combinations sorted by id: one number while it fits exactly, else a string. */
function combinationKey(sorted: readonly Combination[], count: number): number | string {
  const base = count + 1;
  if (base ** sorted.length >= Number.MAX_SAFE_INTEGER) return sorted.map((combination) => combination.id).join(',');
  let key = 0;
  for (const combination of sorted) key = key * base + combination.id + 1;
  return key;
}

function warnUnknownRole(index: GrantIndex, warnings: OnceWarnings, name: string): void {
  if (!index.roleIndex.has(name))
    warnings.warn(`role\u0000${name}`, () => ({
      problem: `unknown role ${describeValue(name)}: no definition names it`,
      consequence: 'it is ignored',
      hint: didYouMean(name, index.roleIndex.keys()),
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

/**
 * What `roles` may do with `action` on `resource`. Unknown roles, resources and actions grant nothing (and are
 * warned about once each, or refused with `strict`); an action the resource does not declare, on a resource that
 * declares its actions, is refused with a PermissionsUsageError.
 *
 * @example
 * ```ts
 * lookupCombination(index, ['EMPLOYEE'], 'document', 'read', warnings).ownActionGranted; // true
 * ```
 */
export function lookupCombination(index: GrantIndex, roles: readonly string[], resource: string, action: string, warnings: OnceWarnings): Combination {
  const byAction = index.resources.get(resource);
  if (byAction === undefined) {
    warnings.warn(`resource\u0000${resource}`, () => ({
      problem: `unknown resource ${describeValue(resource)}: no definition names it`,
      consequence: 'nothing is granted',
      hint: didYouMean(resource, index.resources.keys()),
    }));
    return NO_GRANT;
  }
  const entry = byAction.get(action);
  if (entry === undefined) {
    // A resource that declares its actions has entries for those only: any other is asked in vain.
    const declared = declaredActionsOf(index.tables).get(resource);
    if (declared !== undefined) throw undeclaredActionError(resource, action, [...declared]);
    warnings.warn(`action\u0000${action}`, () => ({
      problem: `unknown action ${describeValue(action)}: no definition grants it on any resource`,
      consequence: 'nothing is granted',
      hint: didYouMean(action, byAction.keys()),
    }));
    return NO_GRANT;
  }
  const { byRole } = entry;
  if (roles.length === 1) {
    const name = roles[0] as string;
    const combination = byRole.get(name);
    if (combination !== undefined) return combination;
    warnUnknownRole(index, warnings, name);
    return NO_GRANT;
  }
  // Most multi-role users have one role that matters for a given resource and action, and roles whose cells
  // say the same share one combination: only build a cache key when two distinct combinations meet.
  let first: Combination = NO_GRANT;
  let others: Combination[] | undefined;
  for (let i = 0; i < roles.length; i++) {
    const name = roles[i] as string;
    const combination = byRole.get(name);
    if (combination === undefined) {
      warnUnknownRole(index, warnings, name);
      continue;
    }
    if (combination === first) continue;
    if (first === NO_GRANT) first = combination;
    else if (others === undefined) others = [combination];
    else if (!others.includes(combination)) others.push(combination);
  }
  if (others === undefined) return first;
  others.push(first);
  others.sort((a, b) => a.id - b.id);
  const key = combinationKey(others, index.combinationCount);
  let combination = entry.multiRole.get(key);
  if (combination === undefined) {
    combination = combineRoles(others);
    // Full: the oldest is forgotten, so a changing working set of role combinations stays cached.
    entry.multiRole.set(key, combination, combinationBytes(combination));
  }
  return combination;
}
