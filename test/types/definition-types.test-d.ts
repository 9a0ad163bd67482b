/**
 * Type tests of the hand-written definition types: checked by `tsc --noEmit` (npm test), never run.
 * Each @ts-expect-error line must fail to compile for the reason it states.
 */
import type {
  Permit,
  PermissionDefinition,
  PermissionDefinitionNoOwnership,
  PermissionDefinitionWithOwnership,
  User,
} from '../../runtime/permissions/index.js';
import type { Equal, Expect } from './type-assert.js';

type DocUser = { id: number; roles: string[] };

export const withList: PermissionDefinition = {
  roles: ['EMPLOYEE'],
  resource: 'document',
  grant: ['read:own'],
  isOwner: 'isCreator',
  listOwned: 'listCreated',
};
export const withLimit: PermissionDefinition<string, string, string, DocUser, number> = {
  roles: 'EMPLOYEE',
  resource: 'document',
  grant: { 'read:own': ['*', '!confidential'] },
  isOwner: ({ user, resourceId }) => user.id === resourceId,
  limitOwned: ({ user }) => ({ creatorId: user.id }),
};
export const noOwnership: PermissionDefinition = { roles: ['SUPER_ADMIN'], resource: '*', grant: ['*:any'] };

// @ts-expect-error: isOwner alone violates OwnershipHooksExactlyOneOfListOwnedOrLimitOwned (it needs listOwned or limitOwned)
export const onlyIsOwner: PermissionDefinition = { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 'isCreator' };
// isOwner is optional where ownership can be computed — membership in listOwned, or limitOwned run by the
// resource's ownedAmong. The base type does not know the resources; build() checks the executors.
export const onlyList: PermissionDefinition = { roles: 'A', resource: 'doc', grant: ['read:own'], listOwned: 'listCreated' };
export const onlyLimit: PermissionDefinition = { roles: 'A', resource: 'doc', grant: ['read:own'], limitOwned: 'limitCreated' };
// With the computable resources named (as the generated KnownPermissionDefinition does), limitOwned without isOwner is
// accepted only there.
type TwoResources = PermissionDefinition<string, 'document' | 'invoice', string, DocUser, number, { creatorId: number }, 'document'>;
export const computed: TwoResources = { roles: 'A', resource: 'document', grant: ['read:own'], limitOwned: ({ user }) => ({ creatorId: user.id }) };
// @ts-expect-error: 'invoice' declares no ownedAmong executor, so limitOwned needs isOwner there
export const notComputed: TwoResources = {
  roles: 'A',
  resource: 'invoice',
  grant: ['read:own'],
  limitOwned: ({ user }: { user: DocUser }) => ({ creatorId: user.id }),
};
export const invoiceWithIsOwner: TwoResources = {
  roles: 'A',
  resource: 'invoice',
  grant: ['read:own'],
  isOwner: ({ user, resourceId }) => user.id === resourceId,
  limitOwned: ({ user }) => ({ creatorId: user.id }),
};
// @ts-expect-error: listOwned and limitOwned together violate the exactly-one-of constraint
export const both: PermissionDefinition = { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 'i', listOwned: 'l', limitOwned: 'm' };
// @ts-expect-error: a hook must be a function or a method name, not a number
export const numericHook: PermissionDefinition = { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 1, listOwned: 'l' };
// @ts-expect-error: roles is required
export const noRoles: PermissionDefinition = { resource: 'doc', grant: ['read'] };

// Narrowed names: a misspelt role, resource or action is a compile error.
type Narrow = PermissionDefinition<'EMPLOYEE' | 'ADMIN', 'document', 'read' | 'approve'>;
export const narrow: Narrow = { roles: ['EMPLOYEE', '*'], resource: 'document', grant: ['read:own', 'approve', '*:any'], isOwner: 'i', limitOwned: 'l' };
// @ts-expect-error: 'EMPLOYE' is not a known role
export const misspeltRole: Narrow = { roles: ['EMPLOYE'], resource: 'document', grant: ['read'] };
// @ts-expect-error: 'documnet' is not a known resource
export const misspeltResource: Narrow = { roles: 'ADMIN', resource: 'documnet', grant: ['read'] };
// @ts-expect-error: 'aprove' is not a known action
export const misspeltAction: Narrow = { roles: 'ADMIN', resource: 'document', grant: ['aprove:any'] };
// @ts-expect-error: 'read:mine' is not a possession
export const badPossession: Narrow = { roles: 'ADMIN', resource: 'document', grant: ['read:mine'] };

export type Checks = [
  Expect<Equal<PermissionDefinition, PermissionDefinitionWithOwnership | PermissionDefinitionNoOwnership>>,
  Expect<Equal<Awaited<ReturnType<Permit<User, number>['listOwn']>>, number[]>>,
  Expect<Equal<Awaited<ReturnType<Permit<User, number>['isOwn']>>, boolean>>,
  Expect<Equal<ReturnType<Permit<User, number, { creatorId: number }>['limitOwn']>, { creatorId: number }>>,
  Expect<Equal<Awaited<ReturnType<Permit['pick']>>, Partial<object>>>,
  Expect<Equal<Permit<DocUser & { roles: readonly string[] }>['user'], DocUser & { roles: readonly string[] }>>,
];
