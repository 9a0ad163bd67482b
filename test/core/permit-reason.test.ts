/**
 * `permit.reason` and `permit.reasonSource`: every reason word the engine gives, with the definition that decided,
 * embedded and in tenants (a tenant with custom roles kept, one without); and the words themselves.
 */
import { describe, expect, it } from '@jest/globals';
import { Permissions, PermissionsUsageError, type PermissionDefinition } from 'typed-permissions';
import { isPermitReason, PERMIT_REASONS, reasonOf } from '../../runtime/core/decision/permit-reason.js';
import { AUDITOR, LONGEST_TENANT, tenantEngine } from '../tenants/tenant-fixture.js';

type AppUser = { id: number; roles: string[] };
const DEFINITIONS: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: { read: ['*'], update: ['title'] }, isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['EMPLOYEE'], resource: 'document', grant: { 'list:any': ['id', 'title'] } },
  { roles: ['ADMIN'], resource: 'document', grant: ['*:any'] },
  { roles: ['ADMIN'], resource: 'report', grant: ['read:any'] },
];
const EXTRA: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: { read: ['*'] }, isOwner: 'isCreator', listOwned: 'listCreated' },
];
const employee: AppUser = { id: 1, roles: ['EMPLOYEE'] };

function engine(): Permissions<AppUser> {
  const ownership = {
    isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => user.id === 1 && resourceId === 10,
    listCreated: ({ user }: { user: AppUser }) => (user.id === 1 ? [10] : []),
  };
  return new Permissions<AppUser>({ ownership, resourceIdTypes: { document: 'number' }, logger: { warn: () => undefined } })
    .addPermissions(DEFINITIONS, { source: 'documents.json' })
    .addPermissions(EXTRA, { source: 'extra rules' })
    .build();
}

describe('permit.reason, embedded', () => {
  const permissions = engine();
  const ask = async (user: AppUser, resource: string, action: string, resourceId?: number) => {
    const permit = await permissions.grantPermit({ user, resource, action, ...(resourceId === undefined ? {} : { resourceId }) });
    return [permit.granted, permit.reason, permit.reasonSource];
  };

  it('grants say in which possession, with the first definition (by source, then index) that grants so', async () => {
    expect(await ask({ id: 9, roles: ['ADMIN'] }, 'document', 'read', 11)).toEqual([true, 'granted-any', { source: 'documents.json', index: 2 }]);
    expect(await ask(employee, 'document', 'list')).toEqual([true, 'granted-any', { source: 'documents.json', index: 1 }]);
    // Two definitions grant read as own: 'documents.json' sorts before 'extra rules'.
    expect(await ask(employee, 'document', 'read', 10)).toEqual([true, 'granted-own', { source: 'documents.json', index: 0 }]);
    // No record asked, own granted: granted as own, no hook asked.
    expect(await ask(employee, 'document', 'update')).toEqual([true, 'granted-own', { source: 'documents.json', index: 0 }]);
  });

  it('a record that is not the user’s, where own is granted only: not-owner, with the definition that grants as own', async () => {
    expect(await ask(employee, 'document', 'read', 11)).toEqual([false, 'not-owner', { source: 'documents.json', index: 0 }]);
    // A record that does not exist is "not owned" too: the same word.
    expect(await ask(employee, 'document', 'update', 999)).toEqual([false, 'not-owner', { source: 'documents.json', index: 0 }]);
  });

  it('refusals without a deciding definition: no-grant, unknown-role, unknown-resource, unknown-action', async () => {
    expect(await ask(employee, 'document', 'delete', 10)).toEqual([false, 'no-grant', undefined]);
    expect(await ask(employee, 'report', 'read')).toEqual([false, 'no-grant', undefined]);
    expect(await ask({ id: 2, roles: ['GHOST'] }, 'document', 'read')).toEqual([false, 'unknown-role', undefined]);
    // One known role is enough for the refusal to be about grants, not about roles.
    expect(await ask({ id: 2, roles: ['GHOST', 'EMPLOYEE'] }, 'document', 'delete')).toEqual([false, 'no-grant', undefined]);
    expect(await ask({ id: 2, roles: ['GHOST', 'PHANTOM'] }, 'document', 'delete')).toEqual([false, 'unknown-role', undefined]);
    expect(await ask({ id: 2, roles: [] }, 'document', 'read')).toEqual([false, 'no-grant', undefined]);
    // The resource is checked first, then the action, then the roles.
    expect(await ask({ id: 2, roles: ['GHOST'] }, 'invoice', 'archive')).toEqual([false, 'unknown-resource', undefined]);
    expect(await ask({ id: 2, roles: ['GHOST'] }, 'document', 'archive')).toEqual([false, 'unknown-action', undefined]);
    // Odd names are just unknown names.
    expect(await ask({ id: 2, roles: ['__proto__'] }, 'constructor', 'toString')).toEqual([false, 'unknown-resource', undefined]);
    expect(await ask({ id: 2, roles: ['__proto__', 'constructor'] }, 'document', 'read')).toEqual([false, 'unknown-role', undefined]);
  });

  it('grantPermitSync gives the same words, and a resource that declares its actions still throws for another', () => {
    expect(permissions.grantPermitSync({ user: employee, resource: 'document', action: 'list' }).reason).toBe('granted-any');
    expect(permissions.grantPermitSync({ user: employee, resource: 'document', action: 'delete' }).reason).toBe('no-grant');
    const declaring = new Permissions<AppUser>({ resourceActions: { report: ['read'] }, logger: { warn: () => undefined } })
      .addPermissions([{ roles: ['ADMIN'], resource: 'report', grant: ['read:any'] }])
      .build();
    expect(() => declaring.grantPermitSync({ user: employee, resource: 'report', action: 'write' })).toThrow(PermissionsUsageError);
  });
});

describe('permit.reason in tenants', () => {
  it('a custom role decides in its tenant; elsewhere its absence is unknown-role (tenant kept) or unknown-tenant (no custom roles)', async () => {
    const { permissions } = await tenantEngine();
    const ask = async (tenant: string | undefined, resource: 'decision' | 'document', action: 'list') => {
      const permit = await permissions.grantPermit({ user: AUDITOR, resource, action, ...(tenant === undefined ? {} : { tenant }) });
      return [permit.reason, permit.reasonSource];
    };
    expect(await ask('acme', 'decision', 'list')).toEqual(['granted-any', { source: 'tenant "acme"', index: 0 }]);
    // acme's custom roles are kept: AUDITOR exists there and lists no documents.
    expect(await ask('acme', 'document', 'list')).toEqual(['no-grant', undefined]);
    // No tenant: AUDITOR is no role of the policy.
    expect(await ask(undefined, 'document', 'list')).toEqual(['unknown-role', undefined]);
    // A tenant the source has no custom roles for: AUDITOR could only have been one of them.
    expect(await ask(LONGEST_TENANT, 'document', 'list')).toEqual(['unknown-tenant', undefined]);
    expect(await ask('initech', 'decision', 'list')).toEqual(['unknown-tenant', undefined]);
    // A role of the policy, in a tenant without custom roles: the refusal is about grants.
    const employeeThere = await permissions.grantPermit({ user: { ...AUDITOR, roles: ['EMPLOYEE'] }, resource: 'decision', action: 'list', tenant: 'initech' });
    expect(employeeThere.reason).toBe('no-grant');
  }, 30_000);
});

describe('the reason words', () => {
  it('are eight, each recognised, and the refusal is asked only when nothing grants as own', () => {
    expect(PERMIT_REASONS).toEqual([
      'granted-any',
      'granted-own',
      'not-owner',
      'no-grant',
      'unknown-role',
      'unknown-tenant',
      'unknown-resource',
      'unknown-action',
    ]);
    expect(PERMIT_REASONS.every(isPermitReason)).toBe(true);
    expect([isPermitReason('denied'), isPermitReason(''), isPermitReason(undefined), isPermitReason(['no-grant'])]).toEqual([false, false, false, false]);
    const refusal = () => {
      throw new Error('asked');
    };
    expect([reasonOf(true, true, true, refusal), reasonOf(true, false, true, refusal), reasonOf(false, false, true, refusal)]).toEqual([
      'granted-any',
      'granted-own',
      'not-owner',
    ]);
    expect(reasonOf(false, false, false, () => 'unknown-action')).toBe('unknown-action');
  });
});
