/**
 * What every adapter's `ownedAmong` and `listOwned` share: the ids it is asked about, checked and bounded before
 * any statement (the core's check, which the in-memory source uses too), and the ids read back from the rows the
 * database returns.
 */
import { describeValue } from '../core/common/describe-value.js';
import { PermissionsUsageError } from '../core/common/errors.js';

export { checkedOwnershipIds, OWNERSHIP_SOURCE_LIMITS, type OwnershipRecordId } from '../core/ownership-rules/ownership-ids.js';

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
