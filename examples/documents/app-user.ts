/**
 * The user the example app hands to the permissions library and to its ownership hooks.
 */

/**
 * A user as the example app knows it: the database id and the role names, as read from
 * `user_roles` (or the placeholder `{ id: 0, roles: ['ANONYMOUS'] }` for requests without a user).
 * Roles are plain strings here because they come from the database; unknown ones are ignored by
 * the permissions library.
 *
 * @example
 * ```ts
 * const user: AppUser = { id: 7, roles: ['COMPANY_ADMIN', 'EMPLOYEE_MANAGER'] };
 * ```
 */
export interface AppUser {
  readonly id: number;
  readonly roles: readonly string[];
}
