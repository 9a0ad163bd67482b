/**
 * Type tests of the generated API (generated/ from definitions/): checked by `tsc --noEmit`.
 * An action used on a resource it was not declared for (once a "known missing feature") is a compile error here.
 * The example's ownership is declared as rules, so `createPermissions` requires their record source
 * (`ownershipRules`) and a user that carries the attributes the rules read (`PermissionsRuleUser`).
 */
import {
  createPermissions,
  type ActionOf,
  type CreatePermissionsOptions,
  type PermissionsRuleUser,
  type Resource,
  type ResourceIdOf,
  type Role,
} from '../../generated/index.js';
import { memoryOwnership } from '../../runtime/permissions/index.js';
import type { OwnershipRuleSource } from '../../runtime/ownership/index.js';
import type { Equal, Expect } from './type-assert.js';

type AppUser = { readonly id: number; readonly roles: readonly string[]; readonly companyId: number | null; readonly managedUserIds: readonly number[] };
type Predicate = (record: object) => boolean;

const ownershipRules = memoryOwnership({
  document: [{ id: 10, creatorId: 1 }],
  user: [{ id: 1, companyId: 1 }],
});
export const permissions = createPermissions<AppUser, Predicate>({ ownershipRules });
const user: AppUser = { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] };

export async function valid(): Promise<void> {
  const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 10 });
  // The rule source's filter type is the permit's: memoryOwnership filters with a predicate.
  const filter: Predicate = permit.limitOwn();
  void filter;
  await permissions.grantPermit({ user, resource: 'document', action: 'list' });
  // Every action decision.resource.json declares can be asked, whoever is granted it.
  await permissions.grantPermit({ user, resource: 'decision', action: 'read', resourceId: '3f2c' });
  permissions.grantPermitSync({ user, resource: 'decision', action: 'list' });
  // The filter type is inferred from the rule source when no type argument is written.
  const inferred = createPermissions({ ownershipRules });
  const inferredPermit = await inferred.grantPermit({
    user: { id: 2, roles: ['EMPLOYEE_MANAGER'], companyId: null, managedUserIds: [1] },
    resource: 'document',
    action: 'list',
  });
  const inferredFilter: Predicate = inferredPermit.limitOwn();
  void inferredFilter;
}

export async function invalid(): Promise<void> {
  // @ts-expect-error: 'approve' is not an action of 'document' (once a known missing feature, now a compile error)
  await permissions.grantPermit({ user, resource: 'document', action: 'approve' });
  // @ts-expect-error: 'review' is an action of 'document', but 'decision' declares only 'list' and 'read'
  await permissions.grantPermit({ user, resource: 'decision', action: 'review' });
  // @ts-expect-error: 'delete' is not among the actions decision.resource.json declares, though SUPER_ADMIN is granted '*' there
  permissions.grantPermitSync({ user, resource: 'decision', action: 'delete' });
  // @ts-expect-error: 'documents' is not a resource
  await permissions.grantPermit({ user, resource: 'documents', action: 'read' });
  // @ts-expect-error: document ids are numbers
  await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: '10' });

  // @ts-expect-error: the ownership rules of definitions/ need their record source: options without ownershipRules do not compile
  createPermissions<AppUser, Predicate>({});
  // @ts-expect-error: an ownership service alone (hooks) is no source for the rules
  createPermissions<AppUser, Predicate>({ ownership: {} });
  // @ts-expect-error: ownershipRules must be a rule source (filter, ownedAmong, listOwned), not a plain filter
  createPermissions<AppUser, Predicate>({ ownershipRules: () => true });

  type UserWithoutCompany = { readonly id: number; readonly roles: readonly string[]; readonly managedUserIds: readonly number[] };
  // @ts-expect-error: the rule sameCompany reads the user's companyId, which this user type lacks
  createPermissions<UserWithoutCompany, Predicate>({ ownershipRules });
  type UserWithoutManaged = { readonly id: number; readonly roles: readonly string[]; readonly companyId: number | null };
  // @ts-expect-error: the rule creatorOrManaged reads the user's managedUserIds, which this user type lacks
  createPermissions<UserWithoutManaged, Predicate>({ ownershipRules });
  type UserWithTextCompany = { readonly id: number; readonly roles: readonly string[]; readonly companyId: string; readonly managedUserIds: readonly number[] };
  // @ts-expect-error: userAttributes declares companyId a number: a text company id is not what the rules compare
  createPermissions<UserWithTextCompany, Predicate>({ ownershipRules });

  // Without a user type argument, the user of each question must carry the attributes too.
  const defaulted = createPermissions({ ownershipRules });
  // @ts-expect-error: a user without companyId and managedUserIds cannot be asked about: the rules read them
  await defaulted.grantPermit({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 10 });
  // @ts-expect-error: managedUserIds is a list of user ids, not one id
  await defaulted.grantPermit({ user: { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: 4 }, resource: 'document', action: 'list' });
  // A user with no company says so with null (what the example's anonymous user and user 8 carry).
  await defaulted.grantPermit({ user: { id: 8, roles: ['EMPLOYEE'], companyId: null, managedUserIds: null }, resource: 'document', action: 'list' });
}

export type Checks = [
  Expect<Equal<Role, 'ANONYMOUS' | 'COMPANY_ADMIN' | 'EMPLOYEE' | 'EMPLOYEE_MANAGER' | 'SUPER_ADMIN'>>,
  Expect<Equal<Resource, 'decision' | 'document' | 'session'>>,
  // session declares no actions: SUPER_ADMIN's '*' covers it with every action of the policy.
  Expect<Equal<ActionOf<'session'>, 'create' | 'delete' | 'list' | 'read' | 'review' | 'update'>>,
  Expect<Equal<ActionOf<'document'>, 'create' | 'delete' | 'list' | 'read' | 'review' | 'update'>>,
  // decision.resource.json declares "actions": ["list", "read"]: SUPER_ADMIN's '*' grants those there, and nothing else is an action of it.
  Expect<Equal<ActionOf<'decision'>, 'list' | 'read'>>,
  Expect<Equal<ResourceIdOf<'document'>, number>>,
  Expect<Equal<ResourceIdOf<'decision'>, string>>,
  // No session.resource.json declares its id type.
  Expect<Equal<ResourceIdOf<'session'>, string | number>>,
  Expect<Equal<Awaited<ReturnType<typeof permissions.grantPermit<'document'>>>['resourceId'], number | undefined>>,
  // The attributes the rules read, as userAttributes of document.resource.json declares them: each may be null (no value).
  Expect<Equal<PermissionsRuleUser, { readonly companyId: number | null; readonly id: number | null; readonly managedUserIds: readonly number[] | null }>>,
  // ownershipRules is required and typed by the filter; the hook service stays optional.
  Expect<Equal<CreatePermissionsOptions<AppUser, Predicate>['ownershipRules'], OwnershipRuleSource<Predicate>>>,
  Expect<Equal<undefined extends CreatePermissionsOptions<AppUser, Predicate>['ownershipRules'] ? true : false, false>>,
];
