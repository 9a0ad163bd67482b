/**
 * Wrong usage is a PermissionsUsageError (code PERMISSIONS_USAGE): adding after build, granting
 * before build, invalid users, invalid resource ids and invalid items. Unknown roles, resources and
 * actions are not granted and warned about once; `strict: true` turns them into usage errors.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, PermissionsError, PermissionsUsageError, type GrantQuery, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { collectingLogger, testDoc } from './helpers.js';

const definitions: PermissionDefinition[] = [
  { roles: 'READER', resource: 'doc', grant: { read: ['title'] } },
  { roles: 'OWNER', resource: 'doc', grant: ['read:own'], isOwner: ({ resourceId }) => resourceId === 1, limitOwned: () => 'mine' },
];

function setup(strict = false) {
  const { warnings, logger } = collectingLogger();
  const permissions = new Permissions({ logger, strict });
  permissions.addPermissions(definitions);
  permissions.build();
  return { permissions, warnings };
}

const reader = { id: 1, roles: ['READER'] };

describe('usage errors', () => {
  it('usage error: addPermissions after build() throws PermissionsUsageError', () => {
    const { permissions } = setup();
    expect(() => permissions.addPermissions([{ roles: 'LATE', resource: 'doc', grant: ['read'] }])).toThrow(PermissionsUsageError);
    try {
      permissions.addPermissions([]);
    } catch (error) {
      expect(error).toBeInstanceOf(PermissionsError);
      expect((error as PermissionsError).code).toBe('PERMISSIONS_USAGE');
    }
  });

  it('usage error: grantPermit before build() rejects with PermissionsUsageError (code PERMISSIONS_USAGE)', async () => {
    const permissions = new Permissions({ logger: collectingLogger().logger });
    permissions.addPermissions(definitions);
    await expect(permissions.grantPermit({ user: reader, resource: 'doc', action: 'read' })).rejects.toThrow(PermissionsUsageError);
    await expect(permissions.grantPermit({ user: reader, resource: 'doc', action: 'read' })).rejects.toMatchObject({ code: 'PERMISSIONS_USAGE' });
  });

  const invalidUsers: [label: string, user: unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['a string', 'alice'],
    ['an array', [1, ['READER']]],
    ['an object without id', { roles: ['READER'] }],
    ['an id that is an object', { id: { value: 1 }, roles: ['READER'] }],
    ['an id that is a boolean', { id: true, roles: ['READER'] }],
    ['an object without roles', { id: 1 }],
    ['roles that are a string', { id: 1, roles: 'READER' }],
    ['roles with a non-string', { id: 1, roles: ['READER', 7] }],
  ];
  for (const [label, user] of invalidUsers) {
    it(`usage error: an invalid user (${label}) rejects grantPermit with PermissionsUsageError`, async () => {
      const { permissions } = setup();
      await expect(permissions.grantPermit({ user, resource: 'doc', action: 'read' } as unknown as GrantQuery)).rejects.toThrow(PermissionsUsageError);
    });
  }

  it('usage: user ids may be strings, numbers or bigints', async () => {
    const { permissions } = setup();
    for (const id of ['u-1', 1, 0, 10n]) {
      const permit = await permissions.grantPermit({ user: { id, roles: ['READER'] }, resource: 'doc', action: 'read' });
      expect(permit.granted).toBe(true);
    }
  });

  const invalidIds: [label: string, resourceId: unknown][] = [
    ['an object', { id: 1 }],
    ['an array', [1]],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a boolean', true],
    ['a function', () => 1],
  ];
  for (const [label, resourceId] of invalidIds) {
    it(`usage error: an invalid resourceId (${label}) rejects grantPermit with PermissionsUsageError`, async () => {
      const { permissions } = setup();
      await expect(permissions.grantPermit({ user: reader, resource: 'doc', action: 'read', resourceId })).rejects.toThrow(PermissionsUsageError);
    });
  }

  it('usage: resourceIds may be strings, finite numbers (0 included) or bigints', async () => {
    const { permissions } = setup();
    for (const resourceId of ['doc-1', 0, -1, 1.5, 5n]) {
      const permit = await permissions.grantPermit({ user: reader, resource: 'doc', action: 'read', resourceId });
      expect(permit.granted).toBe(true);
    }
  });

  it('usage error: pick of null, an array or a primitive rejects with PermissionsUsageError', async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: reader, resource: 'doc', action: 'read' });
    for (const item of [null, undefined, [testDoc(1)], 'doc', 1]) {
      await expect(permit.pick(item as object)).rejects.toThrow(PermissionsUsageError);
    }
  });

  it('usage error: filterPick of something that is not an array rejects with PermissionsUsageError', async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: reader, resource: 'doc', action: 'read' });
    for (const items of [null, testDoc(1), 'docs', new Set([testDoc(1)])]) {
      await expect(permit.filterPick(items as unknown as object[])).rejects.toThrow(PermissionsUsageError);
    }
  });
});

describe('a user whose roles answer differently when read again (a getter, a proxy)', () => {
  const SUPER = { toString: () => 'OWNER' };
  it('user.roles is read once: a getter that answers a checked list first and something else later decides with the checked list', async () => {
    const { permissions } = setup();
    let reads = 0;
    const user = {
      id: 1,
      get roles(): unknown[] {
        return reads++ === 0 ? ['READER'] : [SUPER];
      },
    };
    const query = { user, resource: 'doc', action: 'read' } as unknown as GrantQuery;
    expect([(await permissions.grantPermit(query)).anyAttributes, reads]).toEqual([['title'], 1]);
  });

  it.each([1, 2])('an entry that is a string when checked and an object when looked up (%i roles) is refused, never coerced to a name', async (count) => {
    const { permissions } = setup();
    let reads = 0;
    const target = count === 1 ? ['READER'] : ['READER', 'READER'];
    const roles = new Proxy(target, {
      get: (list, key, receiver): unknown => (key === '0' ? (reads++ === 0 ? 'READER' : SUPER) : Reflect.get(list, key, receiver)),
    });
    const query = { user: { id: 1, roles }, resource: 'doc', action: 'read' } as unknown as GrantQuery;
    await expect(permissions.grantPermit(query)).rejects.toThrow(
      new PermissionsUsageError('grantPermit: user.roles[0] must be a role name (string), got object.'),
    );
  });
});

describe('unknown roles, resources and actions', () => {
  it('unknown role: ignored (the known roles still count) and warned about once', async () => {
    const { permissions, warnings } = setup();
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['INTRUDER', 'READER'] }, resource: 'doc', action: 'read' });
    expect([permit.granted, permit.anyGranted, permit.ownGranted, [...permit.anyAttributes]]).toEqual([true, true, true, ['title']]);
    const alone = await permissions.grantPermit({ user: { id: 2, roles: ['INTRUDER'] }, resource: 'doc', action: 'read' });
    expect([alone.granted, alone.anyGranted, alone.ownGranted, [...alone.anyAttributes]]).toEqual([false, false, false, []]);
    expect(warnings).toEqual(['typed-permissions: unknown role "INTRUDER": no definition names it; it is ignored.']);
  });

  it('unknown role near a known one: the warning names the role meant', async () => {
    const { permissions, warnings } = setup();
    await permissions.grantPermit({ user: { id: 1, roles: ['REDAER'] }, resource: 'doc', action: 'read' });
    await permissions.grantPermit({ user: { id: 1, roles: ['reader'] }, resource: 'doc', action: 'read' });
    expect(warnings).toEqual([
      'typed-permissions: unknown role "REDAER": no definition names it; it is ignored. Did you mean "READER"?',
      'typed-permissions: unknown role "reader": no definition names it; it is ignored. Did you mean "READER"?',
    ]);
  });

  it('unknown resource: not granted, warned about once', async () => {
    const { permissions, warnings } = setup();
    const permit = await permissions.grantPermit({ user: reader, resource: 'invoice', action: 'read' });
    expect([permit.granted, permit.anyGranted, permit.ownGranted, [...permit.anyAttributes]]).toEqual([false, false, false, []]);
    await permissions.grantPermit({ user: reader, resource: 'invoice', action: 'read' });
    expect(warnings).toEqual(['typed-permissions: unknown resource "invoice": no definition names it; nothing is granted.']);
  });

  it('unknown action: not granted, warned about once', async () => {
    const { permissions, warnings } = setup();
    const permit = await permissions.grantPermit({ user: reader, resource: 'doc', action: 'publish' });
    expect([permit.granted, permit.anyGranted, permit.ownGranted, [...permit.anyAttributes]]).toEqual([false, false, false, []]);
    await permissions.grantPermit({ user: reader, resource: 'doc', action: 'publish' });
    await permissions.grantPermit({ user: reader, resource: 'dcc', action: 'raed' });
    expect(warnings).toEqual([
      'typed-permissions: unknown action "publish": no definition grants it on any resource; nothing is granted.',
      'typed-permissions: unknown resource "dcc": no definition names it; nothing is granted. Did you mean "doc"?',
    ]);
  });

  it('unknown names: a not-granted permit picks nothing and filters everything out', async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['INTRUDER'] }, resource: 'doc', action: 'read' });
    expect(await permit.pick(testDoc(1))).toEqual({});
    expect(await permit.filterPick([testDoc(1), testDoc(2)])).toEqual([]);
    expect(await permit.isOwn(1)).toBe(false);
  });

  it('strict: an unknown role, resource or action rejects grantPermit with PermissionsUsageError instead of warning', async () => {
    const { permissions, warnings } = setup(true);
    const refusal = (message: string) => new PermissionsUsageError(message);
    await expect(permissions.grantPermit({ user: { id: 1, roles: ['INTRUDER', 'READER'] }, resource: 'doc', action: 'read' })).rejects.toThrow(
      refusal('unknown role "INTRUDER": no definition names it; strict mode refuses the query.'),
    );
    await expect(permissions.grantPermit({ user: { id: 1, roles: ['REDAER'] }, resource: 'doc', action: 'read' })).rejects.toThrow(
      refusal('unknown role "REDAER": no definition names it; strict mode refuses the query. Did you mean "READER"?'),
    );
    await expect(permissions.grantPermit({ user: reader, resource: 'invoice', action: 'read' })).rejects.toThrow(
      refusal('unknown resource "invoice": no definition names it; strict mode refuses the query.'),
    );
    await expect(permissions.grantPermit({ user: reader, resource: 'doc', action: 'raed' })).rejects.toThrow(
      refusal('unknown action "raed": no definition grants it on any resource; strict mode refuses the query. Did you mean "read"?'),
    );
    expect((await permissions.grantPermit({ user: reader, resource: 'doc', action: 'read' })).granted).toBe(true);
    expect(warnings).toEqual([]);
  });
});
