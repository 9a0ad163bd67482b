/**
 * The loaded policy makes a resource when a decision first asks about it (loading a policy of many resources makes
 * none), and a tenant's view of it holds only what its tenant used: a resource is made in the view the first
 * time a decision asks about it (so a view of a policy with many resources costs what its tenant asks), a name the
 * policy does not have — `__proto__` and `constructor` included — makes nothing, and the policy's index and a view
 * have the same shape.
 */
import { describe, expect, it } from '@jest/globals';
import { CacheBudget } from '../../runtime/core/common/bounded-cache.js';
import { lookupCombination } from '../../runtime/core/decision/role-lookup.js';
import { OnceWarnings } from '../../runtime/core/decision/once-warnings.js';
import { Permissions } from '../../runtime/permissions/index.js';
import { checkTenantRoles } from '../../runtime/core/table-building/tenant-roles.js';
import { loadGrantTables } from '../../runtime/core/tables/table-loader.js';
import { overlayTenantRoles } from '../../runtime/core/tables/tenant-overlay.js';

const tables = new Permissions({ logger: { warn: () => undefined } })
  .addPermissions([
    { roles: ['EMPLOYEE'], resource: 'document', grant: ['read:any'] },
    { roles: ['EMPLOYEE'], resource: 'invoice', grant: ['read:any'] },
    { roles: ['EMPLOYEE'], resource: 'report', grant: ['read:any'] },
  ])
  .build().tables;

describe('a tenant’s view of the policy', () => {
  it('makes a resource when a decision first asks about it, and nothing for a name the policy does not have', () => {
    const base = loadGrantTables(tables, (ref) => ({ name: ref.name, call: () => undefined }));
    const roles = checkTenantRoles(tables, 'acme', { definitions: [{ roles: ['AUDITOR'], resource: 'invoice', grant: ['read:any'] }] });
    const view = overlayTenantRoles(base, roles.tables, new CacheBudget(1024 * 1024));
    expect(Object.keys(base)).toEqual(Object.keys(view));
    expect([Object.keys(base.resourceByName), Object.keys(view.resourceByName)]).toEqual([[], []]);
    const ask = (name: string, role: string) => {
      const loaded = view.resourceByName[name] ?? view.resourceOnFirstUse(name);
      return lookupCombination(view, [role], loaded, name, 'read', new OnceWarnings(false, { warn: () => undefined })).anyGranted;
    };
    expect([ask('invoice', 'AUDITOR'), ask('invoice', 'EMPLOYEE'), ask('document', 'AUDITOR')]).toEqual([true, true, false]);
    expect(Object.keys(view.resourceByName).sort()).toEqual(['document', 'invoice']);
    for (const name of ['__proto__', 'constructor', 'missing'])
      expect([view.resourceOnFirstUse(name), base.resourceOnFirstUse(name)]).toEqual([undefined, undefined]);
    expect(Object.keys(view.resourceByName).sort()).toEqual(['document', 'invoice']);
    // The view's resources are its own: the policy's are not changed by what the tenant's roles add. The policy made
    // the two the view asked it for, and no other.
    expect(base.resourceByName['invoice']).not.toBe(view.resourceByName['invoice']);
    expect(Object.keys(base.resourceByName).sort()).toEqual(['document', 'invoice']);
  });

  it('the policy’s own index makes a resource when first asked, once', () => {
    const base = loadGrantTables(tables, (ref) => ({ name: ref.name, call: () => undefined }));
    const first = base.resourceOnFirstUse('report');
    expect([first?.name, first?.index, Object.keys(base.resourceByName)]).toEqual(['report', tables.resources.indexOf('report'), ['report']]);
    expect(base.resourceByName['report']).toBe(first);
    expect(lookupCombination(base, ['EMPLOYEE'], first, 'report', 'read', new OnceWarnings(false, { warn: () => undefined })).anyGranted).toBe(true);
  });

  it('the policy’s own index puts a role in its dictionary when a decision first names it, and every role before a tenant’s view reads them', () => {
    const base = loadGrantTables(tables, (ref) => ({ name: ref.name, call: () => undefined }));
    const warnings = new OnceWarnings(false, { warn: () => undefined });
    expect(Object.keys(base.roleIds)).toEqual([]);
    const report = base.resourceOnFirstUse('report');
    expect(lookupCombination(base, ['EMPLOYEE'], report, 'report', 'read', warnings).anyGranted).toBe(true);
    for (const name of ['__proto__', 'constructor', 'GHOST']) expect(base.roleOnFirstUse(name)).toBeUndefined();
    expect(Object.keys(base.roleIds)).toEqual(['EMPLOYEE']);
    const roles = checkTenantRoles(tables, 'acme', { definitions: [{ roles: ['AUDITOR'], resource: 'invoice', grant: ['read:any'] }] });
    const view = overlayTenantRoles(base, roles.tables, new CacheBudget(1024 * 1024));
    // The view reads the policy's roles through its prototype: they are all there before it is made.
    expect(Object.keys(base.roleIds).sort()).toEqual([...tables.roles].sort());
    expect([view.roleIds['AUDITOR'], view.roleIds['EMPLOYEE'], view.roleOnFirstUse('GHOST')]).toEqual([
      tables.roles.length,
      tables.roles.indexOf('EMPLOYEE'),
      undefined,
    ]);
  });
});
