/**
 * The ids an `ownedAmong` call is asked about: at most 10,000 per call, each a string, a finite number or a bigint.
 * Every rule source checks them the same way (the SQL adapters, the in-memory one), and the engine never asks one
 * call about more (it asks in batches).
 */
import { describeValue } from '../common/describe-value.js';
import { PermissionsUsageError } from '../common/errors.js';

/** The limits of one `ownedAmong` call. */
export const OWNERSHIP_SOURCE_LIMITS = {
  /** Ids one `ownedAmong` call may ask about: ask about more in several calls. */
  maxIds: 10_000,
} as const;

/** A record id an adapter passes to its database: a string, a finite number or a bigint. */
export type OwnershipRecordId = string | number | bigint;

/**
 * The ids `ownedAmong` was asked about, checked: an array of at most 10,000 strings, finite numbers or bigints.
 * Anything else is a PermissionsUsageError naming the entry, before any statement runs.
 *
 * @example
 * ```ts
 * checkedOwnershipIds([1, 2, 3]); // [1, 2, 3]
 * checkedOwnershipIds([1, { id: 2 }]); // throws: Record id at index 1 must be a string, a finite number or a bigint, …
 * ```
 */
export function checkedOwnershipIds(ids: readonly unknown[]): readonly OwnershipRecordId[] {
  if (!Array.isArray(ids)) throw new PermissionsUsageError(`The ids to check ownership of must be an array, got ${describeValue(ids)}.`);
  if (ids.length > OWNERSHIP_SOURCE_LIMITS.maxIds)
    throw new PermissionsUsageError(
      `Ownership of ${ids.length} ids was asked in one call; at most ${OWNERSHIP_SOURCE_LIMITS.maxIds} are checked at once. Ask in several calls.`,
    );
  // entries() visits every index, holes included (forEach skips the holes of a sparse array).
  for (const [index, id] of (ids as unknown[]).entries()) {
    const fits = typeof id === 'string' || typeof id === 'bigint' || (typeof id === 'number' && Number.isFinite(id));
    if (!fits)
      throw new PermissionsUsageError(
        `Record id at index ${index} must be a string, a finite number or a bigint, got ${typeof id === 'number' ? String(id) : describeValue(id)}.`,
      );
  }
  return ids as readonly OwnershipRecordId[];
}
