// Over 350 lines: the ownership hook rules, which hooks decide, isOwn and filterPick share one set of hook fixtures.
/**
 * Ownership hooks: the ownership hook rules 1–3, which definitions' hooks decide ownership
 * for a query, isOwn memoisation and how often filterPick calls hooks. listOwn, limitOwn and
 * limitOwnReduce: list-own-limit-own.test.ts.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { buildError, buildQuietly, collectingLogger, isOwnerOf, problemSummary, testDoc, type IsOwnerArgs, type UserArgs } from './helpers.js';

const setup = buildQuietly;

const cases: [label: string, hooks: object, codes: string[]][] = [
  ['only isOwner', { isOwner: () => true }, ['own-without-list-or-limit']],
  // Without isOwner, limitOwned needs the resource's ownedAmong executor to decide one record.
  ['only limitOwned, and no ownedAmong for the resource', { limitOwned: () => 'x' }, ['own-without-is-owner']],
  ['isOwner with both listOwned and limitOwned', { isOwner: () => true, listOwned: () => [], limitOwned: () => 'x' }, ['both-list-and-limit']],
];

describe('ownership hook rules', () => {
  for (const [label, hooks, codes] of cases) {
    it(`Ownership hook rule 1: a definition granting 'own' actions with ${label} is rejected at build()`, () => {
      const permissions = new Permissions({ logger: collectingLogger().logger });
      permissions.addPermissions([{ roles: 'A', resource: 'doc', grant: ['read:own'], ...hooks } as PermissionDefinition], { source: 'hooks.ts' });
      expect(problemSummary(buildError(permissions)).map((problem) => [problem.code, problem.index, problem.source])).toEqual(
        codes.map((code) => [code, 0, 'hooks.ts']),
      );
    });
  }

  it("Ownership hook rule 1: isOwner with exactly one of listOwned or limitOwned builds, for a definition granting 'own' actions", async () => {
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(1), listOwned: () => [1] },
      { roles: 'B', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(2), limitOwned: () => 'filter' },
    ]);
    expect((await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read', resourceId: 1 })).granted).toBe(true);
    expect((await permissions.grantPermit({ user: { id: 1, roles: ['B'] }, resource: 'doc', action: 'read', resourceId: 2 })).granted).toBe(true);
  });

  it('Ownership hook rule 2: hook strings name methods of the ownership service, called on that service with { user, resourceId } / { user }', async () => {
    class DocumentOwnership {
      readonly calls: unknown[] = [];
      constructor(private readonly ownedByUser: ReadonlyMap<unknown, readonly number[]>) {}
      isCreator(args: IsOwnerArgs): boolean {
        this.calls.push(['isCreator', args]);
        return (this.ownedByUser.get(args.user.id) ?? []).includes(args.resourceId as number);
      }
      listCreated(args: UserArgs): readonly number[] {
        this.calls.push(['listCreated', args]);
        return this.ownedByUser.get(args.user.id) ?? [];
      }
    }
    const ownership = new DocumentOwnership(new Map([[7, [1, 3]]]));
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 'isCreator', listOwned: 'listCreated' }], { ownership });
    const user = { id: 7, roles: ['A'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 3 });
    expect(permit.granted).toBe(true);
    expect(await permit.isOwn(2)).toBe(false);
    expect(await permit.listOwn()).toEqual([1, 3]);
    expect(ownership.calls).toEqual([
      ['isCreator', { user, resourceId: 3 }],
      ['isCreator', { user, resourceId: 2 }],
      ['listCreated', { user }],
    ]);
  });
  jsonFormDecidesLikeFunctions();
});

function jsonFormDecidesLikeFunctions(): void {
  it('Ownership hook rule 3: the JSON form (hooks as method-name strings) builds and decides exactly like the same definitions with functions', async () => {
    const owned = [1, 3];
    const ownership = {
      isMine: ({ resourceId }: IsOwnerArgs) => owned.includes(resourceId as number),
      limitMine: () => (doc: { id: number }) => owned.includes(doc.id),
    };
    const json = JSON.parse(
      JSON.stringify([
        {
          roles: ['A'],
          resource: 'doc',
          descr: 'A reads own documents, lists titles',
          possession: 'own',
          grant: { read: ['*', '!secret'], 'list:any': ['title'] },
          isOwner: 'isMine',
          limitOwned: 'limitMine',
        },
      ]),
    ) as PermissionDefinition[];
    const fromJson = setup(json, { ownership }).permissions;
    const withFunctions = setup([
      {
        roles: ['A'],
        resource: 'doc',
        descr: 'A reads own documents, lists titles',
        possession: 'own',
        grant: { read: ['*', '!secret'], 'list:any': ['title'] },
        isOwner: ownership.isMine,
        limitOwned: ownership.limitMine,
      },
    ]).permissions;
    const docs = [1, 2, 3].map(testDoc);
    const answers = async (permissions: Permissions) => {
      const out: unknown[] = [];
      for (const action of ['read', 'list']) {
        for (const resourceId of [undefined, 1, 2]) {
          const permit = await permissions.grantPermit({ user: { id: 9, roles: ['A'] }, resource: 'doc', action, resourceId });
          out.push([action, resourceId, permit.granted, permit.anyGranted, permit.ownGranted, permit.anyAttributes, await permit.filterPick(docs)]);
        }
      }
      return out;
    };
    const expected = await answers(withFunctions);
    expect(await answers(fromJson)).toEqual(expected);
    expect(expected[0]).toEqual([
      'read',
      undefined,
      true,
      false,
      true,
      [],
      [
        { id: 1, title: 'title 1', date: '2024-01-01', body: 'body 1' },
        { id: 3, title: 'title 3', date: '2024-01-03', body: 'body 3' },
      ],
    ]);
  });
}

describe('which ownership hooks decide a query', () => {
  groupsFormedByRolesAndHookFunctions();

  it('owner groups: definitions naming the same hook methods form one group (each method runs once per id)', async () => {
    const ownership = { isMine: isOwnerOf(1), listMine: jest.fn(() => [1]) };
    const { permissions } = setup(
      [
        { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 'isMine', listOwned: 'listMine' },
        { roles: 'B', resource: 'doc', grant: { 'read:own': ['title'] }, isOwner: 'isMine', listOwned: 'listMine' },
      ],
      { ownership },
    );
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read' });
    expect(await permit.isOwn(1)).toBe(true);
    expect(ownership.isMine).toHaveBeenCalledTimes(1);
    expect(await permit.listOwn()).toEqual([1]);
    expect(ownership.listMine).toHaveBeenCalledTimes(1);
  });
});

function groupsFormedByRolesAndHookFunctions(): void {
  it("owner groups: a definition for role '*' lends its hooks to every known role", async () => {
    const isOwner = isOwnerOf(5);
    const { permissions } = setup([
      { roles: '*', resource: 'doc', grant: ['read:own'], isOwner, limitOwned: () => 'mine' },
      { roles: 'A', resource: 'doc', grant: ['update'] },
    ]);
    const user = { id: 1, roles: ['A'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 5 });
    expect(permit.granted).toBe(true);
    expect(isOwner).toHaveBeenCalledWith({ user, resourceId: 5 });
  });

  it(
    "owner groups: hooks of a definition for resource '*' decide ownership of every resource; hooks of another " + 'resource, action or role never run',
    async () => {
      const starResource = isOwnerOf(1);
      const otherResource = isOwnerOf(2);
      const otherAction = isOwnerOf(3);
      const otherRole = isOwnerOf(4);
      const { permissions } = setup([
        { roles: 'A', resource: '*', grant: ['read:own'], isOwner: starResource, limitOwned: () => 'star' },
        { roles: 'A', resource: 'invoice', grant: ['read:own'], isOwner: otherResource, limitOwned: () => 'invoice' },
        { roles: 'A', resource: 'doc', grant: ['update:own'], isOwner: otherAction, limitOwned: () => 'update' },
        { roles: 'B', resource: 'doc', grant: ['read:own'], isOwner: otherRole, limitOwned: () => 'b' },
      ]);
      const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
      expect([await permit.isOwn(1), await permit.isOwn(2), await permit.isOwn(3), await permit.isOwn(4)]).toEqual([true, false, false, false]);
      expect(starResource).toHaveBeenCalledTimes(4);
      expect(otherResource).not.toHaveBeenCalled();
      expect(otherAction).not.toHaveBeenCalled();
      expect(otherRole).not.toHaveBeenCalled();
    },
  );

  it("owner groups: a definition granting the action as 'any' still lends its isOwner to that action", async () => {
    const isOwner = isOwnerOf(6);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:any', 'update:own'], isOwner, limitOwned: () => 'mine' }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect([await permit.isOwn(6), await permit.isOwn(7)]).toEqual([true, false]);
    expect(isOwner).toHaveBeenCalledTimes(2);
  });

  it('owner groups: isOwn is the OR of the isOwner hooks of every group', async () => {
    const first = isOwnerOf(1);
    const second = isOwnerOf(2);
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: first, limitOwned: () => 'a' },
      { roles: 'B', resource: 'doc', grant: ['read:own'], isOwner: second, limitOwned: () => 'b' },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read' });
    expect([await permit.isOwn(1), await permit.isOwn(2), await permit.isOwn(3)]).toEqual([true, true, false]);
  });

  it('owner groups: definitions sharing the same hook functions form one group (each hook runs once per id)', async () => {
    const isOwner = isOwnerOf(1);
    const listOwned = jest.fn(() => [1]);
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner, listOwned },
      { roles: 'B', resource: 'doc', grant: { 'read:own': ['title'] }, isOwner, listOwned },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read' });
    expect(await permit.isOwn(1)).toBe(true);
    expect(isOwner).toHaveBeenCalledTimes(1);
    expect(await permit.listOwn()).toEqual([1]);
    expect(listOwned).toHaveBeenCalledTimes(1);
  });
}

describe('isOwn', () => {
  it('isOwn is memoised per permit and id: a second isOwn(3) calls no hook, another id or another permit does', async () => {
    const isOwner = isOwnerOf(3);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner, limitOwned: () => 'mine' }]);
    const user = { id: 1, roles: ['A'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    expect(await permit.isOwn(3)).toBe(true);
    expect(await permit.isOwn(3)).toBe(true);
    expect(isOwner).toHaveBeenCalledTimes(1);
    expect(await permit.isOwn(4)).toBe(false);
    expect(await permit.isOwn(4)).toBe(false);
    expect(isOwner).toHaveBeenCalledTimes(2);
    const another = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    expect(await another.isOwn(3)).toBe(true);
    expect(isOwner).toHaveBeenCalledTimes(3);
  });

  it('isOwn is memoised also for concurrent calls with the same id', async () => {
    const isOwner = jest.fn(({ resourceId }: IsOwnerArgs) => Promise.resolve(resourceId === 3));
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner, limitOwned: () => 'mine' }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(await Promise.all([permit.isOwn(3), permit.isOwn(3), permit.isOwn(4)])).toEqual([true, true, false]);
    expect(isOwner).toHaveBeenCalledTimes(2);
  });

  it('isOwn after grantPermit with that resourceId reuses the answer (memoised, no second hook call)', async () => {
    const isOwner = isOwnerOf(3);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner, limitOwned: () => 'mine' }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read', resourceId: 3 });
    expect(permit.granted).toBe(true);
    expect(await permit.isOwn(3)).toBe(true);
    expect(isOwner).toHaveBeenCalledTimes(1);
  });

  it('isOwn is false when no ownership group applies', async () => {
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read'] }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(await permit.isOwn(1)).toBe(false);
  });
});

const hundred = Array.from({ length: 100 }, (_, i) => testDoc(i + 1));

describe('filterPick and hook calls', () => {
  filterPickHookCalls();

  it("getResourceId overrides how an item's id is found (default item.id)", async () => {
    const isOwner = isOwnerOf('b');
    const getResourceId = jest.fn(({ item }: { resource: string; item: object }) => (item as { key: string }).key);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: { 'read:own': ['key'] }, isOwner, limitOwned: () => 'mine' }], { getResourceId });
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(
      await permit.filterPick([
        { id: 1, key: 'a' },
        { id: 2, key: 'b' },
      ]),
    ).toEqual([{ key: 'b' }]);
    expect(await permit.pick({ id: 3, key: 'b' })).toEqual({ key: 'b' });
    expect(getResourceId).toHaveBeenCalledWith({ resource: 'doc', item: { id: 1, key: 'a' } });
    expect(isOwner.mock.calls.map(([args]) => args.resourceId)).toEqual(['a', 'b']);
  });
});

function filterPickHookCalls(): void {
  it('filterPick with a listOwned hook calls listOwned exactly once and isOwner zero times for 100 items', async () => {
    const isOwner = isOwnerOf(2, 50, 99);
    const listOwned = jest.fn<(args: UserArgs) => number[]>(() => [99, 2, 50]);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: { 'read:own': ['id', 'title'] }, isOwner, listOwned }]);
    const user = { id: 1, roles: ['A'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    expect(await permit.filterPick(hundred)).toEqual([
      { id: 2, title: 'title 2' },
      { id: 50, title: 'title 50' },
      { id: 99, title: 'title 99' },
    ]);
    expect(listOwned).toHaveBeenCalledTimes(1);
    expect(listOwned).toHaveBeenCalledWith({ user });
    expect(isOwner).toHaveBeenCalledTimes(0);
  });

  it('filterPick calls listOwned once per permit, also across several filterPick calls', async () => {
    const isOwner = isOwnerOf(1);
    const listOwned = jest.fn(() => [1]);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: { 'read:own': ['id'] }, isOwner, listOwned }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(await permit.filterPick(hundred)).toEqual([{ id: 1 }]);
    expect(await permit.filterPick(hundred.slice(0, 10))).toEqual([{ id: 1 }]);
    expect(listOwned).toHaveBeenCalledTimes(1);
    expect(isOwner).toHaveBeenCalledTimes(0);
  });

  it('filterPick with only a limitOwned hook calls isOwner once per distinct id (memoised)', async () => {
    const isOwner = isOwnerOf(2);
    const limitOwned = jest.fn(() => 'never executed here');
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: { 'read:own': ['id'] }, isOwner, limitOwned }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    const items = [1, 2, 1, 3, 2, 3].map(testDoc);
    expect(await permit.filterPick(items)).toEqual([{ id: 2 }, { id: 2 }]);
    expect(isOwner).toHaveBeenCalledTimes(3);
    expect(limitOwned).not.toHaveBeenCalled();
  });

  it('filterPick calls no hook at all when anyAttributes already keep everything the own grants would add', async () => {
    const isOwner = isOwnerOf(1);
    const listOwned = jest.fn(() => [1]);
    const { permissions } = setup([
      { roles: 'READER', resource: 'doc', grant: { 'read:any': ['*'] } },
      { roles: 'OWNER', resource: 'doc', grant: { 'read:own': ['*', '!secret'] }, isOwner, listOwned },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['READER', 'OWNER'] }, resource: 'doc', action: 'read' });
    expect(await permit.filterPick(hundred.slice(0, 3))).toEqual(hundred.slice(0, 3));
    expect(listOwned).not.toHaveBeenCalled();
    expect(isOwner).not.toHaveBeenCalled();
  });

  it('filterPick keeps owned and any-readable items in their original order', async () => {
    const { permissions } = setup([
      { roles: 'LISTER', resource: 'doc', grant: { 'list:any': ['title'] } },
      { roles: 'OWNER', resource: 'doc', grant: { 'list:own': ['id', 'body'] }, isOwner: isOwnerOf(3, 1), listOwned: () => [3, 1] },
    ]);
    const owner = await permissions.grantPermit({ user: { id: 1, roles: ['OWNER'] }, resource: 'doc', action: 'list' });
    expect(await owner.filterPick([4, 3, 2, 1].map(testDoc))).toEqual([
      { id: 3, body: 'body 3' },
      { id: 1, body: 'body 1' },
    ]);
    const both = await permissions.grantPermit({ user: { id: 1, roles: ['OWNER', 'LISTER'] }, resource: 'doc', action: 'list' });
    expect(await both.filterPick([4, 3, 2, 1].map(testDoc))).toEqual([
      { title: 'title 4' },
      { id: 3, title: 'title 3', body: 'body 3' },
      { title: 'title 2' },
      { id: 1, title: 'title 1', body: 'body 1' },
    ]);
  });
}
