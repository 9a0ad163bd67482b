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
import { MAX_SHARED_PLAN_LENGTH, MAX_SHARED_PLANS, overlayTenantRoles } from '../../runtime/core/tables/tenant-overlay.js';
import { compileAttributePatterns, planToJson, planToPatterns } from '../../runtime/core/projection/attribute-plan.js';

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
    // Asked again, it gives the one it made.
    expect(base.resourceOnFirstUse('report')).toBe(first);
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

  it('tenants’ views of one policy share the plan of an attribute list, and still pick what each tenant grants', () => {
    const base = loadGrantTables(tables, (ref) => ({ name: ref.name, call: () => undefined }));
    const warnings = new OnceWarnings(false, { warn: () => undefined });
    const viewOf = (tenant: string, attributes: string[]) =>
      overlayTenantRoles(
        base,
        checkTenantRoles(tables, tenant, { definitions: [{ roles: ['AUDITOR'], resource: 'invoice', grant: { 'read:any': attributes } }] }).tables,
        new CacheBudget(1024 * 1024),
      );
    const planOf = (view: ReturnType<typeof viewOf>) =>
      lookupCombination(view, ['AUDITOR'], view.resourceByName['invoice'] ?? view.resourceOnFirstUse('invoice'), 'invoice', 'read', warnings).anyPlan;
    const [acme, globex, initech] = [viewOf('acme', ['*', '!total']), viewOf('globex', ['*', '!total']), viewOf('initech', ['number'])];
    expect(planOf(acme)).toBe(planOf(globex));
    expect(planOf(acme)).not.toBe(planOf(initech));
    expect([planToPatterns(planOf(acme)), planToPatterns(planOf(initech))]).toEqual([['*', '!total'], ['number']]);
  });

  it(`shares at most ${MAX_SHARED_PLANS} plans per policy, each at most ${MAX_SHARED_PLAN_LENGTH} characters as JSON; past that, a view's own`, () => {
    const base = loadGrantTables(tables, (ref) => ({ name: ref.name, call: () => undefined }));
    const warnings = new OnceWarnings(false, { warn: () => undefined });
    const planOf = (tenant: string, attributes: string[]) => {
      const roles = checkTenantRoles(tables, tenant, { definitions: [{ roles: ['AUDITOR'], resource: 'invoice', grant: { 'read:any': attributes } }] });
      const view = overlayTenantRoles(base, roles.tables, new CacheBudget(1024 * 1024));
      return lookupCombination(view, ['AUDITOR'], view.resourceOnFirstUse('invoice'), 'invoice', 'read', warnings).anyPlan;
    };
    // Attribute lists whose plans, as JSON, are `length` characters: nine names of 100 characters and one to fill.
    const ofLength = (length: number, i: number) => {
      const list = [...Array.from({ length: 9 }, (_, k) => `a${k}${String(i).padStart(98, '0')}`), `z${'0'.repeat(length - 1006)}`];
      expect(JSON.stringify(planToJson(compileAttributePatterns(list))).length).toBe(length);
      return list;
    };
    expect(planOf('t1', ofLength(MAX_SHARED_PLAN_LENGTH, 1))).toBe(planOf('t2', ofLength(MAX_SHARED_PLAN_LENGTH, 1)));
    expect(planOf('t3', ofLength(MAX_SHARED_PLAN_LENGTH + 1, 1))).not.toBe(planOf('t4', ofLength(MAX_SHARED_PLAN_LENGTH + 1, 1)));
    const named = (i: number) => `a${String(i).padStart(7, '0')}`;
    // One plan is shared already: the views below share 1,023 more, the limit; the next is its view's own.
    for (let i = 2; i <= MAX_SHARED_PLANS; i++) planOf(`u${i}`, [named(i)]);
    expect(planOf('v1', [named(MAX_SHARED_PLANS)])).toBe(planOf('v2', [named(MAX_SHARED_PLANS)]));
    const past = [named(MAX_SHARED_PLANS + 1)];
    expect(planOf('w1', past)).not.toBe(planOf('w2', past));
    expect(planToPatterns(planOf('w3', past))).toEqual(past);
  });
});
