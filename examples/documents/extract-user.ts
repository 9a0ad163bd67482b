/**
 * Who calls: the `x-user-id` header names a user of the database; no header means the anonymous
 * placeholder user. The library never authenticates — this is the app's (deliberately simple) part.
 */
import { BadRequestException, UnauthorizedException } from '@nestjs/common';
import type { AppUser } from './app-user.js';
import { exampleAnonymousUser } from './example-data.js';
import type { UsersRepository } from './users.repository.js';

/** The header the example app reads the caller from. */
export const USER_ID_HEADER = 'x-user-id';

/**
 * Returns the `extractUserFromRequest` option for the permissions module.
 *
 * @example
 * ```ts
 * PermissionsModule.forRootAsync({ inject: [UsersRepository], useFactory: (users) => ({ extractUserFromRequest: userFromHeader(users) }) });
 * ```
 */
export function userFromHeader(users: UsersRepository): (request: unknown) => Promise<AppUser> {
  return async (request) => {
    const header = (request as { headers?: Record<string, string | string[] | undefined> }).headers?.[USER_ID_HEADER];
    if (header === undefined) return exampleAnonymousUser;
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || !/^[1-9]\d{0,8}$/.test(value)) throw new UnauthorizedException(`${USER_ID_HEADER} must be the id of a user.`);
    const user = await users.findUser(Number(value));
    if (user === undefined) throw new UnauthorizedException(`No user has id ${value}.`);
    return user;
  };
}

/**
 * Turns the id path parameter into a document id (a positive integer), or answers 400.
 *
 * @example
 * ```ts
 * parseDocumentId('10'); // 10
 * ```
 */
export function parseDocumentId(id: string): number {
  if (!/^[1-9]\d{0,8}$/.test(id)) throw new BadRequestException(`Document id must be a positive integer, got ${JSON.stringify(id.slice(0, 40))}.`);
  return Number(id);
}
