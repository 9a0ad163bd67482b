/**
 * Following a policy source, in one process with an in-memory source: each newer version replaces the engine's
 * snapshot at once, a permit keeps the policy it was decided on, older or equal versions are ignored, and a
 * version the running code cannot honour — an ownership method the service lacks, a resource or action or id
 * type outside the compiled vocabulary, a bundle that does not hash to its version — is rejected, once, while
 * the last good version stays.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import type { PolicySource } from '../../runtime/live/policy-source.js';
import { memorySource } from './memory-source.js';
import type { PolicyChange, PolicyRejection } from '../../runtime/live/policy-follower.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';

type Doc = { id: number; creatorId: number; title: string; secret: string };
const docs: Doc[] = [1, 2, 3].map((id) => ({ id, creatorId: id, title: `t${id}`, secret: `s${id}` }));
const ownership = {
  isCreator: ({ user, resourceId }: { user: User<number>; resourceId: unknown }) => docs.some((d) => d.id === resourceId && d.creatorId === user.id),
  listCreated: ({ user }: { user: User<number> }) => docs.filter((d) => d.creatorId === user.id).map((d) => d.id),
};
const reader: User<number> = { id: 1, roles: ['READER'] };

/** Tables of definitions, built at run time (with the resource's id type declared, as the compiled code has it). */
function bundleOf(definitions: PermissionDefinition[], idType: 'number' | 'string' = 'number'): PolicyBundle {
  const built = new Permissions({ ownership: { ...ownership, other: () => true }, resourceIdTypes: { doc: idType }, logger: { warn: () => undefined } })
    .addPermissions(definitions)
    .build();
  return policyBundleOf(built.tables);
}

const readTitles = bundleOf([{ roles: ['READER'], resource: 'doc', grant: { 'read:any': ['id', 'title'] } }]);
const readAll = bundleOf([{ roles: ['READER'], resource: 'doc', grant: { 'read:any': ['*'] } }]);
const readNothing = bundleOf([{ roles: ['READER'], resource: 'doc', grant: ['update:any'] }]);

/** Lets the follower's reads (promises) settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function engine() {
  return Permissions.fromTables<User<number>>(readTitles, { ownership, logger: { warn: () => undefined } });
}

async function titleOnly(permissions: ReturnType<typeof engine>) {
  const permit = await permissions.grantPermit({ user: reader, resource: 'doc', action: 'read' });
  return permit.granted ? permit.pick(docs[1] as Doc) : 'denied';
}

describe('permissions.follow(source)', () => {
  it('activates the current version, then every newer one, and reports each change', async () => {
    const permissions = engine();
    const memory = memorySource({ bundle: readAll, sequence: 1 });
    const { source, publish } = memory;
    const changes: PolicyChange[] = [];
    const live = await permissions.follow(source, { onChange: (change) => changes.push(change) });
    expect([live.version, live.sequence, permissions.policyVersion]).toEqual([readAll.version, 1, readAll.version]);
    expect(await titleOnly(permissions)).toEqual({ id: 2, creatorId: 2, title: 't2', secret: 's2' });
    publish({ bundle: readNothing, sequence: 2 });
    await settle();
    expect(await titleOnly(permissions)).toBe('denied');
    expect(changes).toEqual([
      { version: readAll.version, previousVersion: readTitles.version, sequence: 1, source: 'memory' },
      { version: readNothing.version, previousVersion: readAll.version, sequence: 2, source: 'memory' },
    ]);
    await live.close();
    expect([memory.stopped, permissions.policyVersion]).toEqual([true, readNothing.version]);
  });

  it('the active policy published under a sequence takes that place without a swap', async () => {
    const permissions = engine();
    const { source } = memorySource({ bundle: readTitles, sequence: 4 });
    const changes: PolicyChange[] = [];
    const live = await permissions.follow(source, { onChange: (change) => changes.push(change) });
    expect([live.sequence, permissions.policyVersion, changes]).toEqual([4, readTitles.version, []]);
    await live.close();
  });

  it('a permit keeps the policy it was decided on across a swap', async () => {
    const permissions = engine();
    const { source, publish } = memorySource({ bundle: readAll, sequence: 1 });
    const live = await permissions.follow(source);
    const before = await permissions.grantPermit({ user: reader, resource: 'doc', action: 'read' });
    publish({ bundle: readTitles, sequence: 2 });
    await settle();
    const after = await permissions.grantPermit({ user: reader, resource: 'doc', action: 'read' });
    expect([await before.pick(docs[0] as Doc), before.policyVersion]).toEqual([{ id: 1, creatorId: 1, title: 't1', secret: 's1' }, readAll.version]);
    expect([await after.pick(docs[0] as Doc), after.policyVersion]).toEqual([{ id: 1, title: 't1' }, readTitles.version]);
    await live.close();
  });

  it('a tenant kept before a swap answers from the new policy, as does every other tenant kept then', async () => {
    const permissions = engine();
    const { source, publish } = memorySource({ bundle: readAll, sequence: 1 });
    await permissions.follow(source);
    const auditors = { definitions: [{ roles: ['AUDITOR'], resource: 'doc', grant: ['read:any'] }] };
    await permissions.followTenantRoles({ description: 'memory', read: (tenant) => Promise.resolve({ tenant, sequence: 1, document: auditors }) });
    for (const tenant of ['acme', 'globex']) await permissions.loadTenant(tenant);
    const read = (tenant: string, role: string) => permissions.grantPermitSync({ user: { id: 1, roles: [role] }, resource: 'doc', action: 'read', tenant });
    expect([read('acme', 'READER').pickSync(docs[1] as Doc), read('globex', 'READER').pickSync(docs[1] as Doc)]).toEqual([docs[1], docs[1]]);
    publish({ bundle: readTitles, sequence: 2 });
    await settle();
    // The first tenant asked after the swap is remade over the new policy; the other must not answer from the old one.
    expect(read('globex', 'READER').pickSync(docs[1] as Doc)).toEqual({ id: 2, title: 't2' });
    expect(read('acme', 'READER').pickSync(docs[1] as Doc)).toEqual({ id: 2, title: 't2' });
    expect(read('globex', 'READER').pickSync(docs[1] as Doc)).toEqual({ id: 2, title: 't2' });
    expect([read('acme', 'AUDITOR').granted, read('globex', 'AUDITOR').granted]).toEqual([true, true]);
    publish({ bundle: readNothing, sequence: 3 });
    await settle();
    expect([read('acme', 'READER').granted, read('globex', 'READER').granted, read('acme', 'AUDITOR').granted]).toEqual([false, false, true]);
  });

  it('ignores the active version read again at its sequence, and an unchanged version without sequences', async () => {
    const permissions = engine();
    const { source, publish } = memorySource({ bundle: readAll, sequence: 5, store: 'store-a' });
    const changes: PolicyChange[] = [];
    const live = await permissions.follow(source, { onChange: (change) => changes.push(change) });
    publish({ bundle: readAll, sequence: 5, store: 'store-a' });
    await settle();
    expect([permissions.policyVersion, live.sequence, changes.length]).toEqual([readAll.version, 5, 1]);
    await live.close();

    const unordered = memorySource({ bundle: readAll });
    const second = engine();
    const seen: PolicyChange[] = [];
    const follow = await second.follow(unordered.source, { onChange: (change) => seen.push(change) });
    unordered.publish({ bundle: readAll });
    await settle();
    expect(seen.length).toBe(1);
    await follow.close();
  });

  it.each<[string, () => unknown, string]>([
    [
      'an ownership method the service lacks',
      () =>
        bundleOf([
          { roles: ['READER'], resource: 'doc', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned: 'listCreated' },
          { roles: ['READER'], resource: 'doc', possession: 'own', grant: ['update'], isOwner: 'other', listOwned: 'listCreated' },
        ]),
      'isOwner names method "other", which the ownership service (Object) does not have. Add a method other to the ownership service, or correct the name.',
    ],
    [
      'a resource the running code does not know',
      () =>
        bundleOf([
          { roles: ['READER'], resource: 'doc', grant: ['read:any'] },
          { roles: ['READER'], resource: 'invoice', grant: ['read:any'] },
        ]),
      'it names resources the running code does not know: "invoice"',
    ],
    [
      'an action the running code does not know',
      () => bundleOf([{ roles: ['READER'], resource: 'doc', grant: ['approve:any'] }]),
      'it names actions the running code does not know: "approve"',
    ],
    [
      'another id type',
      () => bundleOf([{ roles: ['READER'], resource: 'doc', grant: ['read:any'] }], 'string'),
      'it declares the ids of "doc" as string, but the running code has them as number',
    ],
    [
      'tables that do not hash to the version',
      () => ({ ...readAll, version: readNothing.version }),
      `the bundle says version ${readNothing.version}, but its tables hash to ${readAll.version} (the bundle was changed or cut short)`,
    ],
    ['something that is no bundle', () => ({ format: 2 }), 'the bundle has format 2, not 1 (compile it with this version of typed-permissions)'],
  ])('rejects %s, once, and keeps the last good version', async (_label, bundle, reason) => {
    const permissions = engine();
    const { source, publish } = memorySource({ bundle: readAll, sequence: 1 });
    const rejections: PolicyRejection[] = [];
    const live = await permissions.follow(source, { onReject: (rejection) => rejections.push(rejection) });
    const candidate = bundle();
    publish({ bundle: candidate, sequence: 2 });
    await settle();
    publish({ bundle: candidate, sequence: 2 });
    await settle();
    expect(rejections).toHaveLength(1);
    expect(rejections[0]?.reasons).toContain(reason);
    expect([rejections[0]?.sequence, rejections[0]?.source, permissions.policyVersion]).toEqual([2, 'memory', readAll.version]);
    expect(await titleOnly(permissions)).toEqual({ id: 2, creatorId: 2, title: 't2', secret: 's2' });
    await live.close();
  });

  it('the vocabulary stays the compiled one: a version without a resource does not stop a later one that has it again', async () => {
    const twoResources = bundleOf([
      { roles: ['READER'], resource: 'doc', grant: ['read:any'] },
      { roles: ['READER'], resource: 'invoice', grant: ['read:any'] },
    ]);
    const permissions = Permissions.fromTables<User<number>>(twoResources, { ownership, logger: { warn: () => undefined } });
    const { source, publish } = memorySource(undefined);
    const rejections: PolicyRejection[] = [];
    const live = await permissions.follow(source, { onReject: (rejection) => rejections.push(rejection) });
    publish({ bundle: readTitles, sequence: 1 });
    await settle();
    expect(permissions.policyVersion).toBe(readTitles.version);
    publish({ bundle: twoResources, sequence: 2 });
    await settle();
    expect([permissions.policyVersion, rejections]).toEqual([twoResources.version, []]);
    expect((await permissions.grantPermit({ user: reader, resource: 'invoice', action: 'read' })).granted).toBe(true);
    await live.close();
  });

  it('callbacks that throw are reported through the logger, and following goes on', async () => {
    const warnings: string[] = [];
    const permissions = Permissions.fromTables<User<number>>(readTitles, { ownership, logger: { warn: (message) => warnings.push(message) } });
    const { source, publish } = memorySource({ bundle: readAll, sequence: 1 });
    const throwing = (): never => {
      throw new Error('callback failed');
    };
    const live = await permissions.follow(source, { onChange: throwing, onReject: throwing, onError: throwing });
    publish({ bundle: { format: 2 }, sequence: 2 });
    await settle();
    publish({ bundle: readNothing, sequence: 3 });
    await settle();
    expect([permissions.policyVersion, live.sequence]).toEqual([readNothing.version, 3]);
    expect(warnings).toEqual([
      'typed-permissions: the follow option onChange threw (callback failed); following goes on.',
      'typed-permissions: the follow option onReject threw (callback failed); following goes on.',
      'typed-permissions: the follow option onChange threw (callback failed); following goes on.',
    ]);
    await live.close();
  });

  it('a read that never settles counts as failed after readTimeoutMs: follow() returns, and the next change reads again', async () => {
    const permissions = engine();
    let hang = true;
    let notify: (() => void) | undefined;
    const errors: string[] = [];
    const source: PolicySource = {
      description: 'stuck',
      read: () => (hang ? new Promise<never>(() => undefined) : Promise.resolve({ bundle: readAll })),
      watch: (changed) => {
        notify = changed;
        return () => Promise.resolve();
      },
    };
    const live = await permissions.follow(source, { readTimeoutMs: 50, onError: (error) => errors.push((error as Error).message) });
    expect([errors, permissions.policyVersion]).toEqual([['stuck did not answer a read within 50 ms.'], readTitles.version]);
    hang = false;
    notify?.();
    await settle();
    expect(permissions.policyVersion).toBe(readAll.version);
    await live.close();
  });

  it.each<[string, unknown, string]>([
    [
      'a misspelt option',
      { onchange: () => undefined },
      'follow(source, options): unknown option "onchange"; the options are onChange, onReject, onError, readTimeoutMs.',
    ],
    ['a callback that is not a function', { onReject: 'log' }, 'follow(source, options): onReject must be a function.'],
    [
      'a read timeout past what a timer holds',
      { readTimeoutMs: 2 ** 31 },
      'follow(source, options): readTimeoutMs must be a whole number of milliseconds from 1 to 2147483647.',
    ],
    ['a read timeout of zero', { readTimeoutMs: 0 }, 'follow(source, options): readTimeoutMs must be a whole number of milliseconds from 1 to 2147483647.'],
    ['no source at all', undefined, 'follow(source): source must be a policy source'],
  ])('refuses %s before reading anything', async (_label, options, message) => {
    const { source } = memorySource({ bundle: readAll });
    const permissions = engine();
    const follow = options === undefined ? permissions.follow(null as never) : permissions.follow(source, options as never);
    await expect(follow).rejects.toThrow(message);
    expect(permissions.policyVersion).toBe(readTitles.version);
  });

  it('a source that cannot be read is reported (once until a read succeeds), never thrown, and watched on', async () => {
    const permissions = engine();
    let fail = true;
    let notify: (() => void) | undefined;
    const errors: unknown[] = [];
    const source: PolicySource = {
      description: 'flaky',
      read: () => (fail ? Promise.reject(new Error('unreachable')) : Promise.resolve({ bundle: readAll })),
      watch: (changed) => {
        notify = changed;
        return () => Promise.resolve();
      },
    };
    const live = await permissions.follow(source, { onError: (error) => errors.push(error) });
    expect([errors.map((error) => (error as Error).message), permissions.policyVersion]).toEqual([['unreachable'], readTitles.version]);
    // The same failure again is not repeated; after a good read, it is reported again.
    notify?.();
    await settle();
    expect(errors).toHaveLength(1);
    fail = false;
    notify?.();
    await settle();
    expect(permissions.policyVersion).toBe(readAll.version);
    fail = true;
    notify?.();
    await settle();
    expect(errors).toHaveLength(2);
    await live.close();
  });

  it('a source of its own that reads null, a string or a bad sequence or store: reported, the active version stays, followed on', async () => {
    const permissions = engine();
    let answer: unknown = { bundle: readTitles };
    let notify: (() => void) | undefined;
    const errors: string[] = [];
    const source: PolicySource = {
      description: 'careless',
      read: () => Promise.resolve(answer as undefined),
      watch: (changed) => {
        notify = changed;
        return () => Promise.resolve();
      },
    };
    const live = await permissions.follow(source, { onError: (error) => errors.push(`${(error as Error).name}: ${(error as Error).message}`) });
    for (const bad of [null, 'v2', { bundle: readAll, sequence: -1 }, { bundle: readAll, sequence: 1.5 }, { bundle: readAll, store: 7 }]) {
      answer = bad;
      notify?.();
      await settle();
    }
    expect(errors).toEqual([
      'PermissionsUsageError: careless read null instead of { bundle, sequence?, store? }; the active version stays.',
      'PermissionsUsageError: careless read "v2" instead of { bundle, sequence?, store? }; the active version stays.',
      'PermissionsUsageError: careless read a version whose sequence is -1, not a whole number; the active version stays.',
      'PermissionsUsageError: careless read a version whose sequence is 1.5, not a whole number; the active version stays.',
      'PermissionsUsageError: careless read a version whose store is 7, not a string; the active version stays.',
    ]);
    expect(permissions.policyVersion).toBe(readTitles.version);
    // Still followed: the next good version is read and taken.
    answer = { bundle: readAll };
    notify?.();
    await settle();
    expect(permissions.policyVersion).toBe(readAll.version);
    await live.close();
  });

  it('a bundle without a version is rejected and said, also before any version is active — never taken for the active one', async () => {
    // An engine that starts without a policy and takes its first one from the source, as the decision service does.
    const permissions = new Permissions<User<number>>({ ownership, logger: { warn: () => undefined } });
    const rejections: PolicyRejection[] = [];
    const { source, publish } = memorySource({ bundle: { ...readAll, version: undefined } });
    const live = await permissions.follow(source, { onReject: (rejection) => rejections.push(rejection) });
    expect(rejections.map(({ version, reasons }) => ({ version, reasons: reasons.length > 0 }))).toEqual([{ version: undefined, reasons: true }]);
    expect(permissions.built).toBe(false);
    publish({ bundle: readAll });
    await settle();
    expect(permissions.policyVersion).toBe(readAll.version);
    await live.close();
  });
});
