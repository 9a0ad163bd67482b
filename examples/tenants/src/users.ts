import type { Request } from 'express';
import type { PolicyUser } from '../generated/index.js';

/** A user as the engine sees them in one tenant: an id, and the roles they hold in that tenant. */
export type AppUser = PolicyUser<number>;

/** A person and the roles they hold in each company (tenant) they belong to. */
interface Member {
  readonly id: number;
  readonly roles: Readonly<Record<string, readonly string[]>>;
}

// Signing in is not what this example is about: each person's bearer token, in memory. AUDITOR is no role of the
// compiled policy: a company that wants auditors defines the role for itself (auditor.roles.json).
const membersByToken = new Map<string, Member>([
  ['alice-token', { id: 1, roles: { acme: ['EMPLOYEE'], globex: ['AUDITOR'] } }],
  ['bob-token', { id: 2, roles: { acme: ['AUDITOR'] } }],
  ['carol-token', { id: 3, roles: { globex: ['MANAGER'] } }],
]);

/** An error that `permissionsErrorHandler()` answers with its status and message. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The tenant a request asks in: the company its x-tenant header names. */
export function tenantOf(req: Request): string | undefined {
  return req.get('x-tenant');
}

/**
 * The user of a request in its tenant: the roles the bearer token's person holds in the company the request asks
 * in. An unknown token is 401; no tenant is 400; a company the person does not belong to is 403.
 */
export function userOf(req: Request): AppUser {
  const authorization = req.get('authorization') ?? '';
  const member = authorization.startsWith('Bearer ') ? membersByToken.get(authorization.slice('Bearer '.length)) : undefined;
  if (member === undefined) throw new HttpError(401, 'Unknown token.');
  const tenant = tenantOf(req);
  if (tenant === undefined) throw new HttpError(400, 'The x-tenant header must name the company you ask in.');
  const roles = Object.hasOwn(member.roles, tenant) ? member.roles[tenant] : undefined;
  if (roles === undefined) throw new HttpError(403, `You are no member of ${JSON.stringify(tenant)}.`);
  return { id: member.id, roles: [...roles] as AppUser['roles'] };
}
