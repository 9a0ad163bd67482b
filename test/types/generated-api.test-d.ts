/**
 * Type tests of the generated API (generated/ from definitions/): checked by `tsc --noEmit`.
 * An action used on a resource it was not declared for (once a "known missing feature") is a compile error here.
 */
import { createPermissions, type ActionOf, type PermissionsOwnershipService, type Resource, type ResourceIdOf, type Role } from '../../generated/index.js';
import type { Equal, Expect } from './type-assert.js';

type AppUser = { readonly id: number; readonly roles: readonly string[] };
type Filter = (row: { creatorId: number }) => boolean;

const ownership: PermissionsOwnershipService<AppUser, Filter> = {
  isCreatedInSameCompany: ({ user, resourceId }) => user.id === resourceId,
  ownedDocumentsAmong: ({ filter, resourceIds }) => resourceIds.filter((id) => filter({ creatorId: id })),
  listCreatedInSameCompany: () => Promise.resolve([1, 2]),
  limitToCreator:
    ({ user }) =>
    (row) =>
      row.creatorId === user.id,
  limitToCreatorOrManagedCreators:
    ({ user }) =>
    (row) =>
      row.creatorId === user.id,
};

export const permissions = createPermissions({ ownership });
const user: AppUser = { id: 1, roles: ['EMPLOYEE'] };

export async function valid(): Promise<void> {
  const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 10 });
  const filter: Filter = permit.limitOwn();
  const ids: number[] = await permit.listOwn();
  void filter;
  void ids;
  await permissions.grantPermit({ user, resource: 'document', action: 'list' });
  // Every action decision.resource.json declares can be asked, whoever is granted it.
  await permissions.grantPermit({ user, resource: 'decision', action: 'read', resourceId: '3f2c' });
  permissions.grantPermitSync({ user, resource: 'decision', action: 'list' });
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
  createPermissions({
    // @ts-expect-error: the ownership service lacks listCreatedInSameCompany
    ownership: {
      isCreatedInSameCompany: () => true,
      ownedDocumentsAmong: () => [],
      limitToCreator: () => 1,
      limitToCreatorOrManagedCreators: () => 1,
    },
  });
  // @ts-expect-error: isCreatedInSameCompany must answer a boolean
  createPermissions({ ownership: { ...ownership, isCreatedInSameCompany: () => 'yes' } });
  // The ownedAmong executor's filter is the limitOwned hooks' filter type, so the two must agree.
  const mismatched: PermissionsOwnershipService<AppUser, Filter> = {
    ...ownership,
    // @ts-expect-error: ownedDocumentsAmong takes the same filter the limitOwned hooks return (a row predicate), not a string
    ownedDocumentsAmong: ({ filter }: { readonly filter: string; readonly resourceIds: readonly number[] }) => (filter === '' ? [] : [1]),
  };
  void mismatched;
  // @ts-expect-error: ownedDocumentsAmong answers document ids (numbers)
  createPermissions({ ownership: { ...ownership, ownedDocumentsAmong: () => ['1'] } });
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
];
