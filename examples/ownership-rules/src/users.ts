import type { Request } from 'express';
import type { Kysely } from 'kysely';
import type { PermissionsRuleUser, PolicyUser } from '../generated/index.js';
import type { Database } from './database.js';

/** A user: an id, roles the definitions name, and what the ownership rules read (its company, whom it manages). */
export type AppUser = PolicyUser<number> & PermissionsRuleUser;

// Signing in is not what this example is about: each user's bearer token, in memory.
const userIdsByToken = new Map([
  ['alice-token', 1],
  ['bob-token', 2],
  ['carol-token', 3],
  ['dan-token', 4],
  ['erin-token', 5],
]);

/** An error that `permissionsErrorHandler()` answers with its status and message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** How a request's user is found: its bearer token, then the user loaded with the attributes the rules read; an unknown token is 401. */
export function userFrom(db: Kysely<Database>): (req: Request) => Promise<AppUser> {
  return async (req) => {
    const authorization = req.get('authorization') ?? '';
    const id = authorization.startsWith('Bearer ') ? userIdsByToken.get(authorization.slice('Bearer '.length)) : undefined;
    if (id === undefined) throw new HttpError(401, 'Unknown token.');
    const user = await db.selectFrom('users').select(['id', 'role', 'companyId']).where('id', '=', id).executeTakeFirstOrThrow();
    const managed = await db.selectFrom('managers').select('managedId').where('managerId', '=', id).execute();
    return { id, roles: [user.role as AppUser['roles'][number]], companyId: user.companyId, managedUserIds: managed.map((row) => row.managedId) };
  };
}
