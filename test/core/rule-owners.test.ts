/**
 * Definitions that name an ownership rule (`"owner": "creator"`), compiled and loaded: every ownership answer —
 * isOwn, filterPick (one ownedAmong per group), listOwn, limitOwn, ownershipScope, explain — follows from the rule
 * and the records of the rule source, beside a role whose ownership is hooks; a policy naming rules without a
 * source is refused when the engine is made; tampered rule tables are refused when loaded.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { compileModel } from '../../compiler/model/compile-model.js';
import { PermissionDefinitionError, PermissionsHookError, PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import type { OwnershipQuestion } from '../../runtime/core/ownership-rules/ownership-rule-source.js';
import { OWNERSHIP_SOURCE_LIMITS } from '../../runtime/core/ownership-rules/ownership-ids.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { permissionsFromTables } from '../../runtime/permissions/precompiled-permissions.js';
import { fixture } from '../compiler/helpers.js';

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
const manager = { id: 2, roles: ['MANAGER'], companyId: 10, managedUserIds: [3] };
const admin = { id: 9, roles: ['COMPANY_ADMIN'], companyId: 10, managedUserIds: null };
const auditor = { id: 7, roles: ['AUDITOR', 'EMPLOYEE'], companyId: 20, managedUserIds: [] };

let tables: GrantTables;
beforeAll(() => {
  const compiled = compileModel(fixture('ownership-rules'));
  if (!compiled.ok) throw new Error(`the ownership-rules fixture does not compile: ${JSON.stringify(compiled.problems)}`);
  tables = compiled.model.tables;
}, 30_000);

/** A memory source that counts the questions it is asked. */
function countingSource() {
  const source = memoryOwnership({ document: DOCUMENTS, user: USERS });
  const asked: string[] = [];
  return {
    asked,
    source: {
      filter: (question: OwnershipQuestion) => (asked.push('filter'), source.filter(question)),
      ownedAmong: (question: OwnershipQuestion, ids: readonly unknown[]) => (asked.push(`ownedAmong ${JSON.stringify(ids)}`), source.ownedAmong(question, ids)),
      listOwned: (question: OwnershipQuestion) => (asked.push('listOwned'), source.listOwned(question)),
    },
  };
}

const hooks = { isAudited: ({ resourceId }: { resourceId: unknown }) => resourceId === 101, listAudited: () => [101] };
const engine = (source = countingSource().source) => permissionsFromTables({ format: 1, version: 'v', tables }, { ownershipRules: source, ownership: hooks });

describe('the tables of definitions that name rules', () => {
  it('carry each named rule with its user attributes, the relations and the id types of resources only they reach; a group names its rule', () => {
    expect(tables.ownershipRules).toEqual({
      rules: [
        { resource: 'document', name: 'creator', condition: { attribute: 'creatorId', equals: { user: 'id' } }, userAttributes: expect.any(Object) },
        { resource: 'document', name: 'creatorOrManaged', condition: expect.objectContaining({ any: expect.any(Array) }), userAttributes: expect.any(Object) },
        {
          resource: 'document',
          name: 'sameCompany',
          condition: { attribute: 'creator.companyId', equals: { user: 'companyId' } },
          userAttributes: expect.any(Object),
        },
      ],
      relations: { document: { creator: { resource: 'user', on: 'creatorId' } } },
      // user is reached only through the relation: its declared id type is carried here, as idTypes has no place for it.
      relatedIdTypes: { user: 'number' },
    });
    expect(tables.owners.map((group) => group.rule)).toEqual([0, 1, 2, undefined]);
    expect(tables.hooks.map((hook) => hook.name)).toEqual(['isAudited', 'listAudited']);
  });
});

describe('ownership decided by a rule', () => {
  it('isOwn and the permit of one record follow the rule, through a relation too', async () => {
    const permissions = engine();
    const own = async (user: object, id: number) =>
      (await permissions.grantPermit({ user: user as typeof employee, resource: 'document', action: 'read', resourceId: id })).granted;
    expect(await Promise.all([100, 101, 102, 103].map((id) => own(employee, id)))).toEqual([true, false, false, false]);
    expect(await Promise.all([100, 101, 102, 103].map((id) => own(manager, id)))).toEqual([false, true, true, false]);
    // Same company: the creators of 100 and 101 are in company 10; 103 has no creator.
    expect(await Promise.all([100, 101, 102, 103].map((id) => own(admin, id)))).toEqual([true, true, false, false]);
    // Hooks and a rule in one user's roles: either owns.
    expect(await Promise.all([100, 101, 102, 103].map((id) => own(auditor, id)))).toEqual([false, true, false, false]);
  });

  it('filterPick asks the source once per rule group for every record, and picks what each grant shows', async () => {
    const { source, asked } = countingSource();
    const permit = await engine(source).grantPermit({ user: manager, resource: 'document', action: 'read' });
    expect(await permit.filterPick(DOCUMENTS)).toEqual([DOCUMENTS[1], DOCUMENTS[2]]);
    expect(asked).toEqual(['ownedAmong [100,101,102,103]']);
    const employeeList = await engine().grantPermit({ user: employee, resource: 'document', action: 'list' });
    expect(await employeeList.filterPick(DOCUMENTS)).toEqual([{ id: 100, title: 'a', creatorId: 1 }, { title: 'b' }, { title: 'c' }, { title: 'd' }]);
  });

  it(`filterPick of more records than one ownedAmong call takes (${OWNERSHIP_SOURCE_LIMITS.maxIds}) asks in batches, one after another`, async () => {
    const many = Array.from({ length: 25_001 }, (_, i) => ({ id: 1000 + i, title: `t${i}`, confidential: 'x', creatorId: (i % 3) + 1 }));
    const memory = memoryOwnership({ document: many, user: USERS });
    const sizes: number[] = [];
    let running = 0;
    const source = {
      ...memory,
      ownedAmong: async (question: OwnershipQuestion, ids: readonly unknown[]) => {
        sizes.push(ids.length);
        expect(++running).toBe(1);
        const owned = await memory.ownedAmong(question, ids);
        running--;
        return owned;
      },
    };
    const permit = await engine(source).grantPermit({ user: manager, resource: 'document', action: 'read' });
    // The manager owns what they created (user 2) and what user 3, whom they manage, created.
    expect(await permit.filterPick(many)).toEqual(many.filter((document) => document.creatorId !== 1));
    expect(sizes).toEqual([10_000, 10_000, 5_001]);
    // The in-memory source itself takes no more in one call, as the SQL sources do.
    const ids = many.map((document) => document.id);
    expect(() => memory.ownedAmong(permit.ownershipScope(), ids)).toThrow(
      new PermissionsUsageError('Ownership of 25001 ids was asked in one call; at most 10000 are checked at once. Ask in several calls.'),
    );
    expect(() => memory.ownedAmong(permit.ownershipScope(), [Number.NaN])).toThrow(
      new PermissionsUsageError('Record id at index 0 must be a string, a finite number or a bigint, got NaN.'),
    );
  });

  it('listOwn lists what the rule owns; limitOwn is the source filter, one filter for several rules', async () => {
    const permissions = engine();
    const permit = await permissions.grantPermit({ user: manager, resource: 'document', action: 'read' });
    expect(await permit.listOwn()).toEqual([101, 102]);
    const filter = permit.limitOwn();
    expect(DOCUMENTS.filter(filter).map((d) => d.id)).toEqual([101, 102]);
    const both = await permissions.grantPermit({ user: { ...manager, roles: ['MANAGER', 'COMPANY_ADMIN'] }, resource: 'document', action: 'read' });
    expect(DOCUMENTS.filter(both.limitOwn()).map((d) => d.id)).toEqual([100, 101, 102]);
  });

  it('limitOwn for roles that own nothing is the source filter of no record: no reducer needed', async () => {
    const { source, asked } = countingSource();
    const superAdmin = { ...employee, roles: ['SUPER_ADMIN'] };
    const permit = await engine(source).grantPermit({ user: superAdmin, resource: 'document', action: 'read' });
    expect(DOCUMENTS.filter(permit.limitOwn()).map((d) => d.id)).toEqual([]);
    expect(asked).toEqual(['filter']);
  });

  it('ownershipScope: everything when granted as any, nothing when not granted, the OR of the rules, refused beside hooks', async () => {
    const permissions = engine();
    const scopeOf = async (user: object, action: 'read' | 'update' | 'review') =>
      (await permissions.grantPermit({ user: user as typeof employee, resource: 'document', action })).ownershipScope().scope;
    expect(await scopeOf({ ...employee, roles: ['SUPER_ADMIN'] }, 'read')).toBe('everything');
    expect(await scopeOf(employee, 'update')).toBe('nothing');
    expect(await scopeOf(employee, 'read')).toEqual({ attribute: 'creatorId', equals: { user: 'id' } });
    expect(await scopeOf({ ...employee, roles: ['EMPLOYEE', 'COMPANY_ADMIN'] }, 'read')).toEqual({
      any: [
        { attribute: 'creatorId', equals: { user: 'id' } },
        { attribute: 'creator.companyId', equals: { user: 'companyId' } },
      ],
    });
    const mixed = await permissions.grantPermit({ user: auditor, resource: 'document', action: 'read' });
    expect(() => mixed.ownershipScope()).toThrow(
      new PermissionsUsageError(
        'ownershipScope(): the ownership of read on document for roles ["AUDITOR","EMPLOYEE"] is decided by hooks (isAudited), ' +
          'not only by ownership rules; use limitOwn() for these roles.',
      ),
    );
  });

  it('explain names the rule that owns', async () => {
    const permit = await engine().grantPermit({ user: employee, resource: 'document', action: 'read', resourceId: 100 });
    expect((await permit.explain()).ownership).toEqual({ resourceId: 100, checks: [{ isOwner: 'rule creator', owned: true }] });
  });

  it('a user without an attribute the rule reads is refused, never answered', async () => {
    const user = { id: 1, roles: ['COMPANY_ADMIN'] } as unknown as typeof admin;
    const permit = await engine().grantPermit({ user, resource: 'document', action: 'read' });
    const error = await permit.isOwn(100).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermissionsHookError);
    expect(error).toMatchObject({
      hook: 'rule sameCompany',
      message:
        'Ownership hook rule sameCompany threw: The user has no attribute "companyId", which an ownership rule reads. ' +
        'Give the user object "companyId" (null when it has no value).',
      cause: expect.any(PermissionsUsageError),
    });
  });
});

describe('a policy naming rules', () => {
  it('without a rule source is refused when the engine is made, naming each definition that needs it', () => {
    const make = () => permissionsFromTables({ format: 1, version: 'v', tables }, { ownership: hooks });
    expect(make).toThrow(PermissionDefinitionError);
    expect(() => make()).toThrow(
      new RegExp(
        String.raw`definitions\[0\]\.owner \(document\.permissions\.json\): The definition's ownership rule "creator" of "document" ` +
          'needs the records it reads, and no ownershipRules source is given\\.',
      ),
    );
  });

  it('with tampered rules is not loaded', () => {
    const tampered = (change: (rules: Record<string, unknown>) => void): GrantTables => {
      const copy = JSON.parse(JSON.stringify(tables)) as GrantTables & { ownershipRules: Record<string, unknown> };
      change(copy.ownershipRules);
      return copy;
    };
    const load = (bad: GrantTables) => () =>
      permissionsFromTables({ format: 1, version: 'v', tables: bad }, { ownershipRules: countingSource().source, ownership: hooks });
    expect(load(tampered((rules) => ((rules['rules'] as { condition: unknown }[])[0]!.condition = { attribute: 'x' })))).toThrow(
      /ownershipRules\.rules\[0\]\.condition is not a comparison of an attribute with a user attribute, the tenant id or literals/,
    );
    expect(load(tampered((rules) => ((rules['rules'] as { resource: unknown }[])[0]!.resource = 'user')))).toThrow(
      /ownershipRules\.rules\[0\]\.resource is not a resource of the tables/,
    );
    expect(load(tampered((rules) => (rules['relations'] = [])))).toThrow(/ownershipRules\.relations is not an object/);
    const tenantCondition = (tenant: unknown) => (rules: Record<string, unknown>) =>
      ((rules['rules'] as { condition: unknown }[])[0]!.condition = { attribute: 'creatorId', equals: { tenant } });
    expect(load(tampered(tenantCondition('id')))).not.toThrow();
    expect(load(tampered(tenantCondition('name')))).toThrow(
      /ownershipRules\.rules\[0\]\.condition is not a comparison of an attribute with a user attribute, the tenant id or literals/,
    );
    expect(load(tampered((rules) => ((rules['rules'] as { tenantIdType: unknown }[])[0]!.tenantIdType = 'number')))).not.toThrow();
    expect(load(tampered((rules) => ((rules['rules'] as { tenantIdType: unknown }[])[0]!.tenantIdType = 'integer')))).toThrow(
      /ownershipRules\.rules\[0\]\.tenantIdType is not one of string, number/,
    );
    expect(load(tampered((rules) => (rules['relatedIdTypes'] = { user: 'number', team: 'string' })))).not.toThrow();
    expect(load(tampered((rules) => (rules['relatedIdTypes'] = { user: 'uuid' })))).toThrow(/ownershipRules\.relatedIdTypes\.user is not "number" or "string"/);
    expect(load(tampered((rules) => (rules['relatedIdTypes'] = ['number'])))).toThrow(/ownershipRules\.relatedIdTypes is not an object/);
  });

  it('an ownershipRules option that is no source is refused', () => {
    expect(() => permissionsFromTables({ format: 1, version: 'v', tables }, { ownershipRules: {} as never, ownership: hooks })).toThrow(
      /Permissions option ownershipRules must be a source of the rules' records/,
    );
  });
});

describe('a rule source that misbehaves', () => {
  const permitWith = (source: object, hookTimeoutMs = 5_000) =>
    permissionsFromTables({ format: 1, version: 'v', tables }, { ownershipRules: source as never, ownership: hooks, hookTimeoutMs }).grantPermit({
      user: manager,
      resource: 'document',
      action: 'read',
    });
  const good = memoryOwnership({ document: DOCUMENTS, user: USERS });

  it('throwing, rejecting, answering no list or never answering refuses with a PermissionsHookError, never grants', async () => {
    const cases: [string, object, string][] = [
      [
        'throws',
        {
          ...good,
          ownedAmong: () => {
            throw new Error('db down');
          },
        },
        'Ownership hook rule creatorOrManaged threw: db down',
      ],
      ['rejects', { ...good, ownedAmong: () => Promise.reject(new Error('timeout')) }, 'Ownership hook rule creatorOrManaged rejected: timeout'],
      [
        'answers no list',
        { ...good, ownedAmong: () => Promise.resolve('101') },
        'Ownership hook rule creatorOrManaged rejected: ownedAmong did not answer an array of ids (it answered "101")',
      ],
    ];
    for (const [, source, message] of cases) {
      const permit = await permitWith(source);
      const error = await permit.isOwn(101).catch((caught: unknown) => caught);
      expect({ error: error instanceof PermissionsHookError, message: (error as Error).message }).toEqual({ error: true, message });
    }
    const listless = await permitWith({ ...good, ownedAmong: () => Promise.resolve({ length: 1, 0: 101 }) });
    await expect(listless.filterPick(DOCUMENTS)).rejects.toThrow(
      'listOwned hook rule creatorOrManaged returned object, not an array of ids; nothing is treated as owned. Return an array.',
    );
    const silent = await permitWith({ ...good, ownedAmong: () => new Promise(() => undefined) }, 50);
    await expect(silent.isOwn(101)).rejects.toThrow(
      'Ownership hook rule creatorOrManaged did not settle within 50 ms; access is refused. Make the hook answer faster, or raise hookTimeoutMs.',
    );
  });

  it('ids it was not asked about own nothing', async () => {
    const counted = countingSource();
    const honest = await permitWith({
      ...counted.source,
      ownedAmong: (question: OwnershipQuestion, ids: readonly unknown[]) => counted.source.ownedAmong(question, ids),
    });
    expect(await honest.filterPick([DOCUMENTS[0]!])).toEqual([]);
    expect(await honest.filterPick([DOCUMENTS[0]!, DOCUMENTS[1]!])).toEqual([DOCUMENTS[1]]);
    expect(counted.asked).toEqual(['ownedAmong [100]', 'ownedAmong [101]']);
  });
});
