/**
 * Deciding a grant query from the combination of the user's roles: without hooks where none is needed, else by
 * asking the ownership groups about the record. The embedded engine (a policy snapshot) and remote permissions
 * (combinations from the decision service) decide with these, so a Permit means the same from either.
 */
import type { User } from '../definition/definition-types.js';
import type { ResourceIdType } from '../tables/grant-tables.js';
import type { Combination } from '../tables/table-loader.js';
import type { LoggedDecision } from './engine-settings.js';
import type { GrantQuery } from './grant-query.js';
import { OwnershipMemo, type OwnershipSettings } from './ownership-memo.js';
import { Permit, type PermitContext } from './permit.js';
import { resourceIdOfType } from './resource-id.js';

/** A decision that needs no hook (a Permit), or what asking ownership of one record needs. */
export type Decision<TUser extends User<unknown>, TId, TFilter> = Permit<TUser, TId, TFilter> | OwnershipQuestion<TId>;

/** What deciding a query on one record still needs: whether the user owns it, for the combination's groups. */
export interface OwnershipQuestion<TId> {
  readonly combination: Combination;
  readonly resourceId: TId;
  /**
   * The user's id and roles as they were decided with, copied before any hook runs (the embedded engine sets it, for
   * its decision log): an application that changes its user object while a hook runs does not rewrite the event.
   */
  readonly decidedFor?: LoggedDecision['user'];
}

/**
 * The resource id of a query in the resource's declared id type (`'10'` → 10 for numeric ids), or undefined
 * when the query names none; a PermissionsInvalidIdError for anything else, before any hook runs.
 *
 * @example
 * ```ts
 * queriedResourceId({ user, resource: 'document', action: 'read', resourceId: '10' }, 'number'); // 10
 * ```
 */
export function queriedResourceId<TId>(query: GrantQuery<User<unknown>, unknown>, idType: ResourceIdType | undefined): TId | undefined {
  return query.resourceId === undefined || query.resourceId === null ? undefined : (resourceIdOfType(query.resourceId, query.resource, idType) as TId);
}

/**
 * The decision of a query from its combination, where no hook is needed (no record, granted as any, or not as
 * own): a Permit. Else the question ownership must answer. The embedded engine and remote permissions both decide so.
 *
 * @example
 * ```ts
 * const decided = decideWithoutHooks(user, 'document', 'read', 10, combination, context);
 * const permit = decided instanceof Permit ? decided : await decideOwnership(user, 'document', 'read', decided, context);
 * ```
 */
export function decideWithoutHooks<TUser extends User<unknown>, TId, TFilter>(
  user: TUser,
  resource: string,
  action: string,
  resourceId: TId | undefined,
  combination: Combination,
  context: PermitContext & OwnershipSettings,
): Decision<TUser, TId, TFilter> {
  if (resourceId === undefined || combination.anyGranted || !combination.ownActionGranted) {
    const granted = combination.anyGranted || combination.ownActionGranted;
    return new Permit<TUser, TId, TFilter>(user, resource, action, resourceId, granted, granted, combination, context, undefined);
  }
  return { combination, resourceId };
}

/**
 * The decision of a query whose record's ownership decides: the combination's groups are asked (isOwner, or
 * membership in listOwned), and the answers stay with the Permit for its later picks.
 *
 * @example
 * ```ts
 * const permit = await decideOwnership(user, 'document', 'read', { combination, resourceId: 10 }, context);
 * ```
 */
export async function decideOwnership<TUser extends User<unknown>, TId, TFilter>(
  user: TUser,
  resource: string,
  action: string,
  question: OwnershipQuestion<TId>,
  context: PermitContext & OwnershipSettings,
): Promise<Permit<TUser, TId, TFilter>> {
  const memo = new OwnershipMemo(user, context);
  const owned = await memo.isOwn(question.combination.owners, question.resourceId);
  return new Permit<TUser, TId, TFilter>(user, resource, action, question.resourceId, owned, owned, question.combination, context, memo);
}
