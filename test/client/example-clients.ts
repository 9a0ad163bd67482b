/**
 * The example documents app's permissions for client tests: the example ownership over the in-memory
 * example data (so that the server names the groups a client is given), its users and documents, and
 * the client of a user made from their slice as it travels (through JSON).
 */
import { createPermissions, type PermissionsOwnershipService } from '../../generated/index.js';
import { createClient, type Owned, type PermissionSlice, type PermissionsClient } from '../../runtime/client/index.js';
import type { User } from '../../runtime/permissions/index.js';
import { exampleCompanies, exampleDocuments, exampleManagers, exampleUsers, type ExampleDocument } from '../../examples/documents/example-data.js';

export type DocumentPredicate = (document: ExampleDocument) => boolean;
export type ExampleClient = PermissionsClient<{ readonly [resource: string]: string }>;

const documents = new Map(exampleDocuments.map((document) => [document.id, document]));
const companyOf = (userId: unknown): number | undefined => exampleCompanies.find((membership) => membership.userId === userId)?.companyId;
const manages = (managerId: unknown, userId: number): boolean =>
  exampleManagers.some((relation) => relation.managerId === managerId && relation.managedId === userId);
const sameCompany = (user: User, creatorId: number): boolean => companyOf(user.id) !== undefined && companyOf(user.id) === companyOf(creatorId);

/** The example ownership over the in-memory example data, so that the server names the groups a client is given. */
const ownership: PermissionsOwnershipService<User, DocumentPredicate> = {
  isCreatedInSameCompany: ({ user, resourceId }) => {
    const document = documents.get(resourceId);
    return document !== undefined && sameCompany(user, document.creatorId);
  },
  listCreatedInSameCompany: ({ user }) => exampleDocuments.filter((document) => sameCompany(user, document.creatorId)).map((document) => document.id),
  limitToCreator:
    ({ user }) =>
    (document) =>
      document.creatorId === user.id,
  limitToCreatorOrManagedCreators:
    ({ user }) =>
    (document) =>
      document.creatorId === user.id || manages(user.id, document.creatorId),
  ownedDocumentsAmong: ({ filter, resourceIds }) =>
    resourceIds.filter((id) => {
      const document = documents.get(id);
      return document !== undefined && filter(document);
    }),
};

export const quiet = { warn: () => {} };
export const examplePermissions = createPermissions<User, DocumentPredicate>({ ownership, logger: quiet }).permissions;

export function exampleUser(id: number): User {
  const user = exampleUsers.find((candidate) => candidate.id === id);
  if (user === undefined) throw new Error(`no example user ${id}`);
  return user;
}

export function documentById(id: number): ExampleDocument {
  const document = documents.get(id);
  if (document === undefined) throw new Error(`no example document ${id}`);
  return document;
}

/** The client of a user, from the slice as it travels: through JSON. */
export function clientOf(user: User): ExampleClient {
  return createClient(JSON.parse(JSON.stringify(examplePermissions.sliceFor(user))) as PermissionSlice);
}

export const superAdmin: User = { id: 9, roles: ['SUPER_ADMIN'] };
export const ACTIONS = ['create', 'delete', 'list', 'read', 'review', 'update'] as const;

/** Every answer of a client about one resource, for the given `owned` options: a table to compare whole. */
export function answers(client: ExampleClient, resource: string, owned: readonly (Owned | undefined)[], item: object): unknown[] {
  return ACTIONS.flatMap((action) => [
    client.canAny(action, resource),
    client.canOwn(action, resource),
    ...owned.map((option) => [
      client.can(action, resource, { owned: option }),
      client.attributes(action, resource, { owned: option }),
      client.pick(action, resource, item, { owned: option }),
    ]),
  ]);
}
