/**
 * Computed ownership: isOwner is optional where ownership can be computed — membership in
 * listOwned, or limitOwned run by the resource's ownedAmong executor — and ownership is asked in
 * batches: filterPick of N items makes one call per ownership group, whatever N is; only groups
 * with nothing but isOwner ask per item, at most 32 at a time. Known answers need no waiting.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { MAX_HOOK_CALLS_IN_FLIGHT } from '../../runtime/core/decision/concurrency-limit.js';
import {
  Permissions,
  PermissionsHookError,
  PermissionsUsageError,
  type PermissionDefinition,
  type PermissionsOptions,
  type User,
} from '../../runtime/permissions/index.js';
import { buildError, collectingLogger, problemSummary } from './helpers.js';

type Doc = { readonly id: number; readonly creatorId: number; readonly title: string; readonly secret: string; readonly notes: string };
type DocFilter = (doc: Doc) => boolean;
type OwnedAmongArgs = { user: User<unknown>; filter: DocFilter; resourceIds: readonly unknown[] };

const DOCS: readonly Doc[] = Array.from({ length: 1000 }, (_, i) => ({
  id: i + 1,
  creatorId: (i % 10) + 1,
  title: `t${i + 1}`,
  secret: `s${i + 1}`,
  notes: `n${i + 1}`,
}));
const byId = new Map(DOCS.map((doc) => [doc.id, doc]));

/** An executor over the in-memory documents that records every call. */
function executor() {
  return jest.fn(({ filter, resourceIds }: OwnedAmongArgs): unknown[] =>
    resourceIds.filter((id) => {
      const doc = typeof id === 'number' ? byId.get(id) : undefined;
      return doc !== undefined && filter(doc);
    }),
  );
}

const limitToCreator =
  ({ user }: { user: User<unknown> }): DocFilter =>
  (doc) =>
    doc.creatorId === user.id;
const limitToCreatorAndNext =
  ({ user }: { user: User<unknown> }): DocFilter =>
  (doc) =>
    doc.creatorId === user.id || doc.creatorId === (user.id as number) + 1;

function engine(definitions: readonly PermissionDefinition[], options: PermissionsOptions<User<unknown>, DocFilter> = {}) {
  const permissions = new Permissions<User<unknown>, DocFilter>({ logger: collectingLogger().logger, ...options });
  permissions.addPermissions(definitions as PermissionDefinition[], { source: 'computed-ownership.ts' });
  return permissions.build();
}

const author = { id: 3, roles: ['AUTHOR'] };

const definitions: PermissionDefinition[] = [
  { roles: 'AUTHOR', resource: 'doc', grant: { 'read:own': ['*'], 'list:own': ['*', '!secret'], 'list:any': ['title'] }, limitOwned: limitToCreator },
];

describe('limitOwned without isOwner, computed by the resource’s ownedAmong', () => {
  executorCallsAndGroups();
  executorFailuresAndMissingExecutors();

  it('the executor may be a method name of the ownership service; a missing method or a bad value is refused', () => {
    const service = { ownedDocs: executor() };
    expect(engine(definitions, { ownership: service, ownedAmong: { doc: 'ownedDocs' } }).built).toBe(true);
    const missing = new Permissions({ logger: collectingLogger().logger, ownership: {}, ownedAmong: { doc: 'ownedDocs' } });
    missing.addPermissions(definitions);
    expect(buildError(missing).problems.map(({ code, source, path }) => ({ code, source, path }))).toEqual([
      { code: 'unknown-hook-method', source: 'the ownedAmong executor of "doc"', path: ['ownedAmong', 'doc'] },
    ]);
    expect(() => new Permissions({ ownedAmong: { doc: 7 as never } })).toThrow(PermissionsUsageError);
    expect(() => new Permissions({ ownedAmong: { doc: 'then' } })).toThrow('Permissions option ownedAmong.doc: the executor is reserved');
  });
});

function executorCallsAndGroups(): void {
  it('isOwn(id) and grantPermit with an id ask the executor once per id, with the limitOwned filter', async () => {
    const ownedAmong = executor();
    const permissions = engine(definitions, { ownedAmong: { doc: ownedAmong } });
    const permit = await permissions.grantPermit({ user: author, resource: 'doc', action: 'read', resourceId: 3 });
    expect([permit.granted, permit.ownGranted]).toEqual([true, true]);
    expect(await permit.isOwn(3)).toBe(true);
    expect(await permit.isOwn(4)).toBe(false);
    expect(await permit.isOwn(4)).toBe(false);
    expect(ownedAmong.mock.calls.map(([args]) => args.resourceIds)).toEqual([[3], [4]]);
    expect(ownedAmong.mock.calls[0]?.[0].user).toBe(author);
    expect(ownedAmong.mock.calls[0]?.[0].filter(byId.get(13) as Doc)).toBe(true);
    expect((await permissions.grantPermit({ user: author, resource: 'doc', action: 'read', resourceId: 4 })).granted).toBe(false);
  });

  it('filterPick of 1,000 items makes exactly one executor call, with every id once', async () => {
    const ownedAmong = executor();
    const permit = await engine(definitions, { ownedAmong: { doc: ownedAmong } }).grantPermit({ user: author, resource: 'doc', action: 'list' });
    const items = [...DOCS, DOCS[2] as Doc];
    const picked = await permit.filterPick(items);
    expect(ownedAmong).toHaveBeenCalledTimes(1);
    expect(ownedAmong.mock.calls[0]?.[0].resourceIds).toEqual(DOCS.map((doc) => doc.id));
    expect(picked).toEqual(
      items.map((doc) => (doc.creatorId === 3 ? { id: doc.id, creatorId: doc.creatorId, title: doc.title, notes: doc.notes } : { title: doc.title })),
    );
    // Asked again (same ids, or a pick of one of them): answered from what is known, no call.
    await permit.filterPick(DOCS.slice(0, 50));
    expect(await permit.pick(DOCS[2] as Doc)).toEqual({ id: 3, creatorId: 3, title: 't3', notes: 'n3' });
    expect(ownedAmong).toHaveBeenCalledTimes(1);
  });

  it('the executor gets one array of ids however many: 100,000 items are one call', async () => {
    const ownedAmong = executor();
    const permit = await engine(definitions, { ownedAmong: { doc: ownedAmong } }).grantPermit({ user: author, resource: 'doc', action: 'list' });
    const many = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, creatorId: 3, title: 't', secret: 's', notes: 'n' }));
    const picked = await permit.filterPick(many);
    expect(ownedAmong).toHaveBeenCalledTimes(1);
    expect(ownedAmong.mock.calls[0]?.[0].resourceIds).toHaveLength(100_000);
    expect(picked).toHaveLength(100_000);
  });

  it('two ownership groups keep their own attributes (the defect fix holds): one executor call per group', async () => {
    const ownedAmong = executor();
    const permissions = engine(
      [
        { roles: 'AUTHOR', resource: 'doc', grant: { 'read:own': ['id', 'title'] }, limitOwned: limitToCreator },
        { roles: 'EDITOR', resource: 'doc', grant: { 'read:own': ['id', 'notes'] }, limitOwned: limitToCreatorAndNext },
      ],
      {
        ownedAmong: { doc: ownedAmong },
        limitOwnReduce: ({ limitOwneds, user }) => {
          const filters = limitOwneds.map((limit) => limit({ user }));
          return (doc) => filters.some((filter) => filter(doc));
        },
      },
    );
    const permit = await permissions.grantPermit({ user: { id: 3, roles: ['AUTHOR', 'EDITOR'] }, resource: 'doc', action: 'read' });
    const picked = await permit.filterPick(DOCS.slice(0, 10));
    expect(ownedAmong).toHaveBeenCalledTimes(2);
    // Document 3 (creator 3) is owned by both groups; document 4 (creator 4) only by EDITOR's: it gets EDITOR's attributes only.
    expect(picked).toEqual([
      { id: 3, title: 't3', notes: 'n3' },
      { id: 4, notes: 'n4' },
    ]);
  });
}

function executorFailuresAndMissingExecutors(): void {
  it('a group with isOwner still answers one record with isOwner, and many with the executor (never isOwner)', async () => {
    const ownedAmong = executor();
    const isOwner = jest.fn(({ user, resourceId }: { user: User<unknown>; resourceId: unknown }) => byId.get(resourceId as number)?.creatorId === user.id);
    const permissions = engine([{ roles: 'AUTHOR', resource: 'doc', grant: { 'read:own': ['*'] }, isOwner, limitOwned: limitToCreator }], {
      ownedAmong: { doc: ownedAmong },
    });
    const permit = await permissions.grantPermit({ user: author, resource: 'doc', action: 'read', resourceId: 13 });
    expect(permit.granted).toBe(true);
    expect([isOwner.mock.calls.length, ownedAmong.mock.calls.length]).toEqual([1, 0]);
    const picked = await permit.filterPick(DOCS.slice(0, 30));
    expect(picked.map((doc) => doc.id)).toEqual([3, 13, 23]);
    expect([isOwner.mock.calls.length, ownedAmong.mock.calls.length]).toEqual([1, 1]);
    // 13 was known already: only the other 29 ids were asked.
    expect(ownedAmong.mock.calls[0]?.[0].resourceIds).toHaveLength(29);
  });

  it('an executor answer that is not an array, or throws, fails closed; ids it returns unasked own nothing', async () => {
    const cases: [label: string, answer: (args: OwnedAmongArgs) => unknown, says: string][] = [
      ['a string', () => 'all', 'not an array of ids'],
      [
        'a throw',
        () => {
          throw new Error('database down');
        },
        'threw: database down',
      ],
    ];
    for (const [label, answer, says] of cases) {
      const permit = await engine(definitions, { ownedAmong: { doc: answer as () => never } }).grantPermit({ user: author, resource: 'doc', action: 'read' });
      const error = await permit.isOwn(3).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect([label, error]).toEqual([label, expect.any(PermissionsHookError)]);
      expect((error as Error).message).toContain(says);
    }
    const generous = await engine(definitions, { ownedAmong: { doc: () => [1, 2, 3, 4, 5] } }).grantPermit({ user: author, resource: 'doc', action: 'list' });
    expect((await generous.filterPick([DOCS[0] as Doc, DOCS[3] as Doc])).map((doc) => Object.keys(doc))).toEqual([
      ['id', 'creatorId', 'title', 'notes'],
      ['id', 'creatorId', 'title', 'notes'],
    ]);
    expect(await generous.isOwn(999)).toBe(false);
  });

  it('without an executor for the resource, limitOwned without isOwner is a build error naming definition and resource', () => {
    const permissions = new Permissions({ logger: collectingLogger().logger, ownedAmong: { doc: executor() } });
    permissions.addPermissions(
      [
        { roles: 'AUTHOR', resource: 'doc', grant: ['read'] },
        { roles: 'AUTHOR', resource: 'invoice', grant: ['read'] },
        { roles: 'AUTHOR', resource: '*', grant: ['read:own'], limitOwned: limitToCreator },
      ],
      { source: 'computed-ownership.ts' },
    );
    const error = buildError(permissions);
    expect(problemSummary(error).map(({ code, index, source, path }) => ({ code, index, source, path }))).toEqual([
      { code: 'own-without-is-owner', index: 2, source: 'computed-ownership.ts', path: ['limitOwned'] },
    ]);
    expect(error.problems[0]?.message).toBe(
      'The definition decides ownership with limitOwned and has no isOwner, but resource "invoice" declares no ownedAmong executor, ' +
        'so whether one record is owned cannot be computed.',
    );
  });
}

describe('listOwned without isOwner: ownership is membership', () => {
  it('isOwn, pick and filterPick call listOwned once per permit, and nothing else', async () => {
    const listOwned = jest.fn(({ user }: { user: User<unknown> }) => DOCS.filter((doc) => doc.creatorId === user.id).map((doc) => doc.id));
    const permissions = engine([{ roles: 'AUTHOR', resource: 'doc', grant: { 'read:own': ['*'], 'read:any': ['title'] }, listOwned }]);
    const permit = await permissions.grantPermit({ user: author, resource: 'doc', action: 'read', resourceId: 13 });
    expect(permit.granted).toBe(true);
    expect(await permit.isOwn(14)).toBe(false);
    expect(await permit.pick(DOCS[12] as Doc)).toEqual(DOCS[12]);
    expect(await permit.filterPick(DOCS.slice(0, 4))).toEqual([{ title: 't1' }, { title: 't2' }, DOCS[2], { title: 't4' }]);
    expect(listOwned).toHaveBeenCalledTimes(1);
  });
});

describe('groups with only isOwner are asked per item, a bounded number at a time', () => {
  it(`filterPick of 500 items never has more than ${MAX_HOOK_CALLS_IN_FLIGHT} isOwner calls in flight, and asks each id once`, async () => {
    let inFlight = 0;
    let most = 0;
    const asked: unknown[] = [];
    const isOwner = async ({ user, resourceId }: { user: User<unknown>; resourceId: unknown }): Promise<boolean> => {
      asked.push(resourceId);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return byId.get(resourceId as number)?.creatorId === user.id;
    };
    // A limitOwned group on a resource without an executor keeps isOwner as its only per-record answer.
    const permissions = engine([{ roles: 'AUTHOR', resource: 'doc', grant: { 'read:own': ['*'] }, isOwner, limitOwned: limitToCreator }]);
    const permit = await permissions.grantPermit({ user: author, resource: 'doc', action: 'read' });
    const items = [...DOCS.slice(0, 500), ...DOCS.slice(0, 20)];
    const picked = await permit.filterPick(items);
    expect(MAX_HOOK_CALLS_IN_FLIGHT).toBe(32);
    expect(most).toBe(MAX_HOOK_CALLS_IN_FLIGHT);
    expect(asked).toHaveLength(500);
    expect(picked.map((doc) => doc.id)).toEqual(items.filter((doc) => doc.creatorId === 3).map((doc) => doc.id));
  });

  it.each(['filterPick', 'owningGroups'] as const)(
    'once an isOwner call fails, %s rejects with its error and the calls still waiting are never made',
    async (operation) => {
      let calls = 0;
      const isOwner = async (): Promise<boolean> => {
        calls++;
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('the ownership database is down');
      };
      const permissions = engine([{ roles: 'AUTHOR', resource: 'doc', grant: { 'read:own': ['*'] }, isOwner, limitOwned: limitToCreator }]);
      const permit = await permissions.grantPermit({ user: author, resource: 'doc', action: 'read' });
      const asked = operation === 'filterPick' ? permit.filterPick(DOCS.slice(0, 500)) : permit.owningGroups(DOCS.slice(0, 500).map((doc) => doc.id));
      await expect(asked).rejects.toThrow('Ownership hook isOwner rejected: the ownership database is down');
      // Give any call that would still start the time to: none does, past the first slots' worth.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toBe(MAX_HOOK_CALLS_IN_FLIGHT);
    },
  );
});

describe('answers already known need no waiting', () => {
  it('after grantPermit answered ownership of an id, pick of that item returns an already settled result without a hook call', async () => {
    const ownedAmong = executor();
    // Own only (no 'any' grant): grantPermit with an id has to decide ownership, and the permit keeps the answer.
    const permissions = engine([{ roles: 'AUTHOR', resource: 'doc', grant: { 'read:own': ['*'] }, limitOwned: limitToCreator }], {
      ownedAmong: { doc: ownedAmong },
    });
    const permit = await permissions.grantPermit({ user: author, resource: 'doc', action: 'read', resourceId: 3 });
    let settled: unknown;
    void permit.pick(DOCS[2] as Doc).then((picked) => (settled = picked));
    // One microtask: a known answer resolves at once, with no hook and no timer in between.
    await Promise.resolve();
    expect(settled).toEqual(DOCS[2]);
    expect(ownedAmong).toHaveBeenCalledTimes(1);
  });
});

describe('hook inputs are the library’s own, hook results are copied', () => {
  const definitions: PermissionDefinition[] = [
    { roles: ['AUTHOR'], resource: 'doc', possession: 'own', grant: { read: ['*'], 'read:any': ['title'] }, limitOwned: limitToCreator },
  ];
  const items = DOCS.slice(0, 30);
  const expected = items.map((doc) => (doc.creatorId === author.id ? doc : { title: doc.title }));

  it('ownedAmong gets a fresh frozen array of ids: an executor that splices it to chunk fails the check, and answers nothing wrong', async () => {
    const seen: unknown[] = [];
    const splicing = ({ filter, resourceIds }: OwnedAmongArgs): unknown[] => {
      seen.push(resourceIds, Object.isFrozen(resourceIds));
      const owned: unknown[] = [];
      while (resourceIds.length > 0) for (const id of (resourceIds as unknown[]).splice(0, 10)) if (filter(byId.get(id as number) as Doc)) owned.push(id);
      return owned;
    };
    const permit = await engine(definitions, { ownedAmong: { doc: splicing } }).grantPermit({ user: author, resource: 'doc', action: 'read' });
    const failure = await permit.filterPick(items).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PermissionsHookError);
    expect((failure as PermissionsHookError).cause).toBeInstanceOf(TypeError);
    expect(seen[1]).toBe(true);
  });

  it('an executor that chunks a copy answers exactly; the array it was given is never the one the permit keeps', async () => {
    const given: (readonly unknown[])[] = [];
    const chunking = ({ filter, resourceIds }: OwnedAmongArgs): unknown[] => {
      given.push(resourceIds);
      const rest = [...resourceIds];
      const owned: unknown[] = [];
      while (rest.length > 0) for (const id of rest.splice(0, 7)) if (filter(byId.get(id as number) as Doc)) owned.push(id);
      return owned;
    };
    const permit = await engine(definitions, { ownedAmong: { doc: chunking } }).grantPermit({ user: author, resource: 'doc', action: 'read' });
    expect(await permit.filterPick(items)).toEqual(expected);
    expect(given).toHaveLength(1);
    expect(given[0]).toHaveLength(30);
  });

  it('an executor that changes the array it returned, after returning it, changes no answer', async () => {
    let returned: unknown[] = [];
    const mutating = ({ filter, resourceIds }: OwnedAmongArgs): Promise<unknown[]> => {
      returned = resourceIds.filter((id) => filter(byId.get(id as number) as Doc));
      return Promise.resolve(returned);
    };
    const permit = await engine(definitions, { ownedAmong: { doc: mutating } }).grantPermit({ user: author, resource: 'doc', action: 'read' });
    const picked = await permit.filterPick(items);
    returned.length = 0;
    returned.push(...items.map((doc) => doc.id));
    expect(picked).toEqual(expected);
    // Asked again, the permit answers from what the executor returned at the time.
    expect(await permit.filterPick(items)).toEqual(expected);
    expect(await permit.isOwn(1)).toBe(false);
  });
});
