/**
 * `client.reason(action, resource, { owned })`: the server permit's word for what a slice can tell — granted as any
 * or as own, not the owner, no grant, and (from the slice's `refusal`) every role unknown or a tenant without custom
 * roles. A slice lists granted actions only, so an unknown resource or action is 'no-grant' there.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, type PermissionDefinition } from 'typed-permissions';
import { createClient, type PermissionSlice } from '../../runtime/client/index.js';
import type { TenantRolesSource } from '../../runtime/live/tenant-roles-source.js';

type AppUser = { id: number; roles: string[] };
const DEFINITIONS: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: { read: ['*'] }, isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['EMPLOYEE'], resource: 'document', grant: { 'list:any': ['id'] } },
];
const source: TenantRolesSource = {
  description: 'tenant roles in memory',
  read: (tenant) =>
    Promise.resolve(
      tenant === 'acme' ? { tenant, sequence: 1, document: { definitions: [{ roles: ['AUDITOR'], resource: 'document', grant: ['list:any'] }] } } : undefined,
    ),
};

async function engine() {
  const ownership = { isCreator: () => false, listCreated: () => [] };
  const permissions = new Permissions<AppUser>({ ownership, logger: { warn: () => undefined } }).addPermissions(DEFINITIONS).build();
  await permissions.followTenantRoles(source);
  return permissions;
}

/** The slice as the browser gets it: JSON. */
const overTheWire = (slice: PermissionSlice): PermissionSlice => JSON.parse(JSON.stringify(slice)) as PermissionSlice;

describe('client.reason', () => {
  it('gives the permit’s word for grants, not-owner and no-grant', async () => {
    const permissions = await engine();
    const client = createClient(overTheWire(permissions.sliceFor({ id: 1, roles: ['EMPLOYEE'] })));
    expect(client.reason('list', 'document')).toBe('granted-any');
    expect(client.reason('read', 'document')).toBe('granted-own');
    expect(client.reason('read', 'document', { owned: true })).toBe('granted-own');
    expect(client.reason('read', 'document', { owned: [0] })).toBe('granted-own');
    expect(client.reason('read', 'document', { owned: false })).toBe('not-owner');
    expect(client.reason('read', 'document', { owned: [7] })).toBe('not-owner');
    expect(client.reason('delete', 'document')).toBe('no-grant');
    // What a slice cannot know: an unknown resource or action looks like no grant.
    expect([client.reason('read', 'invoice'), client.reason('archive', 'document')]).toEqual(['no-grant', 'no-grant']);
    // The same words the server's permits give.
    const permit = await permissions.grantPermit({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 3 });
    expect(permit.reason).toBe(client.reason('read', 'document', { owned: false }));
  });

  it('reads unknown-role and unknown-tenant from the slice, which carries them only when every role is unknown', async () => {
    const permissions = await engine();
    const ghost = permissions.sliceFor({ id: 2, roles: ['GHOST', 'PHANTOM'] });
    expect(ghost.refusal).toBe('unknown-role');
    expect(createClient(overTheWire(ghost)).reason('list', 'document')).toBe('unknown-role');
    expect(permissions.sliceFor({ id: 2, roles: ['GHOST', 'EMPLOYEE'] }).refusal).toBeUndefined();
    expect(permissions.sliceFor({ id: 2, roles: [] }).refusal).toBeUndefined();
    const auditor = { id: 3, roles: ['AUDITOR'] };
    await permissions.grantPermit({ user: auditor, resource: 'document', action: 'list', tenant: 'acme' });
    await permissions.grantPermit({ user: auditor, resource: 'document', action: 'list', tenant: 'initech' });
    expect(permissions.sliceFor(auditor, { tenant: 'acme' }).refusal).toBeUndefined();
    expect(createClient(overTheWire(permissions.sliceFor(auditor, { tenant: 'acme' }))).reason('list', 'document')).toBe('granted-any');
    const initech = permissions.sliceFor(auditor, { tenant: 'initech' });
    expect(initech.refusal).toBe('unknown-tenant');
    expect(createClient(overTheWire(initech)).reason('list', 'document')).toBe('unknown-tenant');
  });

  it('refuses a slice whose refusal is no such word', () => {
    const slice = { format: 1, version: 'v', plans: [], grants: [] };
    expect(() => createClient({ ...slice, refusal: 'denied' } as unknown as PermissionSlice)).toThrow(
      'createClient(slice): not a permissions slice (refusal is neither "unknown-role" nor "unknown-tenant"); pass what permissions.sliceFor(user) returned.',
    );
    expect(createClient({ ...slice, refusal: 'unknown-role' } as PermissionSlice).reason('read', 'document')).toBe('unknown-role');
  });
});
