/**
 * The example app's `limitOwnReduce` option: how the filters of several limitOwned hooks combine.
 */
import type { LimitOwnedHook } from '../../runtime/permissions/index.js';
import type { AppUser } from './app-user.js';
import type { DocumentFilter } from './document-filter.js';

/**
 * Combines the filters of the limitOwned hooks that apply to a user into one: a document is owned
 * when any hook owns it (SQL `OR`). With no hook at all the result is a condition that is always
 * false (kysely renders `eb.or([])` as `1 = 0`), so nothing is owned — never everything.
 * Like the hooks, it configures a filter and never runs a query.
 *
 * @example
 * ```ts
 * const permissions = createPermissions({ ownership, limitOwnReduce }); // permit.limitOwn() now ORs
 *
 * // by hand: documents user 8 created OR documents of users that user 8 manages
 * const filter = limitOwnReduce({
 *   user: { id: 8, roles: ['EMPLOYEE', 'EMPLOYEE_MANAGER'] },
 *   limitOwneds: [(args) => ownership.limitToCreator(args), (args) => ownership.limitToCreatorOrManagedCreators(args)],
 * });
 * const rows = await db.selectFrom('documents').selectAll().where(filter).execute();
 * ```
 */
export function limitOwnReduce({ user, limitOwneds }: { user: AppUser; limitOwneds: readonly LimitOwnedHook<AppUser, DocumentFilter>[] }): DocumentFilter {
  return (eb) => eb.or(limitOwneds.map((limitOwned) => limitOwned({ user })(eb)));
}
