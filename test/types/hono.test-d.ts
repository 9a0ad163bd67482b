/**
 * Type tests of the Hono integration, checked by `tsc --noEmit`: given what the generated `createPermissions()`
 * returns, `permit({ … })` accepts only the resources of the definitions and the actions of the route's resource,
 * with no type argument written; the handler after it reads `c.var.permit` (and `c.get('permit')`) typed with the
 * resource's id type; a handler without `permit()` before it has no permit to read.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { createPermissions, type PermissionsRuleUser } from '../../generated/index.js';
import type { OwnershipRuleSource } from '../../runtime/ownership/index.js';
import { permissionsFromDefinitions, type Permit, type User } from '../../runtime/permissions/index.js';
import { createPermitMiddleware, type PermitEnv } from '../../runtime/hono/index.js';
import type { Equal, Expect } from './type-assert.js';

// The example's ownership rules read companyId and managedUserIds: its users carry them.
type AppUser = User<number> & PermissionsRuleUser;
declare const ownershipRules: OwnershipRuleSource<string>;

const permissions = createPermissions<AppUser, string>({ ownershipRules });
const permit = createPermitMiddleware({
  permissions,
  getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }),
  resource: 'document',
});
const withoutDefault = createPermitMiddleware({ permissions, getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }) });

export function valid(): void {
  const read: MiddlewareHandler<PermitEnv<AppUser, number, string>> = permit({ action: 'read' });
  permit({ action: 'review', resourceIdParam: 'documentId' });
  permit({ action: 'list', resourceIdParam: null });
  withoutDefault({ resource: 'decision', action: 'list', resourceIdParam: null });
  void read;
}

/** Hono's Env of an application with Cloudflare-style bindings: getUser reads them, typed. */
type AppEnv = { Bindings: { readonly SESSION_SECRET: string } };
const app = new Hono<AppEnv>();
const bound = createPermitMiddleware<AppUser, unknown, 'document', string, AppEnv>({
  permissions: permissionsFromDefinitions<AppUser>([]),
  getUser: (c) => ({ id: c.env.SESSION_SECRET.length, roles: [], companyId: null, managedUserIds: [] }),
  resource: 'document',
});

export const routes = app
  .get('/documents/:id', permit({ action: 'read' }), (c) => {
    const fromGet = c.get('permit');
    void fromGet;
    type Checks = [
      Expect<Equal<typeof c.var.permit, Permit<AppUser, number, string>>>,
      Expect<Equal<typeof fromGet, Permit<AppUser, number, string>>>,
      Expect<Equal<typeof c.var.permit.resourceId, number | undefined>>,
      Expect<Equal<typeof c.env.SESSION_SECRET, string>>,
    ];
    return c.json({ checks: [] as unknown as Checks });
  })
  .get('/decisions/:id', withoutDefault({ resource: 'decision', action: 'read' }), (c) => {
    type Checks = [Expect<Equal<typeof c.var.permit.resourceId, string | undefined>>];
    return c.json({ checks: [] as unknown as Checks });
  })
  .get('/untyped/:id', bound({ action: 'anything' }), (c) => {
    type Checks = [Expect<Equal<typeof c.var.permit, Permit<AppUser, unknown, unknown>>>];
    return c.json({ checks: [] as unknown as Checks });
  })
  .get('/open', (c) => {
    // @ts-expect-error: no permit() runs before this handler, so there is no permit to read
    return c.json(c.var.permit);
  });

export type Checks = [Expect<Equal<Parameters<typeof permit<'document'>>[0]['action'], 'create' | 'delete' | 'list' | 'read' | 'review' | 'update'>>];

export function invalid(): void {
  // @ts-expect-error: 'raed' is not an action of 'document'
  permit({ action: 'raed' });
  // @ts-expect-error: 'approve' is not an action of 'document'
  permit({ action: 'approve' });
  // @ts-expect-error: 'documents' is not a resource of the definitions
  permit({ resource: 'documents', action: 'read' });
  // @ts-expect-error: 'delete' is not among the actions decision.resource.json declares ('list', 'read')
  withoutDefault({ resource: 'decision', action: 'delete' });
  // @ts-expect-error: without a default resource, the route must name one
  withoutDefault({ action: 'read' });
  // @ts-expect-error: 'documnet' is not a resource of the definitions
  createPermitMiddleware({ permissions, getUser: (): AppUser => ({ id: 1, roles: [], companyId: null, managedUserIds: [] }), resource: 'documnet' });
}
