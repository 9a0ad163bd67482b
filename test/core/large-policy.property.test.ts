/**
 * At a large size — 200 roles × 400 resources, ~4,000 definitions, a `*:any` super role — the engine over packed
 * tables (what the generated code loads, decoding a resource's cells on its first question) answers random queries
 * exactly like the naive reference interpreter, which scans the definitions for every question: granted, any and
 * own, the any attributes, and the attributes a pick keeps of a record the user owns or not.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createSizedScenario, fillerRecord, policySize } from '../../bench/harness/scenario.js';
import { packGrantTables } from '../../runtime/core/tables/packed-tables.js';
import { Permissions, unpackGrantTables, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { referenceGrant } from './reference-interpreter.js';

/** Record ids 1…20: the even ones belong to user 7, the odd ones to user 8. */
const ownerOf = (id: number) => (id % 2 === 0 ? 7 : 8);
const ownership = {
  isRecordOwner: ({ user, resourceId }: { user: { id: number }; resourceId: number }) => ownerOf(resourceId) === user.id,
  listOwnedRecords: ({ user }: { user: { id: number } }) => Array.from({ length: 20 }, (_, i) => i + 1).filter((id) => ownerOf(id) === user.id),
  limitToOwnedRecords: ({ user }: { user: { id: number } }) => ({ ownerId: user.id }),
};

const scenario = createSizedScenario(policySize(200, 400, 0.05), 20240605);
// The filler and the example's super role (`*` on every resource, `*:any`); the example's other definitions use
// hooks of its document service, which this test's ownership does not have.
const definitions = scenario.definitions.filter(
  (definition) => definition.resource !== 'document' && typeof definition.roles === 'object',
) as unknown as PermissionDefinition[];
const superRole = scenario.definitions.find((definition) => definition.resource === '*') as unknown as PermissionDefinition;
const all = [...definitions, superRole];
const roles = [...new Set(all.flatMap((definition) => (typeof definition.roles === 'string' ? [definition.roles] : [...definition.roles])))];

let engine: Permissions<{ id: number; roles: string[] }, unknown>;

beforeAll(() => {
  const built = new Permissions({ ownership, logger: { warn: () => undefined } }).addPermissions(all).build();
  const packed = packGrantTables(built.tables);
  engine = Permissions.fromTables(unpackGrantTables(packed.header, packed.definitions, packed.cells, packed.descriptions), {
    ownership,
    logger: { warn: () => undefined },
  });
}, 120_000);

describe('a large policy through packed tables', () => {
  it('has the size it is meant to have', () => {
    expect([roles.length, scenario.fillerResources.length, all.length > 3500]).toEqual([201, 400, true]);
  });

  it('answers every sampled query and pick like the reference interpreter', async () => {
    const roleArb = fc.constantFrom(...roles, 'NOBODY');
    const query = fc.record({
      userId: fc.constantFrom(7, 8),
      roles: fc.array(roleArb, { minLength: 1, maxLength: 3 }),
      resource: fc.constantFrom(...scenario.fillerResources, 'unknown_resource'),
      action: fc.constantFrom('create', 'read', 'update', 'delete', 'approve', 'publish', 'archive', 'assign'),
      recordId: fc.integer({ min: 1, max: 20 }),
    });
    await fc.assert(
      fc.asyncProperty(query, async ({ userId, roles: userRoles, resource, action, recordId }) => {
        const user = { id: userId, roles: userRoles };
        const permit = engine.grantPermitSync({ user, resource, action });
        const expected = await referenceGrant(all, ownership, { user, resource, action });
        expect([permit.granted, permit.anyGranted, permit.ownGranted, permit.anyAttributes]).toEqual([
          expected.granted,
          expected.anyGranted,
          expected.ownGranted,
          expected.anyAttributes,
        ]);
        const record = fillerRecord(recordId, ownerOf(recordId));
        expect(await permit.pick(record)).toEqual(await expected.pick(record));
      }),
      { numRuns: 150, seed: 29 },
    );
  }, 120_000);
});
