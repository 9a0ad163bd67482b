/**
 * The Permit behaviour rules 1–4, the fixed known defect (rule 5), how grantPermit
 * decides granted / anyGranted / ownGranted, and `own` falling back to `any` per role.
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { Permit, PermissionDefinition, User } from '../../runtime/permissions/index.js';
import { buildQuietly, testDoc } from './helpers.js';

const setup = buildQuietly;

function decision(permit: Permit) {
  return { granted: permit.granted, anyGranted: permit.anyGranted, ownGranted: permit.ownGranted, anyAttributes: [...permit.anyAttributes] };
}

const ownsId =
  (...ids: number[]) =>
  ({ resourceId }: { user: User<unknown>; resourceId: unknown }) =>
    ids.includes(resourceId as number);

describe('Permit behaviour rules', () => {
  pickAndOwnershipRules();

  it('Permit behaviour rule 4: the roles of a user combine: any-attributes are the set union of every role', async () => {
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: { read: ['title'] } },
      { roles: 'B', resource: 'doc', grant: { read: ['date', 'title'] } },
      { roles: 'C', resource: 'doc', grant: { read: ['*', '!secret', '!body'] } },
      { roles: 'D', resource: 'doc', grant: { read: ['*', '!secret'] } },
    ]);
    const ab = await permissions.grantPermit({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read' });
    expect(ab.anyAttributes).toEqual(['date', 'title']);
    expect(await ab.pick(testDoc(1))).toEqual({ title: 'title 1', date: '2024-01-01' });
    const cd = await permissions.grantPermit({ user: { id: 1, roles: ['C', 'D'] }, resource: 'doc', action: 'read' });
    expect(cd.anyAttributes).toEqual(['*', '!secret']);
    const ac = await permissions.grantPermit({ user: { id: 1, roles: ['A', 'C'] }, resource: 'doc', action: 'read' });
    expect(ac.anyAttributes).toEqual(['*', '!body', '!secret']);
    expect(await ac.pick(testDoc(1))).toEqual({ id: 1, title: 'title 1', date: '2024-01-01' });
  });
});

function pickAndOwnershipRules(): void {
  it('Permit behaviour rule 1: pick and filterPick fall back to anyAttributes when anyGranted is true', async () => {
    const { permissions } = setup([{ roles: 'READER', resource: 'doc', grant: { 'read:any': ['title', 'date'] } }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['READER'] }, resource: 'doc', action: 'read' });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['date', 'title'] });
    expect(await permit.pick(testDoc(1))).toEqual({ title: 'title 1', date: '2024-01-01' });
    expect(await permit.filterPick([testDoc(1), testDoc(2)])).toEqual([
      { title: 'title 1', date: '2024-01-01' },
      { title: 'title 2', date: '2024-01-02' },
    ]);
  });

  it('Permit behaviour rule 1: when anyGranted is false, pick gives {} for an item not owned and filterPick drops it', async () => {
    const { permissions } = setup([{ roles: 'OWNER', resource: 'doc', grant: { 'read:own': ['*', '!secret'] }, isOwner: ownsId(1), listOwned: () => [1] }]);
    const permit = await permissions.grantPermit({ user: { id: 9, roles: ['OWNER'] }, resource: 'doc', action: 'read' });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
    expect(await permit.pick(testDoc(2))).toEqual({});
    expect(await permit.pick(testDoc(1))).toEqual({ id: 1, title: 'title 1', date: '2024-01-01', body: 'body 1' });
    expect(await permit.filterPick([testDoc(2), testDoc(1), testDoc(3)])).toEqual([{ id: 1, title: 'title 1', date: '2024-01-01', body: 'body 1' }]);
  });

  it('Permit behaviour rule 2: without ownership hooks nothing is owned, even for a role that grants everything', async () => {
    const { permissions } = setup([
      { roles: 'ROOT', resource: '*', grant: ['*:any'] },
      { roles: 'READER', resource: 'doc', grant: ['read'] },
    ]);
    const user = { id: 1, roles: ['ROOT'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'delete', resourceId: 1 });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['*'] });
    expect(await permit.isOwn(1)).toBe(false);
    expect(await permit.isOwn(2)).toBe(false);
  });

  it("Permit behaviour rule 3: a role granted '*' and '*:own' whose isOwner always answers true owns everything", async () => {
    const isOwner = jest.fn<(args: { user: User<unknown>; resourceId: unknown }) => boolean>(() => true);
    const { permissions } = setup([{ roles: 'OWNS_ALL', resource: 'doc', grant: ['*', '*:own'], isOwner, limitOwned: () => 'no restriction' }]);
    const user = { id: 1, roles: ['OWNS_ALL'] };
    const permit = await permissions.grantPermit<unknown>({ user, resource: 'doc', action: 'update', resourceId: 42 });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['*'] });
    expect(await permit.isOwn(42)).toBe(true);
    expect(await permit.isOwn('any-id')).toBe(true);
    expect(isOwner).toHaveBeenCalledWith({ user, resourceId: 42 });
    expect(permit.limitOwn()).toBe('no restriction');
    expect(await permit.pick(testDoc(42))).toEqual(testDoc(42));
  });

  it("Permit behaviour rule 4: a super role without hooks combined with a role that has hooks inherits that role's ownership", async () => {
    const { permissions } = setup([
      { roles: 'SUPER', resource: '*', grant: ['*:any'] },
      {
        roles: 'EMPLOYEE',
        resource: 'doc',
        grant: { 'read:own': ['*', '!secret'] },
        isOwner: ({ user, resourceId }: { user: User<unknown>; resourceId: unknown }) => resourceId === user.id,
        limitOwned:
          ({ user }: { user: User<unknown> }) =>
          (doc: { id: number }) =>
            doc.id === user.id,
      },
    ]);
    const user = { id: 3, roles: ['SUPER', 'EMPLOYEE'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 4 });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['*'] });
    expect(await permit.isOwn(3)).toBe(true);
    expect(await permit.isOwn(4)).toBe(false);
    expect(await permit.pick(testDoc(4))).toEqual(testDoc(4));
  });
}

describe('the known defect is fixed: own attributes come only from the definitions whose hook owns the item', () => {
  // NARROW owns the item with id 1 and may see title and noteN; WIDE owns the one with id 2 and may see everything but noteN.
  const items = [1, 2, 3].map((id) => ({ id, title: `title ${id}`, body: `body ${id}`, noteN: `note ${id}` }));

  for (const hookForm of ['listOwned', 'limitOwned'] as const) {
    const hooks = (id: number) =>
      hookForm === 'listOwned'
        ? { isOwner: ownsId(id), listOwned: () => [id] }
        : { isOwner: ownsId(id), limitOwned: () => (item: { id: number }) => item.id === id };
    const definitions = [
      { roles: 'NARROW', resource: 'doc', grant: { 'read:own': ['title', 'noteN'] }, ...hooks(1) },
      { roles: 'WIDE', resource: 'doc', grant: { 'read:own': ['*', '!noteN'] }, ...hooks(2) },
    ] as PermissionDefinition[];

    it(`defect fix (${hookForm} hooks): an item owned only under the narrower role gets no attribute of the wider role's own grant`, async () => {
      const { permissions } = setup(definitions);
      const permit = await permissions.grantPermit({ user: { id: 7, roles: ['NARROW', 'WIDE'] }, resource: 'doc', action: 'read', resourceId: 1 });
      expect(decision(permit)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
      expect(await permit.pick(items[0]!)).toEqual({ title: 'title 1', noteN: 'note 1' });
    });

    it(`defect fix (${hookForm} hooks): an item owned only under the wider role gets no attribute that only the narrower role's own grant allows`, async () => {
      const { permissions } = setup(definitions);
      const permit = await permissions.grantPermit({ user: { id: 7, roles: ['WIDE', 'NARROW'] }, resource: 'doc', action: 'read', resourceId: 2 });
      expect(permit.granted).toBe(true);
      expect(await permit.pick(items[1]!)).toEqual({ id: 2, title: 'title 2', body: 'body 2' });
    });

    it(`defect fix (${hookForm} hooks): filterPick picks each item with the attributes of the definitions owning that item`, async () => {
      const { permissions } = setup(definitions);
      const permit = await permissions.grantPermit({ user: { id: 7, roles: ['NARROW', 'WIDE'] }, resource: 'doc', action: 'read' });
      expect(await permit.filterPick(items)).toEqual([
        { title: 'title 1', noteN: 'note 1' },
        { id: 2, title: 'title 2', body: 'body 2' },
      ]);
      expect(await permit.pick(items[2]!)).toEqual({});
    });
  }

  it('defect fix: an item owned under both roles gets the union of both own grants', async () => {
    const { permissions } = setup([
      { roles: 'NARROW', resource: 'doc', grant: { 'read:own': ['title', 'noteN'] }, isOwner: ownsId(1, 2), listOwned: () => [1, 2] },
      { roles: 'WIDE', resource: 'doc', grant: { 'read:own': ['*', '!noteN'] }, isOwner: ownsId(2), listOwned: () => [2] },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 7, roles: ['NARROW', 'WIDE'] }, resource: 'doc', action: 'read' });
    expect(await permit.pick({ id: 2, title: 't', body: 'b', noteN: 'n' })).toEqual({ id: 2, title: 't', body: 'b', noteN: 'n' });
  });

  it("defect fix: owning an item through a definition that grants another action as own adds nothing to this action's attributes", async () => {
    const isOwner = jest.fn(ownsId(1));
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: { 'read:any': ['title'], 'update:own': ['*'] }, isOwner, limitOwned: () => 'mine' }]);
    const read = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(await read.isOwn(1)).toBe(true);
    expect(await read.pick(testDoc(1))).toEqual({ title: 'title 1' });
    const update = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'update', resourceId: 1 });
    expect(await update.pick(testDoc(1))).toEqual(testDoc(1));
  });

  it('defect fix: an owned item is picked with anyAttributes plus the own attributes of the matching definition only', async () => {
    const { permissions } = setup([
      { roles: 'LISTER', resource: 'doc', grant: { 'read:any': ['title'] } },
      { roles: 'OWNER', resource: 'doc', grant: { 'read:own': ['body'] }, isOwner: ownsId(1), limitOwned: () => 'owned' },
      { roles: 'OTHER_OWNER', resource: 'doc', grant: { 'read:own': ['secret'] }, isOwner: ownsId(2), limitOwned: () => 'other' },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 7, roles: ['LISTER', 'OWNER', 'OTHER_OWNER'] }, resource: 'doc', action: 'read' });
    expect(permit.anyAttributes).toEqual(['title']);
    expect(await permit.filterPick([testDoc(1), testDoc(2), testDoc(3)])).toEqual([
      { title: 'title 1', body: 'body 1' },
      { title: 'title 2', secret: 'secret 2' },
      { title: 'title 3' },
    ]);
  });
});

describe('grantPermit decisions', () => {
  const ownDefinition: PermissionDefinition = {
    roles: 'OWNER',
    resource: 'doc',
    grant: { 'read:own': ['*'] },
    isOwner: ({ resourceId }) => resourceId === 0 || resourceId === 1,
    limitOwned: () => 'mine',
  };

  it('grantPermit without resourceId: an own-only grant is granted and ownGranted, but not anyGranted', async () => {
    const { permissions } = setup([ownDefinition]);
    const user = { id: 5, roles: ['OWNER'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
    expect(permit.user).toBe(user);
    expect(permit.resource).toBe('doc');
    expect(permit.action).toBe('read');
    expect(permit.resourceId).toBeUndefined();
  });

  it('grantPermit with resourceId: an own-only grant is granted exactly when isOwn(resourceId) is true', async () => {
    const { permissions } = setup([ownDefinition]);
    const user = { id: 5, roles: ['OWNER'] };
    const owned = await permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 1 });
    expect(decision(owned)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
    expect(owned.resourceId).toBe(1);
    const notOwned = await permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 2 });
    expect(decision(notOwned)).toEqual({ granted: false, anyGranted: false, ownGranted: false, anyAttributes: [] });
  });

  it('grantPermit: resourceId 0 is a real id (ownership is checked); null means no resourceId', async () => {
    const isOwner = jest.fn(({ resourceId }: { user: User<unknown>; resourceId: unknown }) => resourceId === 0);
    const { permissions } = setup([{ roles: 'OWNER', resource: 'doc', grant: ['read:own'], isOwner, listOwned: () => [0] }]);
    const user = { id: 5, roles: ['OWNER'] };
    const zero = await permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: 0 });
    expect(zero.granted).toBe(true);
    expect(isOwner).toHaveBeenCalledTimes(1);
    expect(isOwner).toHaveBeenCalledWith({ user, resourceId: 0 });
    const none = await permissions.grantPermit({ user, resource: 'doc', action: 'read', resourceId: null });
    expect(decision(none)).toEqual({ granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] });
    expect(isOwner).toHaveBeenCalledTimes(1);
  });

  it('grantPermit with resourceId: an any grant is granted without calling any ownership hook', async () => {
    const isOwner = jest.fn(() => false);
    const { permissions } = setup([
      { roles: 'READER', resource: 'doc', grant: ['read:any'] },
      { roles: 'OWNER', resource: 'doc', grant: ['read:own'], isOwner, limitOwned: () => 'mine' },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['READER', 'OWNER'] }, resource: 'doc', action: 'read', resourceId: 9 });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['*'] });
    expect(isOwner).not.toHaveBeenCalled();
  });

  it("grantPermit: an action the user's roles grant in no possession is not granted, and no hook is called", async () => {
    const isOwner = jest.fn(() => true);
    const { permissions } = setup([
      { roles: 'OWNER', resource: 'doc', grant: ['read:own', 'update:own'], isOwner, limitOwned: () => 'mine' },
      { roles: 'OTHER', resource: 'doc', grant: ['delete'] },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['OWNER'] }, resource: 'doc', action: 'delete', resourceId: 1 });
    expect(decision(permit)).toEqual({ granted: false, anyGranted: false, ownGranted: false, anyAttributes: [] });
    expect(isOwner).not.toHaveBeenCalled();
  });
});

describe('own falls back to any per role', () => {
  it('own falls back to any per role: a role granted read:any reads a specific (own) record, and ownGranted is true', async () => {
    const { permissions } = setup([{ roles: 'READER', resource: 'doc', grant: { 'read:any': ['title'] } }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['READER'] }, resource: 'doc', action: 'read', resourceId: 1 });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['title'] });
    expect(await permit.pick(testDoc(1))).toEqual({ title: 'title 1' });
  });

  it(
    "own falls back to any per role: an owned record gets the role's any-attributes plus its own-attributes, " + 'another record only the any-attributes',
    async () => {
      const { permissions } = setup([
        { roles: 'MIXED', resource: 'doc', grant: { 'read:any': ['title'], 'read:own': ['body'] }, isOwner: ownsId(1), limitOwned: () => 'mine' },
      ]);
      const permit = await permissions.grantPermit({ user: { id: 1, roles: ['MIXED'] }, resource: 'doc', action: 'read' });
      expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['title'] });
      expect(await permit.filterPick([testDoc(1), testDoc(2)])).toEqual([{ title: 'title 1', body: 'body 1' }, { title: 'title 2' }]);
    },
  );
});
