/**
 * What every adapter's `ownedAmong` and `listOwned` share: the ids it is asked about, checked and bounded before
 * any statement, and the ids read back from the rows the database returns.
 */
import { describeValue } from '../core/common/describe-value.js';
import { PermissionsUsageError } from '../core/common/errors.js';

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
  ids.forEach((id: unknown, index) => {
    const fits = typeof id === 'string' || typeof id === 'bigint' || (typeof id === 'number' && Number.isFinite(id));
    if (!fits)
      throw new PermissionsUsageError(
        `Record id at index ${index} must be a string, a finite number or a bigint, got ${typeof id === 'number' ? String(id) : describeValue(id)}.`,
      );
  });
  return ids as readonly OwnershipRecordId[];
}

/**
 * The `id` of each row a statement returned. A result that is not an array of objects holding `id` (a query
 * function that returns the driver's whole result instead of its rows, say) is a PermissionsUsageError.
 *
 * @example
 * ```ts
 * idsOfRows([{ id: 1 }, { id: 4 }]); // [1, 4]
 * ```
 */
export function idsOfRows(rows: unknown): readonly unknown[] {
  if (!Array.isArray(rows))
    throw new PermissionsUsageError(`The query must resolve to the statement's rows (an array of objects with "id"), got ${describeValue(rows)}.`);
  return rows.map((row: unknown, index) => {
    const id: unknown = typeof row === 'object' && row !== null && Object.hasOwn(row, 'id') ? (row as { readonly id: unknown }).id : undefined;
    if (id === undefined || id === null) throw new PermissionsUsageError(`Row ${index} of the statement's rows holds no "id", got ${describeValue(row)}.`);
    return id;
  });
}
