/**
 * The example documents app's permissions for client tests: the example's ownership rules over the in-memory
 * example data (so that the server names the groups a client is given), its users and documents, and the client
 * of a user made from their slice as it travels (through JSON).
 */
import { createPermissions, type PermissionsRuleUser } from '../../generated/index.js';
import { createClient, type Owned, type PermissionSlice, type PermissionsClient } from '../../runtime/client/index.js';
import { memoryOwnership, type User } from '../../runtime/permissions/index.js';
import { exampleDocuments, exampleUsers, type ExampleDocument } from '../../examples/documents/example-data.js';

export type DocumentPredicate = (document: ExampleDocument) => boolean;
export type ExampleClient = PermissionsClient<{ readonly [resource: string]: string }>;
/** A user of the example: its roles and the attributes its ownership rules read. */
export type ExampleRuleUser = User & PermissionsRuleUser;

const documents = new Map(exampleDocuments.map((document) => [document.id, document]));

/** The example's ownership rules over the in-memory example data: documents, and the users the rules reach through `creator`. */
const ownershipRules = memoryOwnership({ document: exampleDocuments, user: exampleUsers.map(({ id, companyId }) => ({ id, companyId })) });

export const quiet = { warn: () => {} };
export const examplePermissions = createPermissions<ExampleRuleUser, DocumentPredicate>({ ownershipRules, logger: quiet }).permissions;

export function exampleUser(id: number): ExampleRuleUser {
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
export function clientOf(user: ExampleRuleUser): ExampleClient {
  return createClient(JSON.parse(JSON.stringify(examplePermissions.sliceFor(user))) as PermissionSlice);
}

export const superAdmin: ExampleRuleUser = { id: 9, roles: ['SUPER_ADMIN'], companyId: null, managedUserIds: [] };
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
