/**
 * Grant queries of every shape: an invalid query is a PermissionsUsageError; a valid one is answered
 * exactly as the naive reference interpreter answers it. Nothing is ever granted by accident.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Permissions, PermissionsUsageError, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { referenceGrant } from './reference-interpreter.js';

const owned = new Set([1, 10]);
const ownership = {
  isCreator: ({ resourceId }: { resourceId: unknown }) => owned.has(resourceId as number),
  listCreated: () => [...owned],
};
const definitions: PermissionDefinition[] = [
  {
    roles: ['EMPLOYEE'],
    resource: 'document',
    possession: 'own',
    grant: { read: ['*', '!secret'], 'list:any': ['title'] },
    isOwner: 'isCreator',
    listOwned: 'listCreated',
  },
  { roles: ['ADMIN'], resource: '*', grant: ['*:any'] },
  { roles: ['*'], resource: 'document', grant: ['login:any'] },
];
const permissions = new Permissions({ ownership, logger: { warn() {} } }).addPermissions(definitions).build();

// Hostile query parts (any JSON type where a name or an id belongs), unlike the well-formed users and
// definitions of arbitraries.ts.
const names = fc.constantFrom('EMPLOYEE', 'ADMIN', 'GHOST', '*', '', '__proto__', 'constructor', 'toString', 'document', 'read', 'list', 'login', 'fly');
const jsonValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
  fc.bigInt(),
);
// Mostly well-formed parts (so the reference comparison sees many real decisions), sometimes anything.
const often = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: jsonValue, weight: 1 });
const roles = often(
  fc.array(fc.oneof({ arbitrary: fc.constantFrom('EMPLOYEE', 'ADMIN'), weight: 3 }, { arbitrary: names, weight: 2 }, { arbitrary: jsonValue, weight: 1 }), {
    maxLength: 3,
  }),
);
const user = often(fc.record({ id: often(fc.integer({ min: 0, max: 20 })), roles }));
const query = fc.record({
  user,
  resource: often(fc.constantFrom('document', 'document', 'document', 'invoice', '*', '__proto__')),
  action: often(fc.constantFrom('read', 'list', 'login', 'update', 'fly', '*', 'constructor')),
  resourceId: often(fc.constantFrom(undefined, null, 0, 1, 10, 2, '1', 10n)),
});

const isId = (value: unknown) => typeof value === 'string' || typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
/** A resource id of a resource without a declared id type: a finite number, a bigint, or a string of 1 to 256 characters. */
const isResourceId = (value: unknown) => (typeof value === 'string' ? value.length > 0 && value.length <= 256 : isId(value));
function isValid(q: { user: unknown; resource: unknown; action: unknown; resourceId: unknown }): boolean {
  const u = q.user as { id?: unknown; roles?: unknown } | null;
  return (
    typeof u === 'object' &&
    u !== null &&
    isId(u.id) &&
    Array.isArray(u.roles) &&
    u.roles.every((r) => typeof r === 'string') &&
    typeof q.resource === 'string' &&
    typeof q.action === 'string' &&
    (q.resourceId === undefined || q.resourceId === null || isResourceId(q.resourceId))
  );
}

describe('grant queries of every JSON type: usage error, or exactly the reference answer', () => {
  it('never grants by accident', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const outcome = await permissions.grantPermit(q as never).then(
          (permit) => permit,
          (error: unknown) => error,
        );
        if (!isValid(q)) {
          expect(outcome).toBeInstanceOf(PermissionsUsageError);
          return;
        }
        expect(outcome).not.toBeInstanceOf(Error);
        const permit = outcome as Awaited<ReturnType<typeof permissions.grantPermit>>;
        const expected = await referenceGrant(definitions, ownership, q as never);
        expect([permit.granted, permit.anyGranted, permit.ownGranted, permit.anyAttributes]).toEqual([
          expected.granted,
          expected.anyGranted,
          expected.ownGranted,
          expected.anyAttributes,
        ]);
      }),
      { numRuns: 2000 },
    );
  });

  it('a query that is not an object is a usage error', async () => {
    for (const value of [null, undefined, 1, 'q', [], () => 1])
      await expect(permissions.grantPermit(value as never)).rejects.toBeInstanceOf(PermissionsUsageError);
  });
});
