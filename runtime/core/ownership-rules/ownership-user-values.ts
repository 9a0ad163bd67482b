/**
 * Reading the user attributes a rule names from the user the permit is for, checked against their declared types.
 * Every evaluator reads them here, so that a missing or mistyped attribute fails the same way everywhere — a typed
 * error naming it, never a comparison that quietly matches nothing or everything.
 */
import { PermissionsUsageError } from '../common/errors.js';
import { describeValue } from '../common/describe-value.js';
import { loneSurrogateIn, NOT_TEXT } from '../common/lone-surrogate.js';
import { quoteForMessage } from '../common/printable-text.js';
import { OWNERSHIP_LIMITS, type OwnershipLiteral, type UserAttributeType } from './ownership-rule.js';

/** The value of a scalar user attribute: `null` equals nothing. */
export type UserScalar = OwnershipLiteral | null;

function fitsScalar(value: unknown, type: string): value is OwnershipLiteral {
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

function declaredType(types: Readonly<Record<string, UserAttributeType>>, name: string): UserAttributeType {
  const type = Object.hasOwn(types, name) ? types[name] : undefined;
  if (type === undefined)
    throw new PermissionsUsageError(`Ownership rule reads user attribute ${quoteForMessage(name)}, which is not declared in "userAttributes".`);
  return type;
}

function present(user: object, name: string): unknown {
  const value: unknown = Object.hasOwn(user, name) ? (user as Record<string, unknown>)[name] : undefined;
  if (value === undefined)
    throw new PermissionsUsageError(
      `The user has no attribute ${quoteForMessage(name)}, which an ownership rule reads. Give the user object "${name}" (null when it has no value).`,
    );
  return value;
}

/**
 * The scalar user attribute `name`: a value of its declared type, or null. Missing (or `undefined`), of another
 * type, or a non-finite number: a PermissionsUsageError naming it.
 *
 * @example
 * ```ts
 * userScalar({ id: 1, roles: [], companyId: null }, 'companyId', { companyId: 'number' }); // null
 * userScalar({ id: 1, roles: [] }, 'companyId', { companyId: 'number' }); // throws: The user has no attribute "companyId", …
 * ```
 */
export function userScalar(user: object, name: string, types: Readonly<Record<string, UserAttributeType>>): UserScalar {
  const type = declaredType(types, name);
  const value = present(user, name);
  if (value === null) return null;
  if (!fitsScalar(value, type))
    throw new PermissionsUsageError(
      `User attribute ${quoteForMessage(name)} must be a ${type === 'number' ? 'finite number' : type} or null, got ${describeValue(value)}.`,
    );
  checkWholeText(value, name, '');
  return value;
}

/**
 * Refuses a string holding a lone surrogate: a database receives it as U+FFFD, so its rule would select the
 * records of another value than in memory (`ops\uD800` and `ops\uDFFF` would both match `ops\uFFFD`).
 */
function checkWholeText(value: OwnershipLiteral, name: string, where: string): void {
  const lone = typeof value === 'string' ? loneSurrogateIn(value) : undefined;
  if (lone !== undefined) throw new PermissionsUsageError(`User attribute ${quoteForMessage(name)}${where} ${NOT_TEXT(lone)}`);
}

/**
 * The list user attribute `name`: its values, each of the declared type, at most 10,000; `null` is the empty list.
 * Missing, not an array, an entry of another type, or too long: a PermissionsUsageError naming it.
 *
 * @example
 * ```ts
 * userList({ id: 3, roles: [], managedUserIds: [2, 5] }, 'managedUserIds', { managedUserIds: 'number[]' }); // [2, 5]
 * ```
 */
export function userList(user: object, name: string, types: Readonly<Record<string, UserAttributeType>>): readonly OwnershipLiteral[] {
  const type = declaredType(types, name);
  const value = present(user, name);
  if (value === null) return [];
  const entryType = type.slice(0, -2);
  if (!Array.isArray(value))
    throw new PermissionsUsageError(`User attribute ${quoteForMessage(name)} must be a list of ${entryType}s or null, got ${describeValue(value)}.`);
  if (value.length > OWNERSHIP_LIMITS.maxUserListLength)
    throw new PermissionsUsageError(
      `User attribute ${quoteForMessage(name)} holds ${value.length} values; an ownership rule reads at most ${OWNERSHIP_LIMITS.maxUserListLength}.`,
    );
  // entries() visits every index, holes included: forEach skips the holes of a sparse array, which adapters read as undefined.
  for (const [i, entry] of (value as unknown[]).entries()) {
    if (!fitsScalar(entry, entryType))
      throw new PermissionsUsageError(
        `User attribute ${quoteForMessage(name)} must hold only ${entryType === 'number' ? 'finite numbers' : `${entryType}s`}, ` +
          `got ${describeValue(entry)} at entry ${i}.`,
      );
    checkWholeText(entry, name, `, entry ${i},`);
  }
  return value as readonly OwnershipLiteral[];
}
