/**
 * The check of the `resourceActions` option of an engine that builds definitions: each list by the rule of
 * `"actions"` in a `*.resource.json` (one rule, so that `build()` and the compiler accept the same lists). Kept out
 * of the options check that engines of compiled tables share, since those refuse the option anyway.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { declaredActionsProblems } from '../core/definition/declared-actions.js';

/**
 * Throws a PermissionsUsageError for the first problem of the declared lists (the option's shape is already
 * checked: an object of arrays), naming the resource and the place in its list.
 *
 * @example
 * ```ts
 * checkResourceActionsOption({ document: ['read', 'read'] });
 * // throws: Permissions option resourceActions.document[1]: Action "read" is declared twice (also at index 0). Fix: Declare each action once.
 * ```
 */
export function checkResourceActionsOption(resourceActions: { readonly [resource: string]: readonly string[] } | undefined): void {
  for (const [resource, declared] of Object.entries(resourceActions ?? {})) {
    const [problem] = declaredActionsProblems(declared);
    if (problem === undefined) continue;
    const at = `resourceActions.${resource}${problem.path.map((i) => `[${i}]`).join('')}`;
    throw new PermissionsUsageError(`Permissions option ${at}: ${problem.message} Fix: ${problem.fix}`);
  }
}
