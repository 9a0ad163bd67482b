/**
 * Type tests of the Fastify integration, checked by `tsc --noEmit`: given what the generated `createPermissions()`
 * returns, `permit({ … })` accepts only the resources of the definitions and the actions of the route's
 * resource, with no type argument written; its hook fits a route's preHandler option whatever the route's own
 * types; `permitOf(request)` gives the Permit typed as asked; the plugin registers as it is.
 */
import Fastify, { type FastifyRequest } from 'fastify';
import { createPermissions, type PermissionsRuleUser } from '../../generated/index.js';
import type { OwnershipRuleSource } from '../../runtime/ownership/index.js';
import { permissionsFromDefinitions, type Permit, type User } from '../../runtime/permissions/index.js';
import { createPermitHook, fastifyPermissions, permitOf, type PermitHook } from '../../runtime/fastify/index.js';
import type { Equal, Expect } from './type-assert.js';

// The example's ownership rules read companyId and managedUserIds: its users carry them.
type AppUser = User<number> & PermissionsRuleUser;
declare const ownershipRules: OwnershipRuleSource<string>;
declare const request: FastifyRequest;

const permissions = createPermissions<AppUser, string>({ ownershipRules });
const permit = createPermitHook({
  permissions,
  getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }),
  resource: 'document',
});
const withoutDefault = createPermitHook({
  permissions,
  getUser: (): Promise<AppUser> => Promise.resolve({ id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }),
});

export async function valid(): Promise<void> {
  const read: PermitHook = permit({ action: 'read' });
  permit({ action: 'review', resourceIdParam: 'documentId' });
  permit({ action: 'list', resourceIdParam: null });
  withoutDefault({ resource: 'document', action: 'delete' });
  const app = Fastify();
  await app.register(fastifyPermissions);
  // The hook fits routes with typed parameters, and an array of hooks.
  app.get<{ Params: { id: string } }>('/documents/:id', { preHandler: read }, (typed, reply) => reply.send(typed.params.id));
  app.delete('/documents/:id', { preHandler: [read, withoutDefault({ resource: 'document', action: 'delete' })] }, (_request, reply) => reply.send());
}

export const typedPermit = permitOf<AppUser, number, string>(request);

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
  createPermitHook({ permissions, getUser: (): AppUser => ({ id: 1, roles: [], companyId: null, managedUserIds: [] }), resource: 'documnet' });
  // @ts-expect-error: getUser must give a user (an id and roles)
  createPermitHook({ permissions, getUser: () => 'alice', resource: 'document' });
}

export function untyped(): void {
  // A Permissions built at run time knows no schema: any action is accepted.
  const engine = permissionsFromDefinitions<AppUser>([]);
  const anyPermit = createPermitHook({
    permissions: engine,
    getUser: (): AppUser => ({ id: 1, roles: [], companyId: null, managedUserIds: [] }),
    resource: 'document',
  });
  anyPermit({ action: 'anything' });
}
