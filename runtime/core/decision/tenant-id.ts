/**
 * The rule for a tenant id: what every question, store and command accepts. A tenant id reaches logs, SQL
 * parameters, file names (hashed) and terminals, so it is bounded and printable; anything else is refused with
 * the same message everywhere, never truncated or cleaned into another tenant's id.
 */
import { describeValue } from '../common/describe-value.js';
import { PermissionsUsageError } from '../common/errors.js';

/** The longest tenant id, in UTF-16 code units. */
export const MAX_TENANT_ID_LENGTH = 256;

/** Control, format, separator and lone-surrogate characters: a terminal may act on them instead of showing them. */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * What is wrong with `value` as a tenant id, or undefined when it is one: a string of 1 to
 * {@link MAX_TENANT_ID_LENGTH} characters, none of them a control or format character.
 *
 * @example
 * ```ts
 * tenantIdProblem('acme'); // undefined
 * tenantIdProblem(''); // 'must not be empty'
 * ```
 */
export function tenantIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${describeValue(value)}`;
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_TENANT_ID_LENGTH) return `must be at most ${MAX_TENANT_ID_LENGTH} characters, got ${value.length}`;
  if (NOT_PRINTABLE.test(value)) return 'must not contain control or format characters';
  return undefined;
}

/**
 * `value` as a tenant id, or a PermissionsUsageError naming `what` (`grantPermit: tenant`).
 *
 * @example
 * ```ts
 * checkTenantId('acme', 'grantPermit: tenant'); // 'acme'
 * checkTenantId(7, 'grantPermit: tenant'); // throws: grantPermit: tenant must be a string, got number.
 * ```
 */
export function checkTenantId(value: unknown, what: string): string {
  const problem = tenantIdProblem(value);
  if (problem !== undefined) throw new PermissionsUsageError(`${what} ${problem}.`);
  return value as string;
}
