/**
 * Type tests of the express integration, checked by `tsc --noEmit`: given what the generated
 * `createPermissions()` returns, `permit({ … })` accepts only the resources of the definitions and the actions
 * of the route's resource, with no type argument written; `permitOf(req)` gives the Permit typed as asked.
 */
import type { Request } from 'express';
import { createPermissions, type PermissionsRuleUser } from '../../generated/index.js';
import type { OwnershipRuleSource } from '../../runtime/ownership/index.js';
import type { Permit, User } from '../../runtime/permissions/index.js';
import { createPermitMiddleware, initPermissions, permitOf, type ExpressHandler } from '../../runtime/express/index.js';
import type { Equal, Expect } from './type-assert.js';

// The example's ownership rules read companyId and managedUserIds: its users carry them.
type AppUser = User<number> & PermissionsRuleUser;
declare const ownershipRules: OwnershipRuleSource<string>;
declare const req: Request;

const permissions = createPermissions<AppUser, string>({ ownershipRules });
const permit = createPermitMiddleware({
  permissions,
  getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }),
  resource: 'document',
});
const withoutDefault = createPermitMiddleware({ permissions, getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }) });

export function valid(): void {
  const read: ExpressHandler = permit({ action: 'read' });
  permit({ action: 'review', resourceIdParam: 'documentId' });
  permit({ action: 'list', resourceIdParam: null });
  withoutDefault({ resource: 'document', action: 'delete' });
  void read;
}

export const typedPermit = permitOf<AppUser, number, string>(req);

export type Checks = [
  Expect<Equal<typeof typedPermit, Permit<AppUser, number, string>>>,
  Expect<Equal<Parameters<typeof permit<'document'>>[0]['action'], 'create' | 'delete' | 'list' | 'read' | 'review' | 'update'>>,
];

export function invalid(): void {
  // @ts-expect-error: 'raed' is not an action of 'document'
  permit({ action: 'raed' });
  // @ts-expect-error: 'approve' is not an action of 'document'
  permit({ action: 'approve' });
  // @ts-expect-error: 'documents' is not a resource of the definitions
  permit({ resource: 'documents', action: 'read' });
  // @ts-expect-error: without a default resource, the route must name one
  withoutDefault({ action: 'read' });
  // @ts-expect-error: 'documnet' is not a resource of the definitions
  createPermitMiddleware({ permissions, getUser: (): AppUser => ({ id: 1, roles: [], companyId: null, managedUserIds: [] }), resource: 'documnet' });
}

export function untyped(): void {
  // A Permissions built at run time knows no schema: any action is accepted.
  const engine = initPermissions<AppUser>([]);
  const anyPermit = createPermitMiddleware({
    permissions: engine,
    getUser: (): AppUser => ({ id: 1, roles: [], companyId: null, managedUserIds: [] }),
    resource: 'document',
  });
  anyPermit({ action: 'anything' });
}
