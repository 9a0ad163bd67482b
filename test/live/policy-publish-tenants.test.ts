/**
 * `policy publish` and `policy rollback` check every tenant's custom roles in the store before a version becomes
 * active, on a PostgreSQL server (TEST_DATABASE_URL): a version that drops a resource a tenant's roles name is
 * refused with the tenant, its version and the problem, and nothing changes; `--force` activates it and names the
 * tenants whose roles now grant nothing; a rollback to a version they fit says nothing of them, one to a version they
 * do not fit is refused; a hundred and six unfit tenants are all counted and the first hundred named (odd ids quoted).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../compiler/commands/main.js';
import { postgresTenantRolesAdmin } from '../../runtime/live/tenant-roles-admin.js';
import { readCurrentPolicy } from '../../runtime/live/postgres-policy-store.js';
import type { PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { readTenantRoles, tenantRolesStoreNames } from '../../runtime/live/postgres-tenant-roles-store.js';
import { collectIo } from '../compiler/helpers.js';
import { useServerSchema } from './fixtures/server-schema.js';

const serverUrl = process.env['TEST_DATABASE_URL'];

async function run(argv: readonly string[]) {
  const { logs, errors, io } = collectIo();
  const code = await main(argv, io);
  // Versions are SHA-256 digests of the tables: named, not spelled out, in the expectations.
  const named = (lines: readonly string[]) => lines.map((line) => line.replace(/\b[0-9a-f]{64}\b/g, '<version>'));
  return { code, logs: named(logs), errors: named(errors) };
}

/** A definitions folder granting READER `read` on each of `resources`. */
function folder(dir: string, resources: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  const definitions = resources.map((resource) => ({ roles: ['READER'], resource, grant: ['read'] }));
  writeFileSync(join(dir, 'app.permissions.json'), JSON.stringify({ definitions }));
  return dir;
}

const auditing = (resource: string) => ({ definitions: [{ roles: ['AUDITOR'], resource, grant: ['read'] }] });
const REFUSAL_ADVICE =
  "typed-permissions: change the definitions, or first publish these tenants' roles without what the version drops " +
  '(typed-permissions tenant publish); `--force` activates the version anyway, and their custom roles grant nothing until they fit.';
const INVOICE_GONE = 'definitions[0].resource: Resource "invoice" is not a resource of the compiled policy.';

if (serverUrl === undefined) console.info('policy publish against tenants: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

(serverUrl === undefined ? describe.skip : describe)('policy publish checks the tenants’ custom roles', () => {
  const schema = `publish_tenants_${process.pid}`;
  const { store, admin: client } = useServerSchema(serverUrl as string, schema);
  const names = tenantRolesStoreNames({ schema, channel: schema });
  let first: string | undefined;
  /** The policy version each tenant's active roles were compiled against (null: none), and the active version. */
  const compiledAgainst = async (tenants: readonly string[]) => ({
    active: ((await readCurrentPolicy(client(), names))?.bundle as PolicyBundle | undefined)?.version,
    tenants: await Promise.all(
      tenants.map(async (tenant) => {
        const compiled = (await readTenantRoles(client(), names, tenant))?.compiled;
        return compiled === undefined ? null : (JSON.parse(compiled) as { policy: string }).policy;
      }),
    ),
  });
  const temp = mkdtempSync(join(tmpdir(), 'publish-tenants-'));
  const withInvoices = folder(join(temp, 'v1'), ['invoice', 'note']);
  const withoutInvoices = folder(join(temp, 'v2'), ['note']);
  const admin = postgresTenantRolesAdmin({ connectionString: serverUrl as string, schema });

  beforeAll(async () => {
    expect((await run(['policy', 'publish', withInvoices, ...store(), '--yes'])).code).toBe(0);
    await admin.publish('acme', auditing('invoice'));
    await admin.publish('beta "quoted"', auditing('invoice'));
    await admin.publish('gamma', auditing('note'));
    // Each publish compiled the tenant's roles against the active policy.
    const { active, tenants } = await compiledAgainst(['acme', 'beta "quoted"', 'gamma']);
    expect(tenants).toEqual([active, active, active]);
    first = active;
  }, 60_000);
  afterAll(async () => {
    await admin.close();
    rmSync(temp, { recursive: true, force: true });
  });

  it('refuses a version that drops what a tenant’s roles name, and changes nothing', async () => {
    const result = await run(['policy', 'publish', withoutInvoices, ...store(), '--yes']);
    expect(result.code).toBe(1);
    expect(result.errors).toEqual([
      'typed-permissions: the custom roles of 2 of 3 tenants would no longer fit version <version>; nothing was changed:',
      `  tenant "acme" #1: ${INVOICE_GONE}`,
      `  tenant "beta \\"quoted\\"" #1: ${INVOICE_GONE}`,
      REFUSAL_ADVICE,
    ]);
    const listed = await run(['policy', 'list', ...store()]);
    expect(listed.logs).toHaveLength(1);
  }, 60_000);

  it('with --force: activates it and names the tenants whose roles grant nothing now; a rollback they fit says nothing of them', async () => {
    const forced = await run(['policy', 'publish', withoutInvoices, ...store(), '--yes', '--force']);
    expect([forced.code, forced.errors]).toEqual([0, []]);
    expect(forced.logs.slice(1)).toEqual([
      `typed-permissions: published version <version> as #2 to ${schema}; no follower was seen in the last 60 s.`,
      'typed-permissions: compiled the custom roles of 1 tenant against it.',
      'typed-permissions: the custom roles of 2 of 3 tenants grant nothing under it until they fit (--force):',
      `  tenant "acme" #1: ${INVOICE_GONE}`,
      `  tenant "beta \\"quoted\\"" #1: ${INVOICE_GONE}`,
    ]);
    // The tenants that do not fit keep the roles compiled against the version before (an engine builds their documents).
    const forcedCompiled = await compiledAgainst(['acme', 'beta "quoted"', 'gamma']);
    expect(forcedCompiled.tenants).toEqual([first, first, forcedCompiled.active]);
    expect(forcedCompiled.active).not.toBe(first);
    const back = await run(['policy', 'rollback', '1', ...store()]);
    expect([back.code, back.errors, back.logs]).toEqual([
      0,
      [],
      [
        ['Policy diff store:2 -> store:1: +1 −0 cells, resources +1 −0', 'resources added: "invoice"', 'invoice:', '  + READER read:any, attributes *'].join(
          '\n',
        ),
        `typed-permissions: version #1 is active again, as #3; no follower was seen in the last 60 s.`,
        'typed-permissions: compiled the custom roles of 3 tenants against it.',
      ],
    ]);
    const { active, tenants } = await compiledAgainst(['acme', 'beta "quoted"', 'gamma']);
    expect(tenants).toEqual([active, active, active]);
  }, 60_000);

  it('counts every unfit tenant and names the first hundred', async () => {
    for (let i = 0; i < 104; i++) await admin.publish(`tenant-${String(i).padStart(3, '0')}`, auditing('invoice'));
    const result = await run(['policy', 'publish', withoutInvoices, ...store(), '--yes']);
    expect(result.code).toBe(1);
    const refusal = 'typed-permissions: the custom roles of 106 of 107 tenants would no longer fit version <version>; nothing was changed:';
    expect(result.errors[0]).toBe(refusal);
    expect(result.errors.slice(1, 4)).toEqual([
      `  tenant "acme" #1: ${INVOICE_GONE}`,
      `  tenant "beta \\"quoted\\"" #1: ${INVOICE_GONE}`,
      `  tenant "tenant-000" #1: ${INVOICE_GONE}`,
    ]);
    expect(result.errors).toHaveLength(1 + 100 + 1 + 1);
    expect(result.errors.at(-2)).toBe('  … and 6 more tenants');
    // A rollback is checked the same way: version #2 has no invoices either.
    const back = await run(['policy', 'rollback', '2', ...store()]);
    expect([back.code, back.errors[0]]).toEqual([1, refusal]);
  }, 120_000);
});
