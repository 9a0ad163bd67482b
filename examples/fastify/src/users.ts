import type { FastifyRequest } from 'fastify';
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

/** An error that the permit hook answers with its status code and message. */
class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The user of a request's Authorization header: none is the anonymous user, an unknown token is 401. */
export function userOf(request: FastifyRequest): AppUser {
  const authorization = request.headers.authorization;
  if (authorization === undefined) return anonymousUser;
  const user = authorization.startsWith('Bearer ') ? usersByToken.get(authorization.slice('Bearer '.length)) : undefined;
  if (user === undefined) throw new HttpError(401, 'Unknown token.');
  return user;
}
