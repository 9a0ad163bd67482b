import { describe, expect, it, jest } from '@jest/globals';
import { Permissions, PermissionsUsageError, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { collectingLogger } from './helpers.js';

const isOwner = jest.fn(({ resourceId }: { resourceId: number }) => resourceId === 1);
const definitions: PermissionDefinition[] = [
  { roles: 'EMPLOYEE', resource: 'document', possession: 'own', grant: ['read'], isOwner, listOwned: () => [1] },
  { roles: 'ADMIN', resource: 'document', grant: ['read:any'] },
];

function build(): Permissions {
  return new Permissions({ logger: collectingLogger().logger }).addPermissions(definitions).build();
}

describe('grantPermitSync: the decision without ownership hooks, synchronously', () => {
  it('answers a query without resourceId exactly like grantPermit', async () => {
    const permissions = build();
    for (const roles of [['EMPLOYEE'], ['ADMIN'], ['NOBODY']]) {
      const sync = permissions.grantPermitSync({ user: { id: 1, roles }, resource: 'document', action: 'read' });
      const async = await permissions.grantPermit({ user: { id: 1, roles }, resource: 'document', action: 'read' });
      expect([sync.granted, sync.anyGranted, sync.ownGranted, sync.anyAttributes]).toEqual([
        async.granted,
        async.anyGranted,
        async.ownGranted,
        async.anyAttributes,
      ]);
    }
  });

  it('answers a query with resourceId when any-access decides it, calling no hook', () => {
    isOwner.mockClear();
    const permit = build().grantPermitSync({ user: { id: 9, roles: ['ADMIN'] }, resource: 'document', action: 'read', resourceId: 5 });
    expect([permit.granted, permit.anyGranted, permit.resourceId]).toEqual([true, true, 5]);
    expect(isOwner).not.toHaveBeenCalled();
  });

  it('refuses, with a usage error, a query whose answer depends on isOwn', () => {
    const permissions = build();
    expect(() => permissions.grantPermitSync({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 1 })).toThrow(
      PermissionsUsageError,
    );
  });

  it('validates the query like grantPermit', () => {
    const permissions = build();
    expect(() => permissions.grantPermitSync({ user: { id: 1, roles: 'EMPLOYEE' as never }, resource: 'document', action: 'read' })).toThrow(
      PermissionsUsageError,
    );
    expect(() => new Permissions().grantPermitSync({ user: { id: 1, roles: [] }, resource: 'document', action: 'read' })).toThrow(/build\(\) first/);
  });
});

describe('pickSync: pick without waiting when no ownership hook is needed', () => {
  const item = { id: 2, title: 't', secret: 's' };
  const permissions = new Permissions({ logger: collectingLogger().logger })
    .addPermissions([
      { roles: 'READER', resource: 'document', grant: { 'read:any': ['*', '!secret'] } },
      { roles: 'OWNER', resource: 'document', possession: 'own', grant: ['read'], isOwner: () => true, listOwned: () => [2] },
    ])
    .build();

  it('picks the any attributes exactly like pick', async () => {
    const permit = permissions.grantPermitSync({ user: { id: 1, roles: ['READER'] }, resource: 'document', action: 'read' });
    expect(permit.pickSync(item)).toEqual({ id: 2, title: 't' });
    expect(permit.pickSync(item)).toEqual(await permit.pick(item));
  });

  it('gives {} when nothing is granted, and refuses when ownership decides the attributes', () => {
    expect(permissions.grantPermitSync({ user: { id: 1, roles: ['NOBODY'] }, resource: 'document', action: 'read' }).pickSync(item)).toEqual({});
    const own = permissions.grantPermitSync({ user: { id: 1, roles: ['OWNER'] }, resource: 'document', action: 'read' });
    expect(() => own.pickSync(item)).toThrow(PermissionsUsageError);
    expect(() => own.pickSync(null as never)).toThrow(PermissionsUsageError);
  });
});
