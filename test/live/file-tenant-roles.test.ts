/**
 * Tenants' custom roles in a folder, the embedded store: the same versioned semantics as the PostgreSQL store
 * (numbering per tenant, rollback under a new sequence, the 1 MiB limit, hostile ids stored exactly or refused),
 * a tenant id never used as a path (a folder per SHA-256, the id checked on read), writes that leave no
 * temporary file, concurrent publishes serialised by the lock file, and a watch on the index that names exactly
 * the tenants that changed.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import {
  listFileTenantRoles,
  publishFileTenantRoles,
  readFileTenantRoles,
  rollbackFileTenantRoles,
  showFileTenantRoles,
  tenantFolderName,
} from '../../runtime/live/file-tenant-roles-store.js';
import { fileTenantRoles } from '../../runtime/live/file-tenant-roles.js';
import { MAX_TENANT_ROLES_BYTES, type TenantRolesCheck } from '../../runtime/live/tenant-roles-document.js';
import { makeTempDir, removeTempDir, waitFor } from '../compiler/helpers.js';

/** Stands in for the engine's check; the folder store keeps no compiled form, so what it returns is dropped. */
const check: TenantRolesCheck = (tenant, document) => {
  if ((document as { refuse?: unknown }).refuse === true) throw new PermissionsUsageError(`refused for ${tenant}`);
  return 'compiled';
};

const auditors = { definitions: [{ roles: ['AUDITOR'], resource: 'document', grant: ['read:any'] }] };
const clerks = { definitions: [{ roles: ['CLERK', 'AUDITOR'], resource: 'document', grant: ['update:own'] }] };

function documentOf(bytes: number): unknown {
  const empty = JSON.stringify({ definitions: [], pad: '' }).length;
  return { definitions: [], pad: 'x'.repeat(bytes - empty) };
}

describe('tenant roles in a folder', () => {
  let folder: string;
  beforeEach(() => {
    folder = makeTempDir('tenant-roles');
  });
  afterEach(() => removeTempDir(folder));

  it('publishes, numbers per tenant, rolls back, shows and lists', async () => {
    expect(await readFileTenantRoles(folder, 'acme')).toBeUndefined();
    expect(await listFileTenantRoles(folder)).toEqual({ tenants: [] });
    expect(await publishFileTenantRoles(folder, 'acme', auditors, check, { publishedBy: 'ana', note: 'spring audit' })).toBe(1);
    expect(await publishFileTenantRoles(folder, 'acme', clerks, check, { publishedBy: 'ana' })).toBe(2);
    expect(await publishFileTenantRoles(folder, 'globex', auditors, check, { publishedBy: 'bo' })).toBe(1);
    expect(await readFileTenantRoles(folder, 'acme')).toEqual({ tenant: 'acme', sequence: 2, document: clerks });
    expect(await rollbackFileTenantRoles(folder, 'acme', 1, check, { publishedBy: 'cy' })).toBe(3);
    expect(await readFileTenantRoles(folder, 'acme')).toEqual({ tenant: 'acme', sequence: 3, document: auditors });
    const shown = await showFileTenantRoles(folder, 'acme');
    expect(shown.versions.map(({ sequence, publishedBy, note, roles, active }) => ({ sequence, publishedBy, note, roles, active }))).toEqual([
      { sequence: 3, publishedBy: 'cy', note: 'rollback to 1', roles: ['AUDITOR'], active: true },
      { sequence: 2, publishedBy: 'ana', note: '', roles: ['AUDITOR', 'CLERK'], active: false },
      { sequence: 1, publishedBy: 'ana', note: 'spring audit', roles: ['AUDITOR'], active: false },
    ]);
    expect(shown.active).toEqual({ sequence: 3, document: auditors });
    const listed = await listFileTenantRoles(folder, { limit: 1 });
    expect(listed.tenants.map(({ tenant, sequence }) => [tenant, sequence])).toEqual([['acme', 3]]);
    expect(listed.next).toBe('acme');
    expect(await listFileTenantRoles(folder, { after: 'acme' })).toEqual({
      tenants: [{ tenant: 'globex', sequence: 1, publishedAt: expect.any(String), publishedBy: 'bo', note: '', roles: ['AUDITOR'] }],
    });
    await expect(rollbackFileTenantRoles(folder, 'acme', 9, check)).rejects.toThrow(
      new PermissionsUsageError('Tenant "acme" has no version 9 of custom roles; see `typed-permissions tenant show`.'),
    );
    await expect(publishFileTenantRoles(folder, 'acme', { definitions: [], refuse: true }, check)).rejects.toThrow('refused for acme');
    expect((await readFileTenantRoles(folder, 'acme'))?.sequence).toBe(3);
    // Every write was a rename: no temporary file and no lock is left behind.
    const hash = tenantFolderName('acme');
    expect(readdirSync(folder).sort()).toEqual(['index.json', 'tenants']);
    expect(readdirSync(join(folder, 'tenants', hash)).sort()).toEqual(['1.json', '2.json', '3.json', 'current.json', 'log.json']);
  }, 20_000);

  it('never uses a tenant id as a path, stores hostile ids exactly and refuses ids that break the rule', async () => {
    const hostile = ['../../etc/passwd', '..', '/', 'C:\\Windows', 'acme', 'ACME', '名前 🏢', 'a'.repeat(256)];
    for (const tenant of hostile) expect(await publishFileTenantRoles(folder, tenant, auditors, check)).toBe(1);
    for (const tenant of hostile) expect(await readFileTenantRoles(folder, tenant)).toEqual({ tenant, sequence: 1, document: auditors });
    expect(readdirSync(folder).sort()).toEqual(['index.json', 'tenants']);
    expect(readdirSync(join(folder, 'tenants')).sort()).toEqual(hostile.map(tenantFolderName).sort());
    for (const [tenant, message] of [
      ['a'.repeat(257), 'publish: tenant must be at most 256 characters, got 257.'],
      ['', 'publish: tenant must not be empty.'],
      ['acme\u0000', 'publish: tenant must not contain control or format characters.'],
      ['\u001b[2J', 'publish: tenant must not contain control or format characters.'],
    ] as const)
      await expect(publishFileTenantRoles(folder, tenant, auditors, check)).rejects.toThrow(new PermissionsUsageError(message));
    await expect(readFileTenantRoles(folder, 'a'.repeat(257))).rejects.toThrow('read: tenant must be at most 256 characters, got 257.');
  }, 20_000);

  it("refuses another tenant's files copied under a tenant's hash, and an index that is not the store's", async () => {
    await publishFileTenantRoles(folder, 'acme', auditors, check);
    await publishFileTenantRoles(folder, 'globex', clerks, check);
    const acme = join(folder, 'tenants', tenantFolderName('acme'));
    cpSync(join(folder, 'tenants', tenantFolderName('globex'), 'current.json'), join(acme, 'current.json'));
    await expect(readFileTenantRoles(folder, 'acme')).rejects.toThrow(
      new PermissionsUsageError(
        `The tenant roles file ${join(acme, 'current.json')} holds tenant "globex", not "acme"; it was not written by this store, or was changed by hand.`,
      ),
    );
    const index = join(folder, 'index.json');
    for (const [text, says] of [
      ['null', 'is not an index { format: 1, tenants }'],
      ['[]', 'is not an index { format: 1, tenants }'],
      ['{"format":2,"tenants":{}}', 'is not an index { format: 1, tenants }'],
      [
        `{"format":1,"tenants":{"${tenantFolderName('acme')}":{"tenant":"globex","sequence":1,"publishedAt":"","publishedBy":"","note":"","roles":[]}}}`,
        `has an entry "${tenantFolderName('acme')}" that is not a tenant's summary`,
      ],
    ] as const) {
      writeFileSync(index, text);
      await expect(listFileTenantRoles(folder)).rejects.toThrow(
        new PermissionsUsageError(`The tenant roles file ${index} ${says}; it was not written by this store, or was changed by hand.`),
      );
    }
    writeFileSync(join(acme, 'current.json'), '{"tenant":');
    await expect(readFileTenantRoles(folder, 'acme')).rejects.toThrow(`The tenant roles file ${join(acme, 'current.json')} is not JSON`);
  }, 20_000);

  it('refuses to number a version again when the log lost versions the index names; a log ahead of the index goes on', async () => {
    await publishFileTenantRoles(folder, 'acme', auditors, check);
    await publishFileTenantRoles(folder, 'acme', clerks, check);
    const acme = join(folder, 'tenants', tenantFolderName('acme'));
    const log = join(acme, 'log.json');
    const kept = readFileSync(log, 'utf8');
    rmSync(log);
    const refusal = (what: string) =>
      new PermissionsUsageError(
        `The tenant roles file ${log} ${what} while the index says #2; nothing was changed; it was not written by this store, or was changed by hand.`,
      );
    await expect(publishFileTenantRoles(folder, 'acme', auditors, check)).rejects.toThrow(refusal('is missing or empty'));
    await expect(rollbackFileTenantRoles(folder, 'acme', 1, check)).rejects.toThrow(PermissionsUsageError);
    const older = JSON.parse(kept) as { tenant: string; versions: unknown[] };
    writeFileSync(log, JSON.stringify({ ...older, versions: older.versions.slice(0, 1) }));
    await expect(publishFileTenantRoles(folder, 'acme', auditors, check)).rejects.toThrow(refusal('ends at version #1'));
    // Version 1 was never written over.
    expect((await showFileTenantRoles(folder, 'acme')).versions.map(({ sequence }) => sequence)).toEqual([1]);
    expect(JSON.parse(readFileSync(join(acme, '1.json'), 'utf8'))).toEqual({ tenant: 'acme', sequence: 1, document: auditors });
    // A publish stopped after the log and before the index: the next one numbers on from the log.
    writeFileSync(log, kept);
    const index = JSON.parse(readFileSync(join(folder, 'index.json'), 'utf8')) as { tenants: Record<string, { sequence: number }> };
    (index.tenants[tenantFolderName('acme')] as { sequence: number }).sequence = 1;
    writeFileSync(join(folder, 'index.json'), JSON.stringify(index));
    expect(await publishFileTenantRoles(folder, 'acme', auditors, check)).toBe(3);
  }, 20_000);

  it('holds a document of exactly 1 MiB, and refuses one byte more', async () => {
    expect(await publishFileTenantRoles(folder, 'big', documentOf(MAX_TENANT_ROLES_BYTES), check)).toBe(1);
    expect(JSON.stringify((await readFileTenantRoles(folder, 'big'))?.document).length).toBe(MAX_TENANT_ROLES_BYTES);
    await expect(publishFileTenantRoles(folder, 'big', documentOf(MAX_TENANT_ROLES_BYTES + 1), check)).rejects.toThrow(
      new PermissionsUsageError(
        'The custom roles of tenant "big" take 1048577 bytes as JSON, more than the limit of 1048576; split the tenant\'s roles or remove some.',
      ),
    );
  }, 20_000);

  it('serialises concurrent publishes: one tenant takes consecutive sequences, the index keeps every tenant', async () => {
    const tenants = ['acme', 'globex', 'acme', 'globex', 'acme', 'initech'];
    const sequences = await Promise.all(tenants.map((tenant) => publishFileTenantRoles(folder, tenant, auditors, check)));
    expect(
      tenants
        .map((tenant, index) => [tenant, sequences[index]])
        .filter(([tenant]) => tenant === 'acme')
        .map(([, sequence]) => sequence)
        .sort(),
    ).toEqual([1, 2, 3]);
    const { tenants: listed } = await listFileTenantRoles(folder);
    expect(listed.map(({ tenant, sequence }) => [tenant, sequence])).toEqual([
      ['acme', 3],
      ['globex', 2],
      ['initech', 1],
    ]);
    expect(existsSync(join(folder, '.lock'))).toBe(false);
  }, 20_000);

  it('a lock that is never released refuses a publish after a bounded wait, saying what to do', async () => {
    await publishFileTenantRoles(folder, 'acme', auditors, check);
    writeFileSync(join(folder, '.lock'), '999999');
    const started = Date.now();
    await expect(publishFileTenantRoles(folder, 'acme', clerks, check)).rejects.toThrow(
      new PermissionsUsageError(
        `Another publish has held ${join(folder, '.lock')} for more than 5 s; nothing was changed. ` +
          'If no publish is running (its process died), remove that file and publish again.',
      ),
    );
    expect(Date.now() - started).toBeLessThan(7_000);
    expect((await readFileTenantRoles(folder, 'acme'))?.sequence).toBe(1);
  }, 20_000);

  it('the watch names exactly the tenants whose active version changed', async () => {
    await publishFileTenantRoles(folder, 'acme', auditors, check);
    const source = fileTenantRoles(folder, { pollIntervalMs: 100 });
    expect(source.description).toBe(`tenant roles in folder ${folder}`);
    const changes: (string | undefined)[] = [];
    const failures: unknown[] = [];
    const stop = source.watch?.(
      (tenant) => changes.push(tenant),
      (error) => failures.push(error),
    );
    try {
      await waitFor('the first read of the index', () => changes.length === 1, 5_000);
      expect(changes).toEqual([undefined]);
      await publishFileTenantRoles(folder, '../../etc/passwd', clerks, check);
      await waitFor('the change', () => changes.length === 2, 1_000);
      await publishFileTenantRoles(folder, 'acme', clerks, check);
      await waitFor('the change', () => changes.length === 3, 1_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(changes).toEqual([undefined, '../../etc/passwd', 'acme']);
      expect(await source.read('acme')).toEqual({ tenant: 'acme', sequence: 2, document: clerks });
      // A damaged index is a failure of the watch, told once, not a change; a publish refuses it as well.
      writeFileSync(join(folder, 'index.json'), 'not json');
      await waitFor('the failure', () => failures.length === 1, 2_000);
      expect(String(failures[0])).toContain(`The tenant roles file ${join(folder, 'index.json')} is not JSON`);
      expect(changes).toHaveLength(3);
      await expect(publishFileTenantRoles(folder, 'globex', auditors, check)).rejects.toThrow('is not JSON');
    } finally {
      await stop?.();
    }
  }, 20_000);
});
