/**
 * A tenant's custom roles as a publish compiles them (against the example policy): read back, they are the tables
 * the builder makes from the document, part for part; made for another policy they are not used; malformed or
 * stepping outside the policy (a policy role, an index past its names, an action a resource does not declare) they
 * are refused with where they are wrong. An engine takes a usable compiled form without building the document, and
 * builds the document, saying so once, when the form is for another policy or unusable.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createPermissions } from '../../generated/permissions.js';
import { grantTables, policyVersion } from '../../generated/tables.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import { buildTenantRoles, checkTenantRoles } from '../../runtime/core/table-building/tenant-roles.js';
import { MAX_TENANT_ROLES, NO_CELLS, readCompiledTenantRoles } from '../../runtime/core/tables/compiled-tenant-roles.js';
import { compileTenantRoles } from '../../runtime/core/tables/write-compiled-tenant-roles.js';
import { packCells, unpackCells } from '../../runtime/core/tables/packed-cells.js';
import { PackedTextError } from '../../runtime/core/tables/packed-numbers.js';
import { packedCellsFit } from '../../runtime/core/tables/packed-cells-fit.js';
import { tenantTablesCheck } from '../../runtime/core/tables/tenant-tables-check.js';
import type { TenantRolesSource, TenantRolesVersion } from '../../runtime/live/tenant-roles-source.js';
import { keptVersion } from '../../runtime/permissions/tenant-snapshots.js';

const REVIEWERS = {
  definitions: [
    {
      roles: ['REVIEWER'],
      resource: 'document',
      possession: 'own',
      grant: { read: ['*', '!confidential'], review: ['*'] },
      owner: 'sameCompany',
      descr: 'Reviewers review the documents of their company.',
    },
    { roles: ['AUDITOR', 'REVIEWER'], resource: 'decision', grant: ['list:any'] },
    { roles: ['AUDITOR'], resource: '*', grant: ['read:any'] },
  ],
};

/** How many resources the reviewers' roles have cells on (each of the policy's three). */
const REVIEWERS_RESOURCES = 3;

/** Tables as plain data: packed ones decode their cells and definitions on the way. */
const plain = (tables: unknown): unknown => JSON.parse(JSON.stringify(tables));

const compiledOf = (document: unknown, version = policyVersion): string => compileTenantRoles(checkTenantRoles(grantTables, 'acme', document).tables, version);

/** The compiled form of {@link REVIEWERS} with `change` made to its JSON. */
function changed(change: (form: Record<string, unknown>) => void): string {
  const form = JSON.parse(compiledOf(REVIEWERS)) as Record<string, unknown>;
  change(form);
  return JSON.stringify(form);
}

describe('compiled custom roles', () => {
  it('read back as the tables the builder makes from the document, with the policy’s own names and ownership', () => {
    const built = checkTenantRoles(grantTables, 'acme', REVIEWERS).tables;
    const read = readCompiledTenantRoles(grantTables, policyVersion, compiledOf(REVIEWERS));
    if (!('tables' in read)) throw new Error(`not read: ${JSON.stringify(read)}`);
    expect(plain(read.tables)).toEqual(plain(built));
    expect(read.tables.resources).toBe(grantTables.resources);
    expect(read.tables.owners).toBe(grantTables.owners);
    expect(read.tables.definitions[0]).toEqual({ index: 0, source: 'tenant "acme"', descr: 'Reviewers review the documents of their company.' });
  });

  it('hold only the tenant’s parts: the resources without cells (whose packed text the reader knows) are left out', () => {
    expect(NO_CELLS).toBe(packCells([], []));
    expect((JSON.parse(compiledOf(REVIEWERS)) as { resources: unknown[] }).resources).toHaveLength(REVIEWERS_RESOURCES);
    const form = JSON.parse(compiledOf({ definitions: [{ roles: ['AUDITOR'], resource: 'decision', grant: ['list:any'] }] })) as Record<string, unknown>;
    expect(Object.keys(form)).toEqual(['format', 'policy', 'roles', 'plans', 'cells', 'definitions', 'resources', 'places', 'descriptions']);
    expect(form['resources']).toEqual([[grantTables.resources.indexOf('decision'), expect.any(String)]]);
  });

  it('are the built tables for any document that fits (property)', () => {
    const roles = fc.uniqueArray(fc.constantFrom('REVIEWER', 'AUDITOR', 'CLERK'), { minLength: 1, maxLength: 3 });
    const descr = fc.option(fc.string({ maxLength: 20 }), { nil: undefined });
    const attributes = fc.constantFrom(['*'], ['*', '!confidential'], ['title', 'date'], ['*', '!personal', '!confidential']);
    // Grants as any on any resource (the actions each declares), and grants as own on documents, by a rule of the policy.
    const anyGrant = fc.oneof(
      fc.record({ roles, resource: fc.constant('decision'), grant: fc.uniqueArray(fc.constantFrom('list:any', 'read:any', '*:any'), { minLength: 1 }), descr }),
      fc.record({ roles, resource: fc.constant('session'), grant: fc.uniqueArray(fc.constantFrom('create:any', 'frobnicate:any'), { minLength: 1 }), descr }),
      fc.record({
        roles,
        resource: fc.constant('document'),
        grant: fc.dictionary(fc.constantFrom('read', 'list', 'review', 'delete'), attributes, { minKeys: 1 }),
        descr,
      }),
    );
    const ownGrant = fc.record({
      roles,
      resource: fc.constant('document'),
      possession: fc.constant('own'),
      grant: fc.dictionary(fc.constantFrom('read', 'update', 'review'), attributes, { minKeys: 1 }),
      owner: fc.constantFrom('creator', 'sameCompany', 'creatorOrManaged'),
      descr,
    });
    const definition = fc.oneof(anyGrant, ownGrant);
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(definition, { minLength: 1, maxLength: 6 }), (definitions) => {
        const document = { definitions: definitions.map(({ descr, ...rest }) => (descr === undefined ? rest : { ...rest, descr })) };
        const { roles } = buildTenantRoles(grantTables, 'acme', document);
        if (roles === undefined) return;
        accepted++;
        const read = readCompiledTenantRoles(grantTables, policyVersion, compileTenantRoles(roles.tables, policyVersion));
        expect('tables' in read ? plain(read.tables) : read).toEqual(plain(roles.tables));
      }),
      { numRuns: 200 },
    );
    // Many random documents fit (those that grant an action a resource does not declare do not): the property is not
    // vacuous. Six runs accepted 54–74 of 200, and one 49: the bound leaves room for any seed.
    expect(accepted).toBeGreaterThan(20);
  });

  it('made for another policy version are not used', () => {
    expect(readCompiledTenantRoles(grantTables, policyVersion, compiledOf(REVIEWERS, 'f'.repeat(64)))).toEqual({ otherPolicy: 'f'.repeat(64) });
  });

  it('are refused, saying where, when malformed or outside the policy', () => {
    const decision = grantTables.resources.indexOf('decision');
    const cases: [string, string][] = [
      ['not json', 'not JSON'],
      ['[]', 'not of format 2'],
      [changed((form) => (form['format'] = '2')), 'not of format 2'],
      [changed((form) => delete form['policy']), 'no policy version'],
      [changed((form) => (form['roles'] = 'AUDITOR')), 'roles is not a list'],
      [changed((form) => (form['roles'] = ['AUDITOR', 'EMPLOYEE'])), 'roles[1] is "EMPLOYEE", a role of the policy'],
      [changed((form) => (form['roles'] = ['*', 'AUDITOR'])), 'roles[0] is not a role name'],
      [changed((form) => (form['roles'] = ['AUDITOR\n', 'REVIEWER'])), 'roles[0] is not a role name'],
      [changed((form) => (form['roles'] = ['REVIEWER', 'AUDITOR'])), 'roles[1] does not come after the role before it (sorted, each once)'],
      [changed((form) => (form['roles'] = ['AUDITOR', 'AUDITOR'])), 'roles[1] does not come after the role before it (sorted, each once)'],
      [
        changed((form) => (form['roles'] = Array.from({ length: MAX_TENANT_ROLES + 1 }, (_, i) => `R${String(i).padStart(3, '0')}`))),
        `roles lists ${MAX_TENANT_ROLES + 1} roles, more than the limit of ${MAX_TENANT_ROLES}`,
      ],
      [changed((form) => (form['resources'] = {})), 'resources is not a list'],
      [
        changed((form) => (form['resources'] = [[grantTables.resources.length, packCells([], [])]])),
        'resources[0] does not name a resource of the policy after the one before it',
      ],
      [
        changed((form) => (form['resources'] = [...(form['resources'] as unknown[]), ...(form['resources'] as unknown[])])),
        `resources[${REVIEWERS_RESOURCES}] does not name a resource of the policy after the one before it`,
      ],
      [changed((form) => (form['resources'] = [[decision, 7]])), 'resources[0] holds no packed cells'],
      [
        changed((form) => (form['resources'] = [[decision, '1!']])),
        'the cells of "decision" are not packed cells: character 1 is not one of the packed alphabet',
      ],
      [changed((form) => (form['places'] = [])), 'the definitions are not texts'],
      [changed((form) => (form['cells'] = -1)), 'cells is not a count of cells'],
      [changed((form) => (form['plans'] = [[2, []]])), 'plans[0][0] is not 0 or 1'],
      // One cell of the decision log, for role 5 of the two there are.
      [changed((form) => (form['resources'] = [[decision, packCells([[0, [], [], [0]]], [2, 5, 0])]])), `cells of "decision"[0][2] is not an index below 2`],
      // The decision log declares its actions, and "delete" is not one of them.
      [
        changed((form) => (form['resources'] = [[decision, packCells([[0, [], [], [0]]], [grantTables.actions.indexOf('delete'), 0, 0])]])),
        `cells of "decision"[0][1] is not an action its resource declares`,
      ],
      [changed((form) => (form['places'] = '[["x"],[0,0,99]]')), `the definitions' run 0 does not count between 1 and the 3 definitions`],
      [changed((form) => (form['descriptions'] = '[]')), 'the descriptions are not a JSON list of 3'],
    ];
    for (const [text, problem] of cases) expect({ text, read: readCompiledTenantRoles(grantTables, policyVersion, text) }).toEqual({ text, read: { problem } });
  });
});

describe('the check of packed cells without making them', () => {
  const form = JSON.parse(compiledOf(REVIEWERS)) as { roles: string[]; plans: unknown[]; cells: number; definitions: number; resources: [number, string][] };
  const { check, bounds } = tenantTablesCheck(grantTables, {
    format: 1,
    roles: form.roles,
    plans: form.plans,
    cells: form.cells,
    definitions: form.definitions,
  });
  /** Whether the cells' check after decoding accepts `text` (the check that says where a text is wrong). */
  const decodedFit = (text: string, resource: number): boolean => {
    try {
      return check.cellsProblem(unpackCells(text, resource, bounds!), grantTables.resources[resource] as string) === undefined;
    } catch (error) {
      if (error instanceof PackedTextError) return false;
      throw error;
    }
  };

  it('accepts every resource’s cells of a compiled form', () => {
    expect(form.resources.map(([resource, text]) => [packedCellsFit(text, resource, bounds!), decodedFit(text, resource)])).toEqual(
      form.resources.map(() => [true, true]),
    );
  });

  it('never accepts what the check after decoding refuses (property: texts changed at random)', () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
    let refused = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...form.resources),
        fc.nat(),
        fc.constantFrom(...alphabet),
        fc.constantFrom('replace', 'insert', 'delete'),
        ([resource, text], at, character, change) => {
          const i = at % text.length;
          const changed =
            change === 'replace'
              ? text.slice(0, i) + character + text.slice(i + 1)
              : change === 'insert'
                ? text.slice(0, i) + character + text.slice(i)
                : text.slice(0, i) + text.slice(i + 1);
          const fits = packedCellsFit(changed, resource, bounds!);
          if (!fits) refused++;
          if (fits) expect({ changed, decoded: decodedFit(changed, resource) }).toEqual({ changed, decoded: true });
        },
      ),
      { numRuns: 2000 },
    );
    // Most changes break a text: the property is not vacuous.
    expect(refused).toBeGreaterThan(500);
  });

  it('refuses a shape that no cell uses when it is not well formed, which decoding would not see', () => {
    const decision = grantTables.resources.indexOf('decision');
    // Two shapes, the second naming plan 9 of the policy's few; the one cell uses the first.
    const text = packCells(
      [
        [0, [], [], [0]],
        [9, [], [], [0]],
      ],
      [grantTables.actions.indexOf('list'), 0, 0],
    );
    expect([packedCellsFit(text, decision, bounds!), decodedFit(text, decision)]).toEqual([false, true]);
    const read = readCompiledTenantRoles(
      grantTables,
      policyVersion,
      changed((form) => (form['resources'] = [[decision, text]])),
    );
    expect(read).toEqual({ problem: `the cells of "decision" hold a shape or a group that no cell uses and that is not well formed` });
  });
});

/** A source that gives each tenant's document with `compiled` as its compiled form. */
function sourceOf(versions: Readonly<Record<string, { readonly document: unknown; readonly compiled: string }>>): TenantRolesSource {
  return {
    description: 'memory',
    read: (tenant) => {
      const version = versions[tenant];
      return Promise.resolve(Object.hasOwn(versions, tenant) && version !== undefined ? { tenant, sequence: 1, ...version } : undefined);
    },
  };
}

async function engineOf(source: TenantRolesSource) {
  const warnings: string[] = [];
  const permissions = createPermissions({
    ownershipRules: memoryOwnership({ document: [], user: [] }),
    logger: { warn: (message: string) => warnings.push(message) },
  });
  await permissions.followTenantRoles(source);
  return { permissions, warnings };
}

const AUDITOR = { id: 1, roles: ['AUDITOR'], companyId: 1, managedUserIds: [] };

describe('an engine reading compiled custom roles', () => {
  it('takes them without building the document (here one it would refuse), and explains by them', async () => {
    const { permissions, warnings } = await engineOf(sourceOf({ acme: { document: { definitions: 'not definitions' }, compiled: compiledOf(REVIEWERS) } }));
    const permit = await permissions.grantPermit({ user: AUDITOR, resource: 'decision', action: 'list', tenant: 'acme' });
    expect(permit.granted).toBe(true);
    expect(permit.reasonSource).toEqual({ source: 'tenant "acme"', index: 1 });
    expect((await permit.explain()).byRole.map(({ role, tenant }) => ({ role, tenant }))).toEqual([{ role: 'AUDITOR', tenant: 'acme' }]);
    expect(warnings).toEqual([]);
  });

  it('keeps the tenant without the version its source gave (whose compiled text served once), and answers the same', async () => {
    const given: WeakRef<object>[] = [];
    const { permissions } = await engineOf({
      description: 'memory',
      read: (tenant) => {
        const version = { tenant, sequence: 1, document: REVIEWERS, compiled: compiledOf(REVIEWERS) };
        given.push(new WeakRef(version));
        return Promise.resolve(version);
      },
    });
    expect((await permissions.grantPermit({ user: AUDITOR, resource: 'decision', action: 'list', tenant: 'acme' })).granted).toBe(true);
    // A WeakRef holds its target until the job that made it is over: collected after a turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 0));
    (globalThis as { gc?: () => void }).gc?.();
    expect([given.length, given[0]?.deref()]).toEqual([1, undefined]);
    expect(permissions.grantPermitSync({ user: AUDITOR, resource: 'decision', action: 'list', tenant: 'acme' }).granted).toBe(true);
  });

  it('keeps a version for a policy change without its compiled text and without reading a document parsed on demand', () => {
    const plain = keptVersion({ tenant: 'acme', sequence: 2, document: REVIEWERS, compiled: compiledOf(REVIEWERS) });
    expect([plain, Object.keys(plain)]).toEqual([{ tenant: 'acme', sequence: 2, document: REVIEWERS }, ['tenant', 'sequence', 'document']]);
    let parsed = 0;
    const lazy = { tenant: 'globex', sequence: 5, compiled: compiledOf(REVIEWERS) } as TenantRolesVersion;
    const text = JSON.stringify(REVIEWERS);
    Object.defineProperty(lazy, 'document', { enumerable: true, get: () => (parsed++, JSON.parse(text) as unknown) });
    const kept = keptVersion(lazy);
    expect([parsed, kept.compiled, kept.sequence]).toEqual([0, undefined, 5]);
    expect([kept.document, parsed]).toEqual([REVIEWERS, 1]);
    const none = { tenant: 'initech', sequence: 1, document: REVIEWERS };
    expect(keptVersion(none)).toBe(none);
  });

  it('builds the document of roles compiled for another policy, saying so once', async () => {
    const other = compiledOf(REVIEWERS, 'e'.repeat(64));
    const { permissions, warnings } = await engineOf(
      sourceOf({ acme: { document: REVIEWERS, compiled: other }, globex: { document: REVIEWERS, compiled: other } }),
    );
    for (const tenant of ['acme', 'globex'])
      expect((await permissions.grantPermit({ user: AUDITOR, resource: 'decision', action: 'list', tenant })).granted).toBe(true);
    expect(warnings).toEqual([
      `typed-permissions: tenants' custom roles were compiled against policy version ${'e'.repeat(64)}, not the active ${policyVersion}; ` +
        'their documents are built instead (a slower first decision per tenant) until `typed-permissions policy publish` compiles them again.',
    ]);
  });

  it('builds the document of roles compiled by another version of typed-permissions (another format), saying so once', async () => {
    const older = changed((form) => (form['format'] = 1));
    expect(readCompiledTenantRoles(grantTables, policyVersion, older)).toEqual({ otherFormat: 1 });
    const { permissions, warnings } = await engineOf(
      sourceOf({ acme: { document: REVIEWERS, compiled: older }, globex: { document: REVIEWERS, compiled: older } }),
    );
    for (const tenant of ['acme', 'globex'])
      expect((await permissions.grantPermit({ user: AUDITOR, resource: 'decision', action: 'list', tenant })).granted).toBe(true);
    expect(warnings).toEqual([
      "typed-permissions: tenants' custom roles were compiled by another version of typed-permissions (format 1, not 2); " +
        'their documents are built instead (a slower first decision per tenant) until `typed-permissions policy publish` compiles them again.',
    ]);
  });

  it('builds the document of unusable compiled roles, saying why; a document that does not fit then grants nothing', async () => {
    const { permissions, warnings } = await engineOf(
      sourceOf({
        acme: { document: REVIEWERS, compiled: changed((form) => (form['roles'] = ['AUDITOR', 'EMPLOYEE'])) },
        globex: { document: { definitions: [{ roles: ['EMPLOYEE'], resource: 'decision', grant: ['list:any'] }] }, compiled: 'not json' },
      }),
    );
    expect((await permissions.grantPermit({ user: AUDITOR, resource: 'decision', action: 'list', tenant: 'acme' })).granted).toBe(true);
    const employee = { ...AUDITOR, roles: ['EMPLOYEE'] };
    expect((await permissions.grantPermit({ user: employee, resource: 'decision', action: 'list', tenant: 'globex' })).granted).toBe(false);
    expect(warnings).toEqual([
      'typed-permissions: the compiled custom roles of tenant "acme" (version 1) cannot be used ' +
        '(roles[1] is "EMPLOYEE", a role of the policy); its document is built instead.',
      'typed-permissions: the compiled custom roles of tenant "globex" (version 1) cannot be used ' + '(not JSON); its document is built instead.',
      'typed-permissions: the custom roles of tenant "globex" (version 1) do not fit the active policy; they grant nothing. ' +
        'Role "EMPLOYEE" is a role of the compiled policy; a tenant adds roles and never changes one.',
    ]);
  });
});
