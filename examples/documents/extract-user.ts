/**
 * Who calls: the `x-user-id` header names a user of the database; no header means the anonymous
 * placeholder user. The library never authenticates — this is the app's (deliberately simple) part.
 */
import { BadRequestException, UnauthorizedException } from '@nestjs/common';
import { tenantOfUser, type AppUser } from './app-user.js';
import { exampleAnonymousUser } from './example-data.js';
import type { UsersRepository } from './users.repository.js';

/** The header the example app reads the caller from. */
export const USER_ID_HEADER = 'x-user-id';

/**
 * Returns the `extractUserFromRequest` option for the permissions module. The user is read once per request
 * (the tenant is read from it too, by `tenantFromHeader`).
 *
 * @example
 * ```ts
 * PermissionsModule.forRootAsync({ inject: [UsersRepository], useFactory: (users) => ({ extractUserFromRequest: userFromHeader(users) }) });
 * ```
 */
export function userFromHeader(users: UsersRepository): (request: unknown) => Promise<AppUser> {
  return (request) => {
    // A request object is asked for its user and for its tenant: one database read serves both.
    const key = typeof request === 'object' && request !== null ? request : undefined;
    const known = key === undefined ? undefined : usersOfRequests.get(key)?.get(users);
    if (known !== undefined) return known;
    const user = readUser(users, request);
    if (key !== undefined) {
      const byRepository = usersOfRequests.get(key) ?? new WeakMap<UsersRepository, Promise<AppUser>>();
      byRepository.set(users, user);
      usersOfRequests.set(key, byRepository);
    }
    return user;
  };
}

/** The user each request in flight was read as (weakly held: forgotten with the request). */
const usersOfRequests = new WeakMap<object, WeakMap<UsersRepository, Promise<AppUser>>>();

async function readUser(users: UsersRepository, request: unknown): Promise<AppUser> {
  const header = (request as { headers?: Record<string, string | string[] | undefined> }).headers?.[USER_ID_HEADER];
  if (header === undefined) return exampleAnonymousUser;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^[1-9]\d{0,8}$/.test(value)) throw new UnauthorizedException(`${USER_ID_HEADER} must be the id of a user.`);
  const user = await users.findUser(Number(value));
  if (user === undefined) throw new UnauthorizedException(`No user has id ${value}.`);
  return user;
}

/**
 * Returns the `extractTenantFromRequest` option for the permissions module: the tenant of the caller's company.
 *
 * @example
 * ```ts
 * PermissionsModule.forRootAsync({
 *   inject: [UsersRepository],
 *   useFactory: (users) => ({ extractUserFromRequest: userFromHeader(users), extractTenantFromRequest: tenantFromHeader(users) }),
 * });
 * ```
 */
export function tenantFromHeader(users: UsersRepository): (request: unknown) => Promise<string | undefined> {
  const userOf = userFromHeader(users);
  return async (request) => tenantOfUser(await userOf(request));
}

/**
 * Turns the id path parameter into a document id (a whole number from 1 to 999,999,999, the ids the table holds), or answers 400.
 *
 * @example
 * ```ts
 * parseDocumentId('10'); // 10
 * ```
 */
export function parseDocumentId(id: string): number {
  if (!/^[1-9]\d{0,8}$/.test(id))
    throw new BadRequestException(
      `Document id must be a whole number from 1 to 999999999 written without leading zeros, got ${JSON.stringify(id.slice(0, 40))}.`,
    );
  return Number(id);
}
