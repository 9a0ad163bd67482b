/**
 * The rule source of policy tests: records that never change, indexed by id once. It answers every question as
 * memoryOwnership does (its lists may change, so it reads every record on every question), and reads each record's
 * id once in all, not once per question — 10,000 tests over 5,000 records took 16 s before, about a second now.
 */
import { describe, expect, it } from '@jest/globals';
import { createPermissions } from '../../generated/permissions.js';
import { fixedMemoryOwnership } from '../../runtime/core/ownership-rules/fixed-memory-ownership.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';

/** Records whose `id` counts its reads. */
function countedRecords(count: number, reads: { count: number }) {
  const documents = Array.from({ length: count }, (_, i) => ({ creatorId: (i % 7) + 1, companyId: null }));
  const withIds = documents.map((document, i) =>
    Object.defineProperty(document, 'id', {
      enumerable: true,
      get: () => {
        reads.count++;
        return i + 1;
      },
    }),
  );
  const users = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, companyId: (i % 2) + 1 }));
  return { document: withIds, user: users };
}

const employee = (id: number) => ({ id, roles: ['EMPLOYEE', 'COMPANY_ADMIN'], companyId: (id % 2) + 1, managedUserIds: [] as number[] });

describe('fixedMemoryOwnership', () => {
  it('answers as memoryOwnership does, reading each record’s id once in all', async () => {
    const reads = { count: 0 };
    const quiet = { warn: () => undefined };
    const fixed = createPermissions({ ownershipRules: fixedMemoryOwnership(countedRecords(500, reads)), logger: quiet });
    const changing = createPermissions({ ownershipRules: memoryOwnership(countedRecords(500, { count: 0 })), logger: quiet });
    const ids = [1, 2, 8, 250, 499, 500, 501];
    const granted = new Set<boolean>();
    for (let user = 1; user <= 8; user++) {
      for (const resourceId of ids) {
        const query = { user: employee(user), resource: 'document', action: 'update', resourceId } as const;
        const [mine, theirs] = await Promise.all([fixed.grantPermit(query), changing.grantPermit(query)]);
        expect([user, resourceId, mine.granted, mine.reason]).toEqual([user, resourceId, theirs.granted, theirs.reason]);
        granted.add(mine.granted);
      }
      const list = { user: employee(user), resource: 'document', action: 'read' } as const;
      const [mine, theirs] = await Promise.all([fixed.grantPermit(list), changing.grantPermit(list)]);
      expect(await mine.owningGroups(ids)).toEqual(await theirs.owningGroups(ids));
    }
    expect([...granted].sort()).toEqual([false, true]);
    // Indexed once: every record's id read once, whatever the number of questions (56 decisions and 8 batches here).
    expect(reads.count).toBe(500);
  });
});
