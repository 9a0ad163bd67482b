/**
 * The value an `equals` condition compares the record's attribute with: a user attribute, or the id of the
 * question's tenant. Every evaluator reads it here, so that "no tenant" and "a tenant id that is not a number of a
 * number column" select no record everywhere alike — they are `null`, which equals nothing.
 */
import { PermissionsUsageError } from '../common/errors.js';
import { loneSurrogateIn, NOT_TEXT } from '../common/lone-surrogate.js';
import { describeValue } from '../common/describe-value.js';
import type { OwnershipContext } from './ownership-context.js';
import type { EqualsCondition, TenantIdType } from './ownership-rule.js';
import { userScalar, type UserScalar } from './ownership-user-values.js';

/**
 * The tenant id as a record of a resource with `tenantIdType` holds it, or null when no record can hold it: no
 * tenant, or (for `"number"`) an id that is not the canonical text of a safe integer — `"12"` and `"-3"` are
 * numbers; `"012"`, `"1e1"`, `" 12"`, `"12.0"`, `"-0"` and `"acme"` are not, and select no record. A tenant that is
 * neither a string nor undefined (a question built by hand) is a PermissionsUsageError.
 *
 * @example
 * ```ts
 * tenantIdValue('acme', 'string'); // 'acme'
 * tenantIdValue('12', 'number'); // 12
 * tenantIdValue('012', 'number'); // null
 * tenantIdValue(undefined, 'string'); // null
 * ```
 */
export function tenantIdValue(tenant: unknown, tenantIdType: TenantIdType | undefined): string | number | null {
  if (tenant === undefined) return null;
  if (typeof tenant !== 'string')
    throw new PermissionsUsageError(`The tenant of an ownership question must be a string or left out, got ${describeValue(tenant)}.`);
  const lone = loneSurrogateIn(tenant);
  // A database receives a lone surrogate as U+FFFD: the rule would select another tenant's records than in memory.
  if (lone !== undefined) throw new PermissionsUsageError(`The tenant of an ownership question ${NOT_TEXT(lone)}`);
  if (tenantIdType !== 'number') return tenant;
  const number = Number(tenant);
  // The canonical text of the number is the id itself: leading zeros, exponents, spaces and signs of zero differ.
  return Number.isSafeInteger(number) && String(number) === tenant ? number : null;
}

/**
 * The value `condition` compares the record's attribute with, for `user` in `tenant`: null selects no record.
 *
 * @example
 * ```ts
 * comparedValue({ attribute: 'companyId', equals: { tenant: 'id' } }, context, user, '12'); // 12 where tenantIdType is "number"
 * comparedValue({ attribute: 'creatorId', equals: { user: 'id' } }, context, { id: 3, roles: [] }, undefined); // 3
 * ```
 */
export function comparedValue(condition: EqualsCondition, context: OwnershipContext, user: object, tenant: unknown): UserScalar {
  const reference = condition.equals;
  if ('tenant' in reference) return tenantIdValue(tenant, context.tenantIdType);
  return userScalar(user, reference.user, context.userAttributes);
}
