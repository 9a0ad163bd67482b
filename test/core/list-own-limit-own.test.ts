/**
 * listOwn and limitOwn: the union of every listOwned result, the limitOwned filter of one group, the
 * usage errors where neither applies, and limitOwnReduce combining the filters of several groups
 * (hooks given as functions or as method names of the ownership service).
 */
import { describe, expect, it, jest } from '@jest/globals';
import { PermissionsHookError, PermissionsUsageError, type User } from '../../runtime/permissions/index.js';
import { buildQuietly, isOwnerOf, type UserArgs } from './helpers.js';

const setup = buildQuietly;

describe('listOwn and limitOwn', () => {
  it('listOwn returns the union of every listOwned result, first-seen order, without duplicates', async () => {
    const a = jest.fn<(args: UserArgs) => number[]>(() => [3, 1, 2]);
    const b = jest.fn<(args: UserArgs) => Promise<number[]>>(() => Promise.resolve([2, 4, 3]));
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), listOwned: a },
      { roles: 'B', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), listOwned: b },
    ]);
    const user = { id: 1, roles: ['A', 'B'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    expect(await permit.listOwn()).toEqual([3, 1, 2, 4]);
    expect(a).toHaveBeenCalledWith({ user });
    expect(b).toHaveBeenCalledWith({ user });
  });

  it('listOwn rejects with a usage error that says to use limitOwn() when a group has no listOwned hook', async () => {
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), listOwned: () => [1] },
      { roles: 'B', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), limitOwned: () => 'b' },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read' });
    await expect(permit.listOwn()).rejects.toThrow(PermissionsUsageError);
    await expect(permit.listOwn()).rejects.toThrow(/limitOwn\(\)/);
  });

  it('listOwn resolves to [] when no ownership group applies: nothing is owned', async () => {
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read'] }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    await expect(permit.listOwn()).resolves.toEqual([]);
  });

  it("limitOwn with exactly one limitOwned hook and no reducer returns that hook's filter, called with { user }, never executing it", async () => {
    const predicate = jest.fn((doc: { id: number }) => doc.id === 1);
    const limitOwned = jest.fn<(args: UserArgs) => typeof predicate>(() => predicate);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(1), limitOwned }]);
    const user = { id: 1, roles: ['A'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    expect(permit.limitOwn()).toBe(predicate);
    expect(limitOwned).toHaveBeenCalledTimes(1);
    expect(limitOwned).toHaveBeenCalledWith({ user });
    expect(predicate).not.toHaveBeenCalled();
  });

  it('limitOwn with several limitOwned hooks and no limitOwnReduce throws a usage error saying to configure limitOwnReduce', async () => {
    const { permissions } = setup([
      { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), limitOwned: () => 'a' },
      { roles: 'B', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), limitOwned: () => 'b' },
    ]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A', 'B'] }, resource: 'doc', action: 'read' });
    expect(() => permit.limitOwn()).toThrow(PermissionsUsageError);
    expect(() => permit.limitOwn()).toThrow(/limitOwnReduce/);
  });

  it('limitOwn throws a usage error when a group has listOwned only (no limitOwned)', async () => {
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), listOwned: () => [1] }]);
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(() => permit.limitOwn()).toThrow(PermissionsUsageError);
  });
  limitOwnReduceCases();
});

function limitOwnReduceCases(): void {
  it('limitOwnReduce receives { user, limitOwneds } (the bound limitOwned hooks) and limitOwn returns its result', async () => {
    const ownership = {
      prefix: 'company',
      isInCompany(): boolean {
        return false;
      },
      limitToCompany({ user }: UserArgs): string {
        return `${this.prefix}:${String(user.id)}`;
      },
    };
    const limitToCreator = jest.fn(({ user }: UserArgs) => `creator:${String(user.id)}`);
    const limitOwnReduce = jest.fn(({ user, limitOwneds }: { user: User<unknown>; limitOwneds: readonly ((args: UserArgs) => unknown)[] }) => ({
      or: limitOwneds.map((limitOwned) => limitOwned({ user })),
    }));
    const { permissions } = setup(
      [
        { roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), limitOwned: limitToCreator },
        { roles: 'B', resource: 'doc', grant: ['read:own'], isOwner: 'isInCompany', limitOwned: 'limitToCompany' },
      ],
      { ownership, limitOwnReduce },
    );
    const user = { id: 4, roles: ['A', 'B'] };
    const permit = await permissions.grantPermit({ user, resource: 'doc', action: 'read' });
    expect(permit.limitOwn()).toEqual({ or: ['creator:4', 'company:4'] });
    expect(limitOwnReduce).toHaveBeenCalledTimes(1);
    const [args] = limitOwnReduce.mock.calls[0]!;
    expect(Object.keys(args).sort()).toEqual(['limitOwneds', 'user']);
    expect(args.user).toBe(user);
    expect(args.limitOwneds).toHaveLength(2);
    expect(limitToCreator).toHaveBeenCalledWith({ user });
  });

  it('a limitOwned method that answers with a promise is refused, naming it: limitOwn(), and grantPermit of a record asked through ownedAmong', async () => {
    const limitToCreator = async ({ user }: UserArgs) => Promise.resolve((doc: { creatorId: number }) => doc.creatorId === user.id);
    const ownedAmong = jest.fn(() => [1]);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], limitOwned: limitToCreator }], { ownedAmong: { doc: ownedAmong } });
    const message =
      'Ownership hook limitToCreator returned a promise, not a filter; access is refused. A filter describes records and waits for nothing: ' +
      'return it as it is (not from an async method).';
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(() => permit.limitOwn()).toThrow(new PermissionsHookError('limitToCreator', message));
    await expect(permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read', resourceId: 1 })).rejects.toThrow(message);
    expect(ownedAmong).not.toHaveBeenCalled();
  });

  it('a limitOwnReduce that answers with a promise is refused with a usage error', async () => {
    const limitOwnReduce = async ({ limitOwneds }: { limitOwneds: readonly unknown[] }) => Promise.resolve(limitOwneds);
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), limitOwned: () => 'only' }], { limitOwnReduce });
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(() => permit.limitOwn()).toThrow(
      new PermissionsUsageError(
        'limitOwn(): limitOwnReduce returned a promise, not a filter. Return the combined filter as it is (not from an async function).',
      ),
    );
  });

  it('limitOwnReduce is used even with a single limitOwned hook', async () => {
    const limitOwnReduce = jest.fn(({ user, limitOwneds }: { user: User<unknown>; limitOwneds: readonly ((args: UserArgs) => unknown)[] }) =>
      limitOwneds.map((limit) => limit({ user })),
    );
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: isOwnerOf(), limitOwned: () => 'only' }], { limitOwnReduce });
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(permit.limitOwn()).toEqual(['only']);
    expect(limitOwnReduce).toHaveBeenCalledTimes(1);
  });

  it('limitOwnReduce gets hooks named by strings bound to the ownership service', async () => {
    class Ownership {
      private readonly field = 'creatorId';
      isCreator(): boolean {
        return false;
      }
      limitToCreator({ user }: UserArgs) {
        return { [this.field]: user.id };
      }
    }
    const { permissions } = setup([{ roles: 'A', resource: 'doc', grant: ['read:own'], isOwner: 'isCreator', limitOwned: 'limitToCreator' }], {
      ownership: new Ownership(),
      limitOwnReduce: ({ user, limitOwneds }) => limitOwneds.map((limit) => limit({ user })),
    });
    const permit = await permissions.grantPermit({ user: { id: 6, roles: ['A'] }, resource: 'doc', action: 'read' });
    expect(permit.limitOwn()).toEqual([{ creatorId: 6 }]);
  });
}
