import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { PolicyUser } from '../generated/index.js';

/** A user: an id, and roles the definitions name (a misspelt role does not compile). */
export type AppUser = PolicyUser<number>;

/** Whoever calls without a token: a placeholder user whose role the definitions grant what visitors may do. */
export const anonymousUser: AppUser = { id: 0, roles: ['ANONYMOUS'] };

// Signing in is not what this example is about: each user's bearer token, in memory.
const usersByToken = new Map<string, AppUser>([
  ['alice-token', { id: 1, roles: ['EMPLOYEE'] }],
  ['bob-token', { id: 2, roles: ['EMPLOYEE'] }],
]);

/** The user of a request's Authorization header: none is the anonymous user, an unknown token is 401. */
export function userOf(c: Context): AppUser {
  const authorization = c.req.header('authorization');
  if (authorization === undefined) return anonymousUser;
  const user = authorization.startsWith('Bearer ') ? usersByToken.get(authorization.slice('Bearer '.length)) : undefined;
  if (user === undefined) throw new HTTPException(401, { message: 'Unknown token.' });
  return user;
}
