/**
 * The filters of owned records a Permit hands to the application's queries: each ownership group's
 * limitOwned filter (or, for `limitOwnWith`, its listed ids made into a filter), combined into one by the
 * application's `limitOwnReduce`. Filters are configured, never executed.
 */
import type { LimitOwnReducer, User } from '../definition/definition-types.js';
import { PermissionsUsageError } from '../common/errors.js';
import type { LoadedOwner } from '../tables/table-loader.js';
import { callHookSync } from './hook-call.js';
import type { OwnershipMemo } from './ownership-memo.js';
import { withTenant } from './hook-arguments.js';

/** What the filters of one permit are about. */
export interface OwnedQuery {
  readonly user: User<unknown>;
  /** The tenant the permit was decided in, added to every filter's arguments; undefined: no tenant. */
  readonly tenant: string | undefined;
  readonly resource: string;
  readonly action: string;
  readonly owners: readonly LoadedOwner[];
  readonly limitOwnReduce: LimitOwnReducer | undefined;
}

/** A group's filter, as `limitOwnReduce` receives it: called with `{ user }` (the permit's tenant is added). */
type FilterOf = (args: object) => unknown;

/**
 * The limitOwned filters of every group of `query` (a group decided by listOwned cannot be one: a usage error).
 *
 * @example
 * ```ts
 * const filter = reduceFilters(query, limitOwnedFilters(query), 'limitOwn()');
 * ```
 */
export function limitOwnedFilters(query: OwnedQuery): FilterOf[] {
  const listOnly = query.owners.filter((owner) => owner.limitOwned === undefined);
  if (listOnly.length > 0) {
    throw new PermissionsUsageError(
      `limitOwn() cannot express the ownership decided by listOwned hook${listOnly.length === 1 ? '' : 's'} ` +
        `${listOnly.map((o) => o.listOwned?.name).join(', ')} for ${query.action} on ${query.resource}; use listOwn() for these roles.`,
    );
  }
  return query.owners.map((owner) => {
    const hook = owner.limitOwned as NonNullable<LoadedOwner['limitOwned']>;
    return (args: object) => callHookSync(hook, withTenant(args, query.tenant));
  });
}

/**
 * Every group's filter, listOwned groups included: their ids (one call per group) become a filter through `byIds`.
 *
 * @example
 * ```ts
 * const filters = await listedOrLimitedFilters(query, memo, (ids) => (eb) => eb('id', 'in', ids));
 * ```
 */
export async function listedOrLimitedFilters<TId>(query: OwnedQuery, memo: OwnershipMemo, byIds: (ids: TId[]) => unknown): Promise<FilterOf[]> {
  return Promise.all(
    query.owners.map(async (owner): Promise<FilterOf> => {
      const { limitOwned, listOwned } = owner;
      if (limitOwned !== undefined) return (args: object) => callHookSync(limitOwned, withTenant(args, query.tenant));
      const ids = [...(await memo.listedBy(owner, listOwned as NonNullable<LoadedOwner['listOwned']>))] as TId[];
      return () => byIds(ids);
    }),
  );
}

/**
 * One filter from the filters of every ownership group: `limitOwnReduce`, else the only one; several without a
 * reducer, or none, is a usage error that says what to configure.
 *
 * @example
 * ```ts
 * reduceFilters(query, limitOwnedFilters(query), 'limitOwn()');
 * ```
 */
export function reduceFilters(query: OwnedQuery, limitOwneds: readonly FilterOf[], what: string): unknown {
  const { limitOwnReduce: reduce, user, tenant, owners, action, resource } = query;
  if (reduce !== undefined) {
    const filter: unknown = reduce(tenant === undefined ? { user, limitOwneds } : { user, tenant, limitOwneds });
    if (filter instanceof Promise) {
      filter.catch(() => undefined);
      throw new PermissionsUsageError(
        `${what}: limitOwnReduce returned a promise, not a filter. Return the combined filter as it is (not from an async function).`,
      );
    }
    return filter;
  }
  if (limitOwneds.length === 1) return (limitOwneds[0] as FilterOf)({ user });
  throw new PermissionsUsageError(
    limitOwneds.length === 0
      ? `${what}: no ownership hook applies to ${action} on ${resource} for roles ${JSON.stringify(user.roles)}, so nothing is owned. ` +
          'Configure limitOwnReduce (it receives an empty list) to express that as a filter, or check permit.anyGranted first.'
      : `${what}: ${limitOwneds.length} ownership hooks apply to ${action} on ${resource} ` +
          `(${owners.map((o) => o.limitOwned?.name ?? o.listOwned?.name).join(', ')}); configure limitOwnReduce to combine them (typically with OR).`,
  );
}
