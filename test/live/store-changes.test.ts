/**
 * A store that changes under its followers — its tables dropped and created again (another identity, numbering
 * from 1), or restored from a backup (the same identity, a lower sequence) — never freezes a follower on a
 * version the store no longer has active: the store's active version is taken whatever its sequence, and said
 * through the logger even when `onChange` is given. In one process, with an in-memory source.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, type User } from '../../runtime/permissions/index.js';
import type { PolicyChange } from '../../runtime/live/policy-follower.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { memorySource } from './memory-source.js';

const reader: User<number> = { id: 1, roles: ['READER'] };

function bundle(grant: readonly string[]): PolicyBundle {
  const built = new Permissions({ resourceIdTypes: { doc: 'number' }, logger: { warn: () => undefined } })
    .addPermissions([{ roles: ['READER'], resource: 'doc', grant: [...grant] }])
    .build();
  return policyBundleOf(built.tables);
}

const readable = bundle(['read:any']);
const revoked = bundle(['update:any']);
const other = bundle(['read:any', 'update:any']);

/** Lets the follower's reads (promises) settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

async function following(initial: { bundle: PolicyBundle; sequence: number; store: string }) {
  const warnings: string[] = [];
  const permissions = Permissions.fromTables<User<number>>(readable, { logger: { warn: (message) => warnings.push(message) } });
  const memory = memorySource(initial, 'store S');
  const changes: PolicyChange[] = [];
  const live = await permissions.follow(memory.source, { onChange: (change) => changes.push(change) });
  const reads = () => permissions.grantPermitSync({ user: reader, resource: 'doc', action: 'read' }).granted;
  return { permissions, memory, live, changes, warnings, reads };
}

describe('a store that changed under its followers', () => {
  it('dropped and created again (another identity, numbering from 1): a revocation published there is taken at once', async () => {
    const { memory, live, changes, warnings, reads } = await following({ bundle: other, sequence: 57, store: 'store-a' });
    warnings.length = 0;
    changes.length = 0;
    memory.publish({ bundle: revoked, sequence: 1, store: 'store-b' });
    await settle();
    expect([reads(), live.sequence, live.store, live.version]).toEqual([false, 1, 'store-b', revoked.version]);
    expect(changes).toEqual([
      { version: revoked.version, previousVersion: other.version, sequence: 1, source: 'store S', store: 'store-b', storeChange: 'replaced' },
    ]);
    expect(warnings).toEqual([
      `typed-permissions: the policy store of store S was replaced: its identity is store-b, not store-a (its tables were dropped and created again?); ` +
        `its active version ${revoked.version} (#1) replaces ${other.version} (#57). Check that the store was changed on purpose.`,
    ]);
    // Numbering goes on from there: #2 of the new store is newer, #1 again is not.
    memory.publish({ bundle: readable, sequence: 2, store: 'store-b' });
    await settle();
    expect([reads(), live.sequence]).toEqual([true, 2]);
    await live.close();
  });

  it('restored from a backup (same identity, a lower sequence with another version): that version is taken', async () => {
    const { memory, live, changes, warnings, reads } = await following({ bundle: other, sequence: 57, store: 'store-a' });
    warnings.length = 0;
    changes.length = 0;
    memory.publish({ bundle: revoked, sequence: 13, store: 'store-a' });
    await settle();
    expect([reads(), live.sequence]).toEqual([false, 13]);
    expect(changes).toEqual([
      { version: revoked.version, previousVersion: other.version, sequence: 13, source: 'store S', store: 'store-a', storeChange: 'rewound' },
    ]);
    expect(warnings).toEqual([
      `typed-permissions: the policy store of store S went back from #57 to #13 (restored from a backup?); ` +
        `its active version ${revoked.version} (#13) replaces ${other.version} (#57). Check that the store was changed on purpose.`,
    ]);
    await live.close();
  });

  it('the same sequence with another version is the store going back as well', async () => {
    const { memory, live, changes, reads } = await following({ bundle: other, sequence: 5, store: 'store-a' });
    changes.length = 0;
    memory.publish({ bundle: revoked, sequence: 5, store: 'store-a' });
    await settle();
    expect([reads(), live.version, changes.map((change) => change.storeChange)]).toEqual([false, revoked.version, ['rewound']]);
    await live.close();
  });

  it('the version running, at a lower sequence or in another store: its new place is taken without a swap, and said', async () => {
    const { memory, live, changes, warnings } = await following({ bundle: other, sequence: 57, store: 'store-a' });
    warnings.length = 0;
    changes.length = 0;
    memory.publish({ bundle: other, sequence: 12, store: 'store-a' });
    await settle();
    expect([live.sequence, live.store, changes]).toEqual([12, 'store-a', []]);
    memory.publish({ bundle: other, sequence: 1, store: 'store-b' });
    await settle();
    expect([live.sequence, live.store, changes]).toEqual([1, 'store-b', []]);
    const check = 'Check that the store was changed on purpose.';
    expect(warnings).toEqual([
      `typed-permissions: the policy store of store S went back from #57 to #12 (restored from a backup?); ` +
        `its active version ${other.version} is the one running, now as #12. ${check}`,
      `typed-permissions: the policy store of store S was replaced: its identity is store-b, not store-a (its tables were dropped and created again?); ` +
        `its active version ${other.version} is the one running, now as #1. ${check}`,
    ]);
    // A revocation published after either is taken as usual.
    memory.publish({ bundle: revoked, sequence: 2, store: 'store-b' });
    await settle();
    expect([live.sequence, live.version]).toEqual([2, revoked.version]);
    await live.close();
  });

  it('a replaced store whose active version the code cannot honour: rejected as any version, the last good one stays', async () => {
    const { memory, live, warnings, reads } = await following({ bundle: other, sequence: 57, store: 'store-a' });
    warnings.length = 0;
    const unknownResource = policyBundleOf(
      new Permissions({ logger: { warn: () => undefined } }).addPermissions([{ roles: ['READER'], resource: 'invoice', grant: ['read:any'] }]).build().tables,
    );
    memory.publish({ bundle: unknownResource, sequence: 1, store: 'store-b' });
    await settle();
    expect([reads(), live.sequence, live.store]).toEqual([true, 57, 'store-a']);
    expect(warnings).toEqual([
      `typed-permissions: policy version ${unknownResource.version} from store S is rejected; version ${other.version} stays active: ` +
        'it names resources the running code does not know: "invoice"',
    ]);
    // Once the new store holds a version the code can honour, it is taken.
    memory.publish({ bundle: revoked, sequence: 2, store: 'store-b' });
    await settle();
    expect([reads(), live.sequence, live.store]).toEqual([false, 2, 'store-b']);
    await live.close();
  });

  it('a store that holds no active version any more (its tables dropped or emptied) is said, never silently followed on', async () => {
    const { memory, live, warnings, reads } = await following({ bundle: other, sequence: 57, store: 'store-a' });
    warnings.length = 0;
    memory.publish(undefined as never);
    await settle();
    memory.publish(undefined as never); // said once until a read finds a version again
    await settle();
    expect([reads(), live.sequence]).toEqual([true, 57]);
    expect(warnings).toEqual([
      'typed-permissions: policy source store S: store S holds no active version any more (its tables were dropped or emptied?); version #57 ' +
        'keeps running until one is published.',
    ]);
    memory.publish({ bundle: revoked, sequence: 1, store: 'store-b' });
    await settle();
    expect([reads(), live.sequence]).toEqual([false, 1]);
    await live.close();
  });
});
