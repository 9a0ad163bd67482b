/**
 * A permit decided in a tenant asks ownership with it: every hook — isOwner, listOwned, limitOwned, the resource's
 * ownedAmong executor, and the filters a `limitOwnReduce` combines — receives `tenant` in its arguments, and a rule's
 * question (isOwn, listOwn, filterPick, limitOwn, ownershipScope) carries it to the rule source. Without a tenant
 * the arguments are exactly what they were: no `tenant` key. Every question goes through `grantPermit({ tenant })`.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { compileModel } from '../../compiler/model/compile-model.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import type { OwnershipQuestion } from '../../runtime/core/ownership-rules/ownership-rule-source.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { permissionsFromTables, type PrecompiledPermissions } from '../../runtime/permissions/precompiled-permissions.js';
import type { PermissionDefinition, User } from '../../runtime/permissions/index.js';
import { fixture } from '../compiler/helpers.js';
import { buildQuietly } from './helpers.js';

/** The engine, asked in `tenant` (undefined: a question without one). */
function askedIn(permissions: PrecompiledPermissions<User<unknown>, unknown>, tenant: string | undefined) {
  return {
    grantPermit: (query: { user: User<unknown>; resource: string; action: string; resourceId?: unknown }) =>
      permissions.grantPermit(tenant === undefined ? query : { ...query, tenant }),
  };
}

describe('hooks of a permit decided in a tenant', () => {
  const calls: unknown[] = [];
  const service = {
    isCreator: (args: object) => (calls.push(['isCreator', args]), true),
    listCreated: (args: object) => (calls.push(['listCreated', args]), [1, 2]),
    limitToCreator: (args: object) => (calls.push(['limitToCreator', args]), 'creator filter'),
    limitToTeam: (args: object) => (calls.push(['limitToTeam', args]), 'team filter'),
    ownedDocs: (args: { resourceIds: readonly unknown[] }) => (calls.push(['ownedDocs', args]), args.resourceIds),
  };
  const definitions: PermissionDefinition[] = [
    { roles: 'LISTER', resource: 'doc', grant: ['read:own'], isOwner: 'isCreator', listOwned: 'listCreated' },
    { roles: 'LIMITER', resource: 'doc', grant: ['read:own'], limitOwned: 'limitToCreator' },
    { roles: 'TEAM', resource: 'doc', grant: ['read:own'], limitOwned: 'limitToTeam' },
  ];
  const user = (role: string) => ({ id: 7, roles: [role] });

  it('isOwner, listOwned, limitOwned and ownedAmong receive { user, tenant, … } in a tenant, and no tenant key without one', async () => {
    const { permissions } = buildQuietly(definitions, { ownership: service, ownedAmong: { doc: 'ownedDocs' } });
    for (const tenant of ['acme', undefined]) {
      calls.length = 0;
      const snapshot = askedIn(permissions, tenant);
      const lister = await snapshot.grantPermit({ user: user('LISTER'), resource: 'doc', action: 'read', resourceId: 3 });
      expect(await lister.listOwn()).toEqual([1, 2]);
      const limiter = await snapshot.grantPermit({ user: user('LIMITER'), resource: 'doc', action: 'read', resourceId: 4 });
      expect(limiter.limitOwn()).toBe('creator filter');
      const withTenant = tenant === undefined ? {} : { tenant };
      expect(calls).toEqual([
        ['isCreator', { user: user('LISTER'), ...withTenant, resourceId: 3 }],
        ['listCreated', { user: user('LISTER'), ...withTenant }],
        ['limitToCreator', { user: user('LIMITER'), ...withTenant }],
        ['ownedDocs', { user: user('LIMITER'), ...withTenant, filter: 'creator filter', resourceIds: [4] }],
        ['limitToCreator', { user: user('LIMITER'), ...withTenant }],
      ]);
      expect(calls.every((call) => Object.hasOwn((call as [string, object])[1], 'tenant') === (tenant !== undefined))).toBe(true);
    }
  });

  it('limitOwnReduce receives the tenant, and the filters it calls with { user } receive it too', async () => {
    const reduced: unknown[] = [];
    const { permissions } = buildQuietly(definitions, {
      ownership: service,
      ownedAmong: { doc: 'ownedDocs' },
      limitOwnReduce: (args) => {
        reduced.push(Object.keys(args), args.tenant);
        return args.limitOwneds.map((limitOwned) => limitOwned({ user: args.user }) as string).join(' or ');
      },
    });
    calls.length = 0;
    const permit = await askedIn(permissions, 'acme').grantPermit({ user: { id: 7, roles: ['LIMITER', 'TEAM'] }, resource: 'doc', action: 'read' });
    expect(permit.limitOwn()).toBe('creator filter or team filter');
    expect(reduced).toEqual([['user', 'tenant', 'limitOwneds'], 'acme']);
    expect(calls).toEqual([
      ['limitToCreator', { user: { id: 7, roles: ['LIMITER', 'TEAM'] }, tenant: 'acme' }],
      ['limitToTeam', { user: { id: 7, roles: ['LIMITER', 'TEAM'] }, tenant: 'acme' }],
    ]);
  });
});

describe('rules of a permit decided in a tenant', () => {
  const USERS = [
    { id: 1, companyId: 10 },
    { id: 2, companyId: 10 },
    { id: 3, companyId: 20 },
  ];
  const DOCUMENTS = [
    { id: 100, title: 'a', confidential: 'x', creatorId: 1 },
    { id: 101, title: 'b', confidential: 'y', creatorId: 2 },
    { id: 102, title: 'c', confidential: 'z', creatorId: 3 },
    { id: 103, title: 'd', confidential: 'w', creatorId: null },
  ];
  const employee = { id: 1, roles: ['EMPLOYEE'], companyId: 10, managedUserIds: [] };
  let tables: GrantTables;

  beforeAll(() => {
    const compiled = compileModel(fixture('ownership-rules'));
    if (!compiled.ok) throw new Error(`the ownership-rules fixture does not compile: ${JSON.stringify(compiled.problems)}`);
    // The EMPLOYEE's rule (fixture: "owner": "creator"), made "the creator works for the tenant asked in", compared as a number.
    const copy = JSON.parse(JSON.stringify(compiled.model.tables)) as GrantTables;
    const rule = (copy.ownershipRules?.rules as unknown as Record<string, unknown>[]).find((one) => one['name'] === 'creator') as Record<string, unknown>;
    rule['condition'] = { attribute: 'creator.companyId', equals: { tenant: 'id' } };
    rule['tenantIdType'] = 'number';
    tables = copy;
  }, 30_000);

  it('isOwn, listOwn, limitOwn and ownershipScope ask the rule source in the tenant; no tenant, or an odd id, owns nothing', async () => {
    const asked: (readonly [kind: string, tenant: string | undefined])[] = [];
    const records = memoryOwnership({ document: DOCUMENTS, user: USERS });
    const source = {
      filter: (question: OwnershipQuestion) => (asked.push(['filter', question.tenant]), records.filter(question)),
      ownedAmong: (question: OwnershipQuestion, ids: readonly unknown[]) => (asked.push(['ownedAmong', question.tenant]), records.ownedAmong(question, ids)),
      listOwned: (question: OwnershipQuestion) => (asked.push(['listOwned', question.tenant]), records.listOwned(question)),
    };
    const permissions = permissionsFromTables(
      { format: 1, version: 'v', tables },
      { ownershipRules: source, ownership: { isAudited: () => false, listAudited: () => [] } },
    );
    const inTenant = async (tenant: string | undefined) => {
      const snapshot = askedIn(permissions, tenant);
      const one = await snapshot.grantPermit({ user: employee, resource: 'document', action: 'read', resourceId: 101 });
      const list = await snapshot.grantPermit({ user: employee, resource: 'document', action: 'read' });
      return {
        granted: one.granted,
        listed: await list.listOwn(),
        limited: DOCUMENTS.filter(list.limitOwn() as (record: object) => boolean).map((record) => record.id),
        scope: list.ownershipScope().tenant,
      };
    };
    expect(await inTenant('10')).toEqual({ granted: true, listed: [100, 101], limited: [100, 101], scope: '10' });
    expect(await inTenant('20')).toEqual({ granted: false, listed: [102], limited: [102], scope: '20' });
    expect(await inTenant(undefined)).toEqual({ granted: false, listed: [], limited: [], scope: undefined });
    expect(await inTenant('010')).toEqual({ granted: false, listed: [], limited: [], scope: '010' });
    expect(asked.filter(([kind]) => kind === 'ownedAmong')).toEqual([
      ['ownedAmong', '10'],
      ['ownedAmong', '20'],
      ['ownedAmong', undefined],
      ['ownedAmong', '010'],
    ]);
  });
});
