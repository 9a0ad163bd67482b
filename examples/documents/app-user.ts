/**
 * The user the example app hands to the permissions library: who they are, their roles, and the attributes its
 * ownership rules read.
 */
import type { PermissionsRuleUser } from '../../generated/index.js';

/**
 * A user as the example app knows it: the database id, the role names as read from `user_roles`, the company
 * they work for (`users.company_id`) and the users they manage directly (`managers`) — the attributes that the
 * ownership rules of definitions/document.resource.json read. Requests without a user get the placeholder
 * `{ id: 0, roles: ['ANONYMOUS'], companyId: null, managedUserIds: [] }`. Roles are plain strings here because they
 * come from the database; unknown ones are ignored by the permissions library.
 *
 * @example
 * ```ts
 * const user: AppUser = { id: 7, roles: ['COMPANY_ADMIN', 'EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [5, 6] };
 * ```
 */
export interface AppUser extends PermissionsRuleUser {
  readonly id: number;
  readonly roles: readonly string[];
  readonly companyId: number | null;
  readonly managedUserIds: readonly number[];
}

/**
 * The tenant a user's questions are asked in: their company's id as text, or `undefined` for a user of no company
 * (the anonymous caller included), whose questions use the compiled policy's roles only.
 *
 * @example
 * ```ts
 * tenantOfUser({ id: 3, roles: ['QA_MANAGER'], companyId: 1, managedUserIds: [2, 5] }); // '1'
 * tenantOfUser({ id: 8, roles: ['EMPLOYEE', 'SUPER_ADMIN'], companyId: null, managedUserIds: [] }); // undefined
 * ```
 */
export function tenantOfUser(user: AppUser): string | undefined {
  return user.companyId === null ? undefined : String(user.companyId);
}
