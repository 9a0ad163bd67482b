/**
 * The admin API of tenants' custom roles (`typed-permissions/live`), as an application's admin screen uses it:
 * a document is checked against the base policy before it is stored (a refused one stores nothing), the base is
 * a bundle or tables given, or the PostgreSQL policy store's active version; publish, list, show and rollback
 * answer exactly; a bundle that does not hash to its version is refused.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionDefinitionError, PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { fileTenantRolesAdmin, postgresTenantRoles, postgresTenantRolesAdmin, type TenantRolesAdmin } from '../../runtime/live/index.js';
import { createPermissions } from '../../generated/permissions.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { policyVersionOf } from '../../runtime/core/tables/policy-version.js';
import type { PolicyBundle } from '../../runtime/live/policy-bundle.js';
import type { PgClient } from '../../runtime/live/postgres-client.js';
import { publishPolicy, storeNames } from '../../runtime/live/postgres-policy-store.js';
import { makeTempDir, removeTempDir, repoRoot } from '../compiler/helpers.js';
import { useServerSchema } from './fixtures/server-schema.js';

const serverUrl = process.env['TEST_DATABASE_URL'];
const bundle = JSON.parse(readFileSync(join(repoRoot, 'generated', 'policy.json'), 'utf8')) as PolicyBundle;

const auditors = { definitions: [{ roles: ['AUDITOR'], resource: 'document', grant: ['read:any'] }] };
const clerks = { definitions: [{ roles: ['CLERK'], resource: 'document', grant: ['update:any'] }] };
const renamesEmployee = { definitions: [{ roles: ['EMPLOYEE'], resource: 'document', grant: ['read:any'] }] };

/** The problems of a refused document, as `[path, message]`. */
async function problemsOf(attempt: Promise<unknown>): Promise<[string, string][]> {
  const error = await attempt.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!(error instanceof PermissionDefinitionError)) throw new Error(`expected a PermissionDefinitionError, got ${String(error)}`);
  return error.problems.map((problem) => [`${problem.index}:${problem.path.join('.')}`, problem.message]);
}

/** What every admin answers alike, on its own store. */
async function publishesChecksAndRollsBack(admin: TenantRolesAdmin): Promise<void> {
  expect(await admin.publish('acme', auditors, { publishedBy: 'ana', note: 'audit' })).toEqual({ sequence: 1 });
  expect(await problemsOf(admin.publish('acme', renamesEmployee))).toEqual([
    ['0:roles.0', 'Role "EMPLOYEE" is a role of the compiled policy; a tenant adds roles and never changes one.'],
  ]);
  expect(await admin.publish('acme', clerks, { publishedBy: 'bo' })).toEqual({ sequence: 2 });
  expect(await admin.publish('globex', auditors, { publishedBy: 'cy' })).toEqual({ sequence: 1 });
  expect(await admin.rollback('acme', 1, { publishedBy: 'di' })).toEqual({ sequence: 3 });
  const shown = await admin.show('acme');
  expect(shown.active).toEqual({ sequence: 3, document: auditors });
  expect(shown.versions.map(({ sequence, publishedBy, note, roles, active }) => [sequence, publishedBy, note, roles, active])).toEqual([
    [3, 'di', 'rollback to 1', ['AUDITOR'], true],
    [2, 'bo', '', ['CLERK'], false],
    [1, 'ana', 'audit', ['AUDITOR'], false],
  ]);
  const first = await admin.list({ limit: 1 });
  expect([first.tenants.map(({ tenant, sequence }) => [tenant, sequence]), first.next]).toEqual([[['acme', 3]], 'acme']);
  const second = await admin.list({ after: 'acme', limit: 1 });
  expect([second.tenants.map(({ tenant, sequence, publishedBy }) => [tenant, sequence, publishedBy]), second.next]).toEqual([[['globex', 1, 'cy']], undefined]);
  await expect(admin.rollback('acme', 7)).rejects.toThrow(
    new PermissionsUsageError('Tenant "acme" has no version 7 of custom roles; see `typed-permissions tenant show`.'),
  );
  await expect(admin.publish('', auditors)).rejects.toThrow(new PermissionsUsageError('publish: tenant must not be empty.'));
  await checksWhatItStores(admin);
}

/**
 * What is checked is what is stored: a document read twice — a getter answering the misfit the first time (what
 * JSON stores) and a fitting one after — or one whose definitions are inherited (which JSON leaves out), is refused
 * as the store would keep it. Before, the check read the object again and passed, and the misfit was stored.
 */
async function checksWhatItStores(admin: TenantRolesAdmin): Promise<void> {
  let reads = 0;
  const twoFaced = {
    get definitions() {
      reads += 1;
      return reads === 1 ? renamesEmployee.definitions : auditors.definitions;
    },
  };
  expect(await problemsOf(admin.publish('two-faced', twoFaced))).toEqual([
    ['0:roles.0', 'Role "EMPLOYEE" is a role of the compiled policy; a tenant adds roles and never changes one.'],
  ]);
  expect(reads).toBe(1);
  await expect(admin.publish('inherited', Object.create(auditors) as object)).rejects.toBeInstanceOf(PermissionDefinitionError);
  // PostgreSQL's jsonb refuses these; the folder store refuses them too, with the same words.
  await expect(admin.publish('nul', { definitions: [{ ...auditors.definitions[0], descr: 'a\u0000b' }] })).rejects.toThrow(
    new PermissionsUsageError('The custom roles of tenant "nul" hold the character U+0000, which is not text a store keeps; remove it.'),
  );
  await expect(admin.publish('lone', { definitions: [{ ...auditors.definitions[0], descr: 'a\uD800b' }] })).rejects.toThrow(
    new PermissionsUsageError('The custom roles of tenant "lone" hold a lone surrogate (U+D800), which is not text a store keeps; remove it.'),
  );
  expect((await admin.list()).tenants.map(({ tenant }) => tenant)).not.toContain('two-faced');
}

describe('the admin of tenant roles in a folder', () => {
  let folder: string;
  beforeEach(() => {
    folder = makeTempDir('tenant-admin');
  });
  afterEach(() => removeTempDir(folder));

  it('checks against the policy bundle given, and publishes, lists, shows and rolls back', async () => {
    await publishesChecksAndRollsBack(fileTenantRolesAdmin(folder, { policy: bundle }));
  }, 20_000);

  it('takes compiled tables as the base as well, and refuses what is neither', async () => {
    const admin = fileTenantRolesAdmin(folder, { policy: bundle.tables as never });
    expect(await admin.publish('acme', auditors)).toEqual({ sequence: 1 });
    expect(() => fileTenantRolesAdmin(folder, { policy: { roles: [] } as never })).toThrow(
      /^fileTenantRolesAdmin\(\): policy is neither a policy bundle nor compiled tables of this version of typed-permissions: /,
    );
  });

  it('refuses a bundle that does not hash to its version, and publishing without a base', async () => {
    expect(() => fileTenantRolesAdmin(folder, { policy: { ...bundle, version: '0'.repeat(64) } })).toThrow(
      new PermissionsUsageError(
        `fileTenantRolesAdmin(): the policy bundle says version ${'0'.repeat(64)}, ` +
          `but its tables hash to ${bundle.version} (the bundle was changed or cut short).`,
      ),
    );
    const readOnly = fileTenantRolesAdmin(folder);
    expect(await readOnly.list()).toEqual({ tenants: [] });
    await expect(readOnly.publish('acme', auditors)).rejects.toThrow(
      new PermissionsUsageError('fileTenantRolesAdmin(): publishing and rolling back need the base policy the roles are checked against (options.policy).'),
    );
  });
});

if (serverUrl === undefined) console.info('the PostgreSQL tenant roles admin: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

(serverUrl === undefined ? describe.skip : describe)('the admin of tenant roles in a PostgreSQL store', () => {
  const schema = `tenant_admin_${process.pid}`;
  const { admin } = useServerSchema(serverUrl ?? '', schema);
  const admins: TenantRolesAdmin[] = [];
  afterAll(async () => {
    await Promise.all(admins.map((admin) => admin.close()));
  });

  it('refuses to publish before a policy was published to the store, then checks against its active version', async () => {
    const tenantAdmin = postgresTenantRolesAdmin({ connectionString: serverUrl ?? '', schema, channel: schema });
    admins.push(tenantAdmin);
    await expect(tenantAdmin.publish('acme', auditors)).rejects.toThrow(
      new PermissionsUsageError(
        `No policy was published to ${schema}, so tenants' roles cannot be checked against it: publish one first ` +
          "(`typed-permissions policy publish`), or give the base policy (`--policy <policy.json>`, or the admin's `policy` option).",
      ),
    );
    await publishPolicy(admin() as unknown as PgClient, storeNames({ schema, channel: schema }), bundle);
    await publishesChecksAndRollsBack(tenantAdmin);
  }, 30_000);

  it('stores the roles compiled against its policy, which an engine on that policy takes; one compiled against another policy is built again', async () => {
    const tenantAdmin = postgresTenantRolesAdmin({ connectionString: serverUrl ?? '', schema, channel: schema, policy: bundle });
    // The same names, another description: another policy version, which the auditors' document fits as well.
    const tables = bundle.tables as unknown as GrantTables;
    const other = { ...tables, definitions: tables.definitions.map((definition, i) => (i === 0 ? { ...definition, descr: 'Changed.' } : definition)) };
    const otherAdmin = postgresTenantRolesAdmin({ connectionString: serverUrl ?? '', schema, channel: schema, policy: other });
    admins.push(tenantAdmin, otherAdmin);
    await tenantAdmin.publish('compiled-here', auditors, { source: 'auditors.json' });
    await otherAdmin.publish('compiled-elsewhere', auditors);
    const source = postgresTenantRoles({ connectionString: serverUrl ?? '', schema, channel: schema });
    expect(JSON.parse((await source.read('compiled-here'))?.compiled ?? '{}')).toMatchObject({ policy: bundle.version, roles: ['AUDITOR'] });
    expect(JSON.parse((await source.read('compiled-elsewhere'))?.compiled ?? '{}')).toMatchObject({ policy: policyVersionOf(other) });
    const warnings: string[] = [];
    const permissions = createPermissions({ ownershipRules: memoryOwnership({ document: [], user: [] }), logger: { warn: (line) => warnings.push(line) } });
    const following = await permissions.followTenantRoles(source);
    try {
      const user = { id: 1, roles: ['AUDITOR'], companyId: 1, managedUserIds: [] };
      for (const tenant of ['compiled-here', 'compiled-elsewhere']) {
        const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', tenant });
        // Explanations name the tenant, not the file the document was published from, whichever way the roles were read.
        expect({ tenant, granted: permit.granted, reason: permit.reasonSource }).toEqual({
          tenant,
          granted: true,
          reason: { source: `tenant "${tenant}"`, index: 0 },
        });
      }
      expect(warnings).toEqual([
        `typed-permissions: tenants' custom roles were compiled against policy version ${policyVersionOf(other)}, not the active ${bundle.version}; ` +
          'their documents are built instead (a slower first decision per tenant) until `typed-permissions policy publish` compiles them again.',
      ]);
    } finally {
      await following.close();
    }
  }, 30_000);

  it('publishes to many tenants at once through one admin', async () => {
    const tenantAdmin = postgresTenantRolesAdmin({ connectionString: serverUrl ?? '', schema, channel: schema, policy: bundle });
    admins.push(tenantAdmin);
    const tenants = ['t1', 't2', 't3', 't4', 't1', 't2', 't1', 't2'];
    const results = await Promise.all(tenants.map((tenant) => tenantAdmin.publish(tenant, auditors)));
    const byTenant = (name: string) =>
      results
        .filter((_, index) => tenants[index] === name)
        .map(({ sequence }) => sequence)
        .sort();
    expect([byTenant('t1'), byTenant('t2'), byTenant('t3'), byTenant('t4')]).toEqual([[1, 2, 3], [1, 2, 3], [1], [1]]);
  }, 30_000);
});
