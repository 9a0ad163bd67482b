/**
 * The browser client refuses hostile slices — wrong formats and versions, plans and grants of the wrong
 * shape, indexes out of range, plans nested too deep, megabytes of junk — each with an exact message,
 * and accepts the deepest plan a real slice can hold.
 */
import { describe, expect, it } from '@jest/globals';
import { createClient, PermissionsUsageError, type PermissionSlice } from '../../runtime/client/index.js';
import { Permissions } from '../../runtime/permissions/index.js';
import { examplePermissions, exampleUser, quiet } from './example-clients.js';

/** The slice of user 7, as plain mutable JSON to break in one place. */
function slice7(): { format: unknown; version?: unknown; plans: unknown[]; grants: [string, unknown[][]][] } {
  return JSON.parse(JSON.stringify(examplePermissions.sliceFor(exampleUser(7)))) as never;
}

/** A plan whose innermost plan is `depth` levels deep (the root is level 1). */
function planOfDepth(depth: number): unknown {
  return depth === 1 ? [1, []] : [0, [['a', planOfDepth(depth - 1)]]];
}

function refusal(slice: unknown): string {
  try {
    createClient(slice as PermissionSlice);
  } catch (error) {
    if (!(error instanceof PermissionsUsageError)) throw error;
    return error.message;
  }
  throw new Error('createClient was expected to refuse the slice');
}

const refused = (problem: string): string => `createClient(slice): not a permissions slice (${problem}); pass what permissions.sliceFor(user) returned.`;
const badAction = (r: number, a: number): string => refused(`grants[${r}][1][${a}] is not [action, anyPlan, ownGranted, own, owners] (or repeats an action)`);

const HOSTILE_SLICES: [what: string, slice: () => unknown, message: string][] = [
  ['not an object', () => 'a string', refused('it is not an object')],
  ['null', () => null, refused('it is not an object')],
  ['format 2', () => ({ ...slice7(), format: 2 }), refused('format is not 1')],
  ['format "1"', () => ({ ...slice7(), format: '1' }), refused('format is not 1')],
  ['a missing version', () => ({ ...slice7(), version: undefined }), refused('version is not a string')],
  ['a numeric version', () => ({ ...slice7(), version: 1 }), refused('version is not a string')],
  ['plans that are not an array', () => ({ ...slice7(), plans: {} }), refused('plans is not an array')],
  ['grants that are not an array', () => ({ ...slice7(), grants: 'document' }), refused('grants is not an array')],
  [
    'an any plan index out of range',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][1] as unknown[])[1] = 3;
      return slice;
    },
    badAction(0, 1),
  ],
  [
    'an own plan index out of range',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][2] as unknown[])[3] = [1, 0, 2, 3];
      return slice;
    },
    badAction(0, 2),
  ],
  [
    'an own list of odd length',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][2] as unknown[])[3] = [1, 0, 2];
      return slice;
    },
    badAction(0, 2),
  ],
  [
    'a repeated resource',
    () => {
      const slice = slice7();
      slice.grants.push(slice.grants[0] as [string, unknown[][]]);
      return slice;
    },
    refused('grants[1] is not [resource, actions] (or repeats a resource)'),
  ],
  [
    'a repeated action',
    () => {
      const slice = slice7();
      slice.grants[0]?.[1].push(slice.grants[0][1][0] as unknown[]);
      return slice;
    },
    badAction(0, 5),
  ],
  // Well-formed entries that say something against themselves, which no cut slice does: a picker trusting them
  // would hand out attributes of an action it refuses.
  [
    'an action listed that grants nothing',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][0] as unknown[])[2] = 0; // delete: not granted as any, now not as own either
      return slice;
    },
    refused('grants[0][1][0] grants nothing, and a slice lists granted actions only'),
  ],
  [
    'attributes for owned records without an own grant',
    () => {
      const slice = slice7();
      const list = slice.grants[0]?.[1][1] as unknown[]; // list: granted as any, its own group 1 adds attributes
      list[2] = 0;
      return slice;
    },
    refused('grants[0][1][1] adds attributes for owned records without granting the action as own'),
  ],
  [
    'attributes for records of a group that decides no ownership',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][4] as unknown[])[3] = [1, 2]; // update: owners [2], extra attributes for group 1
      return slice;
    },
    refused('grants[0][1][4] adds attributes for records of ownership group 1, which is not among its owners'),
  ],
  ['a plan nested 33 deep', () => ({ ...slice7(), plans: [planOfDepth(33)], grants: [] }), refused('plans[0] nests deeper than 32 levels')],
  [
    'a plan nested 100,000 deep',
    () => ({ ...slice7(), plans: [JSON.parse(`${'[0,[["a",'.repeat(100_000)}[1,[]]${']]]'.repeat(100_000)}`)], grants: [] }),
    refused('plans[0] nests deeper than 32 levels'),
  ],
  [
    'a repeated plan key',
    () => ({
      ...slice7(),
      plans: [
        [
          1,
          [
            ['a', null],
            ['a', null],
          ],
        ],
      ],
    }),
    refused('plans[0] has a malformed or repeated child'),
  ],
  ['a plan verdict of 2', () => ({ ...slice7(), plans: [[2, []]] }), refused('plans[0] is not [0 | 1, children]')],
  [
    'a negative group in own',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][0] as unknown[])[3] = [-1, 0];
      return slice;
    },
    badAction(0, 0),
  ],
  [
    'a negative group in owners',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][0] as unknown[])[4] = [-1];
      return slice;
    },
    badAction(0, 0),
  ],
  [
    'a string where the any plan index is',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][1] as unknown[])[1] = '1';
      return slice;
    },
    badAction(0, 1),
  ],
  [
    'a string where ownGranted is',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][3] as unknown[])[2] = '1';
      return slice;
    },
    badAction(0, 3),
  ],
  [
    'strings where group numbers are',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][4] as unknown[])[4] = ['2'];
      return slice;
    },
    badAction(0, 4),
  ],
  [
    'a fractional plan index',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][4] as unknown[])[3] = [2, 0.5];
      return slice;
    },
    badAction(0, 4),
  ],
  [
    'an action with four fields',
    () => {
      const slice = slice7();
      (slice.grants[0]?.[1][0] as unknown[]).pop();
      return slice;
    },
    badAction(0, 0),
  ],
  [
    'a 1 MB string as a resource entry',
    () => ({ format: 1, version: 'v', plans: [], grants: ['x'.repeat(1_000_000)] }),
    refused('grants[0] is not [resource, actions] (or repeats a resource)'),
  ],
  [
    '1 MB of valid plans with junk in the last one',
    () => ({ format: 1, version: 'v', plans: [...Array.from({ length: 80_000 }, () => [0, [['ab', null]]]), [0, [['ab', 'junk']]]], grants: [] }),
    refused('plans[80000] is not [0 | 1, children]'),
  ],
];

describe('hostile slices are refused with exact messages', () => {
  for (const [what, make, message] of HOSTILE_SLICES) {
    it(`a slice with ${what} is refused`, () => {
      expect(refusal(make())).toBe(message);
    });
  }

  it('a slice whose getters answer differently on a second read is refused for what the copy it answers from says', () => {
    // Checked as `good`, then copied as `bad` (an action granting nothing that adds attributes for group 0) with a
    // refusal that is a grant's word: the client answers from the copy, so the copy is what is checked last.
    const good = [['document', [['read', 0, 0, [], []]]]];
    const bad = [['document', [['delete', -1, 0, [0, 0], [0]]]]];
    let grantsReads = 0;
    const slice = {
      format: 1,
      version: 'v',
      plans: [[1, []]],
      get grants() {
        return ++grantsReads === 1 ? good : bad;
      },
    };
    expect(refusal(slice)).toBe(refused('grants[0][1][0] grants nothing, and a slice lists granted actions only'));
    expect(grantsReads).toBe(2);
    let refusalReads = 0;
    const lying = {
      format: 1,
      version: 'v',
      plans: [[1, []]],
      grants: good,
      get refusal() {
        return ++refusalReads === 1 ? undefined : 'granted-any';
      },
    };
    expect(refusal(lying)).toBe(refused('refusal is neither "unknown-role" nor "unknown-tenant"'));
  });

  it('a slice holding what is not data (a function) is refused', () => {
    const slice = { format: 1, version: 'v', plans: [], grants: [], extra: () => 'x' } as unknown as PermissionSlice;
    expect(refusal(slice)).toMatch(/^createClient\(slice\): not a permissions slice \(it holds what is not data: .+ could not be cloned\.\); pass what/);
  });

  it('the junk slice of 1 MB really is 1 MB of JSON', () => {
    const junk = { format: 1, version: 'v', plans: [...Array.from({ length: 80_000 }, () => [0, [['ab', null]]]), [0, [['ab', 'junk']]]], grants: [] };
    expect(JSON.stringify(junk).length).toBeGreaterThan(1_000_000);
  });

  it('a plan nested exactly 32 deep is accepted, like the slice of a 32-segment attribute path', () => {
    expect(createClient({ format: 1, version: 'v', plans: [planOfDepth(32)], grants: [] } as unknown as PermissionSlice).version).toBe('v');
    const path = Array.from({ length: 32 }, (_, i) => `a${i}`).join('.');
    const permissions = new Permissions({ logger: quiet });
    permissions.addPermissions([{ roles: ['DEEP'], resource: 'tree', grant: { 'read:any': [path] } }]).build();
    const client = createClient(JSON.parse(JSON.stringify(permissions.sliceFor({ id: 1, roles: ['DEEP'] }))) as PermissionSlice);
    expect(client.attributes('read', 'tree')).toEqual([path]);
  });
});
