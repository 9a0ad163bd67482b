/**
 * Type tests of the tenant, checked by `tsc --noEmit`: every integration's `getTenant` (the Nest module's
 * `extractTenantFromRequest`), a decision service check and remote permissions take the tenant as a string, and
 * refuse a number.
 */
import type { Request } from 'express';
import type { FastifyRequest } from 'fastify';
import type { Context } from 'hono';
import { createPermissions, type PermissionsRuleUser, type Schema } from '../../generated/index.js';
import type { OwnershipRuleSource } from '../../runtime/ownership/index.js';
import type { User } from '../../runtime/permissions/index.js';
import { createPermitMiddleware as expressPermit } from '../../runtime/express/index.js';
import { createPermitHook } from '../../runtime/fastify/index.js';
import { createPermitMiddleware as honoPermit } from '../../runtime/hono/index.js';
import type { PermissionsModuleOptions } from '../../runtime/nest/index.js';
import type { CheckQuery } from '../../runtime/service/check-answers.js';
import type { RemotePermissions } from '../../runtime/remote/index.js';
import type { Equal, Expect } from './type-assert.js';

type AppUser = User<number> & PermissionsRuleUser;
declare const ownershipRules: OwnershipRuleSource<string>;
declare const remote: RemotePermissions<Schema, AppUser>;
const permissions = createPermissions<AppUser, string>({ ownershipRules });
const user: AppUser = { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] };

export function accepted(): void {
  expressPermit({ permissions, getUser: () => user, getTenant: (req: Request) => req.get('x-tenant') });
  createPermitHook({ permissions, getUser: () => user, getTenant: (request: FastifyRequest) => Promise.resolve(request.hostname.split('.')[0]) });
  honoPermit({ permissions, getUser: () => user, getTenant: (c: Context) => c.req.header('x-tenant') });
  const nest: PermissionsModuleOptions<AppUser> = { extractUserFromRequest: () => user, extractTenantFromRequest: () => 'acme' };
  const check: CheckQuery = { user, tenant: 'acme', resource: 'document', action: 'read' };
  void remote.grantPermit({ user, resource: 'document', action: 'read', tenant: 'acme' });
  void permissions.grantPermit({ user, resource: 'document', action: 'read', tenant: 'acme' });
  const tenantOfCheck: Expect<Equal<CheckQuery['tenant'], string | undefined>> = true;
  void [nest, check, tenantOfCheck];
}

export function refused(): void {
  // @ts-expect-error: a tenant id is a string; getTenant may not return a number
  expressPermit({ permissions, getUser: () => user, getTenant: () => 42 });
  // @ts-expect-error: a tenant id is a string; getTenant may not return a number
  createPermitHook({ permissions, getUser: () => user, getTenant: () => Promise.resolve(42) });
  // @ts-expect-error: a tenant id is a string; getTenant may not return a number
  honoPermit({ permissions, getUser: () => user, getTenant: () => 42 });
  // @ts-expect-error: a tenant id is a string; extractTenantFromRequest may not return a number
  const nest: PermissionsModuleOptions<AppUser> = { extractUserFromRequest: () => user, extractTenantFromRequest: () => 42 };
  // @ts-expect-error: a check's tenant is a string, not a number
  const check: CheckQuery = { user, tenant: 42, resource: 'document', action: 'read' };
  // @ts-expect-error: remote permissions take the tenant as a string, not a number
  void remote.grantPermit({ user, resource: 'document', action: 'read', tenant: 42 });
  void [nest, check];
}
