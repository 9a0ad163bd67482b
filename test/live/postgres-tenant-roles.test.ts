/**
 * Tenants' custom roles in the PostgreSQL store, on the server of TEST_DATABASE_URL (skipped, saying why, without
 * one): the tables are created by the first publish; versions are numbered per tenant; a rollback publishes an
 * earlier document under a new sequence; publishes to two tenants never wait for each other while one tenant's
 * are serialised; hostile tenant ids are stored and read back exactly, or refused; the watch names exactly the
 * tenant of each publish and says `changed(undefined)` after a reconnect; the document size limit holds at and
 * past 1 MiB; 10,000 tenants list in pages.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import {
  listTenantRoles,
  publishTenantRoles,
  readTenantRoles,
  storeCompiledTenantRoles,
  rollbackTenantRoles,
  showTenantRoles,
  tenantRolesStoreNames,
} from '../../runtime/live/postgres-tenant-roles-store.js';
import { postgresTenantRoles } from '../../runtime/live/postgres-tenant-roles.js';
import { MAX_TENANT_ROLES_BYTES, type TenantRolesCheck } from '../../runtime/live/tenant-roles-document.js';
import { waitFor } from '../compiler/helpers.js';
import { useServerSchema } from './fixtures/server-schema.js';

const serverUrl = process.env['TEST_DATABASE_URL'];
const schema = `tenant_roles_${process.pid}`;
const names = tenantRolesStoreNames({ schema, channel: schema });

/** What the stand-in check gives as a document's compiled form (its roles: the same after jsonb reorders its keys). */
const compiledOf = (document: unknown): string =>
  `compiled ${JSON.stringify(((document as { definitions?: { roles?: unknown }[] }).definitions ?? []).map((definition) => definition.roles))}`;

/** Stands in for the engine's check: refuses a document that says so, and records what it was asked. */
const checked: string[] = [];
const check: TenantRolesCheck = (tenant, document) => {
  checked.push(tenant);
  if ((document as { refuse?: unknown }).refuse === true) throw new PermissionsUsageError(`refused for ${tenant}`);
  return compiledOf(document);
};

const auditors = { definitions: [{ roles: ['AUDITOR'], resource: 'document', grant: ['read:any'] }] };
const clerks = {
  definitions: [
    { roles: ['CLERK', 'AUDITOR'], resource: 'document', grant: ['update:own'] },
    { roles: '*', resource: 'document', grant: ['read'] },
  ],
};

/** A document whose JSON text is exactly `bytes` long. */
function documentOf(bytes: number): unknown {
  const empty = JSON.stringify({ definitions: [], pad: '' }).length;
  return { definitions: [], pad: 'x'.repeat(bytes - empty) };
}

if (serverUrl === undefined) console.info('PostgreSQL tenant roles: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

(serverUrl === undefined ? describe.skip : describe)('tenant roles in the PostgreSQL store', () => {
  const { admin } = useServerSchema(serverUrl ?? '', schema);
  const clients: pg.Client[] = [];
  /** A dedicated connection of the test's (ended after the block). */
  async function connection(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    return client;
  }
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  });

  it('reads nothing before the first publish, without creating anything', async () => {
    expect(await readTenantRoles(admin(), names, 'acme')).toBeUndefined();
    expect(await listTenantRoles(admin(), names)).toEqual({ tenants: [] });
    expect(await showTenantRoles(admin(), names, 'acme')).toEqual({ tenant: 'acme', versions: [] });
    const { rows } = await admin().query('SELECT to_regclass($1) AS t', [`${schema}.tenant_role_current`]);
    expect(rows).toEqual([{ t: null }]);
  }, 20_000);

  it('publishes, numbers per tenant, shows and lists', async () => {
    const client = await connection();
    checked.length = 0;
    expect(await publishTenantRoles(client, names, 'acme', auditors, check, { publishedBy: 'ana', note: 'spring audit' })).toBe(1);
    expect(await publishTenantRoles(client, names, 'acme', clerks, check)).toBe(2);
    expect(await publishTenantRoles(client, names, 'globex', auditors, check, { publishedBy: 'bo' })).toBe(1);
    expect(checked).toEqual(['acme', 'acme', 'globex']);
    expect(await readTenantRoles(admin(), names, 'acme')).toEqual({ tenant: 'acme', sequence: 2, document: clerks, compiled: compiledOf(clerks) });
    const shown = await showTenantRoles(admin(), names, 'acme');
    expect(shown.versions.map(({ sequence, publishedBy, note, roles, active }) => ({ sequence, publishedBy, note, roles, active }))).toEqual([
      { sequence: 2, publishedBy: 'postgres', note: '', roles: ['AUDITOR', 'CLERK'], active: true },
      { sequence: 1, publishedBy: 'ana', note: 'spring audit', roles: ['AUDITOR'], active: false },
    ]);
    expect(shown.active).toEqual({ sequence: 2, document: clerks });
    expect(Date.parse(shown.versions[0]?.publishedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const listed = await listTenantRoles(admin(), names);
    expect(listed.tenants.map(({ tenant, sequence, publishedBy, roles }) => ({ tenant, sequence, publishedBy, roles }))).toEqual([
      { tenant: 'acme', sequence: 2, publishedBy: 'postgres', roles: ['AUDITOR', 'CLERK'] },
      { tenant: 'globex', sequence: 1, publishedBy: 'bo', roles: ['AUDITOR'] },
    ]);
    expect(listed.next).toBeUndefined();
  }, 20_000);

  it('a document the check refuses is not stored', async () => {
    const client = await connection();
    await expect(publishTenantRoles(client, names, 'acme', { definitions: [], refuse: true }, check)).rejects.toThrow('refused for acme');
    expect(await readTenantRoles(admin(), names, 'acme')).toEqual({ tenant: 'acme', sequence: 2, document: clerks, compiled: compiledOf(clerks) });
  }, 20_000);

  it('rolls back by publishing an earlier document again; a version that does not exist changes nothing', async () => {
    const client = await connection();
    expect(await rollbackTenantRoles(client, names, 'acme', 1, check)).toBe(3);
    expect(await readTenantRoles(admin(), names, 'acme')).toEqual({ tenant: 'acme', sequence: 3, document: auditors, compiled: compiledOf(auditors) });
    expect((await showTenantRoles(admin(), names, 'acme')).versions[0]).toMatchObject({ sequence: 3, note: 'rollback to 1', active: true });
    await expect(rollbackTenantRoles(client, names, 'acme', 9, check)).rejects.toThrow(
      new PermissionsUsageError('Tenant "acme" has no version 9 of custom roles; see `typed-permissions tenant show`.'),
    );
    await expect(rollbackTenantRoles(client, names, 'acme', 0, check)).rejects.toThrow("A version's sequence is a positive integer, got 0.");
    expect((await readTenantRoles(admin(), names, 'acme'))?.sequence).toBe(3);
  }, 20_000);

  it('gives the compiled form only with the document it was compiled from; a compile for a policy replaces it for that version only', async () => {
    const client = await connection();
    expect(await publishTenantRoles(client, names, 'compiled', auditors, check)).toBe(1);
    // Changed by hand in the table: the compiled form is of the old document, so it is not given.
    await admin().query(`UPDATE ${schema}.tenant_role_versions SET document = $1::jsonb WHERE tenant = 'compiled'`, [JSON.stringify(clerks)]);
    expect(await readTenantRoles(admin(), names, 'compiled')).toEqual({ tenant: 'compiled', sequence: 1, document: clerks });
    expect(
      await storeCompiledTenantRoles(client, names, [
        { tenant: 'compiled', sequence: 1, compiled: 'compiled again' },
        { tenant: 'compiled', sequence: 2, compiled: 'no such version' },
        { tenant: 'nobody', sequence: 1, compiled: 'no such tenant' },
      ]),
    ).toBe(1);
    expect(await readTenantRoles(admin(), names, 'compiled')).toEqual({ tenant: 'compiled', sequence: 1, document: clerks, compiled: 'compiled again' });
    expect(await storeCompiledTenantRoles(client, names, [])).toBe(0);
    // A form the store holds for no document (the column emptied by hand) is not given either.
    await admin().query(`UPDATE ${schema}.tenant_role_versions SET compiled_document = NULL WHERE tenant = 'compiled'`);
    expect(await readTenantRoles(admin(), names, 'compiled')).toEqual({ tenant: 'compiled', sequence: 1, document: clerks });
  }, 20_000);

  it('stores hostile tenant ids exactly, and refuses ids that break the rule', async () => {
    const client = await connection();
    const hostile = ['../../etc/passwd', "x'); DROP TABLE tenant_role_current; --", 'ACME', 'acme ', '名前 🏢', '%', 'a'.repeat(256)];
    for (const tenant of hostile) expect(await publishTenantRoles(client, names, tenant, auditors, check)).toBe(1);
    for (const tenant of hostile)
      expect(await readTenantRoles(admin(), names, tenant)).toEqual({ tenant, sequence: 1, document: auditors, compiled: compiledOf(auditors) });
    expect(await readTenantRoles(admin(), names, 'acme')).toEqual({ tenant: 'acme', sequence: 3, document: auditors, compiled: compiledOf(auditors) });
    for (const [tenant, message] of [
      ['a'.repeat(257), 'publish: tenant must be at most 256 characters, got 257.'],
      ['', 'publish: tenant must not be empty.'],
      ['acme\u0000', 'publish: tenant must not contain control or format characters.'],
      ['ac\nme', 'publish: tenant must not contain control or format characters.'],
      ['\u202eemca', 'publish: tenant must not contain control or format characters.'],
    ] as const)
      await expect(publishTenantRoles(client, names, tenant, auditors, check)).rejects.toThrow(new PermissionsUsageError(message));
    await expect(readTenantRoles(admin(), names, 'a'.repeat(257))).rejects.toThrow('read: tenant must be at most 256 characters, got 257.');
  }, 30_000);

  it('holds a document of exactly 1 MiB, and refuses one byte more', async () => {
    const client = await connection();
    expect(await publishTenantRoles(client, names, 'big', documentOf(MAX_TENANT_ROLES_BYTES), check)).toBe(1);
    expect(JSON.stringify((await readTenantRoles(admin(), names, 'big'))?.document).length).toBe(MAX_TENANT_ROLES_BYTES);
    await expect(publishTenantRoles(client, names, 'big', documentOf(MAX_TENANT_ROLES_BYTES + 1), check)).rejects.toThrow(
      new PermissionsUsageError(
        'The custom roles of tenant "big" take 1048577 bytes as JSON, more than the limit of 1048576; split the tenant\'s roles or remove some.',
      ),
    );
    expect((await readTenantRoles(admin(), names, 'big'))?.sequence).toBe(1);
  }, 30_000);

  it("serialises one tenant's publishes, and never makes another tenant's wait", async () => {
    const [holder, first, second] = [await connection(), await connection(), await connection()];
    // Another publish to "acme" in flight: its transaction holds the tenant's lock.
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`typed-permissions:${schema}:tenant:acme`]);
    let acmeDone = false;
    const acme = publishTenantRoles(first, names, 'acme', clerks, check).then((sequence) => {
      acmeDone = true;
      return sequence;
    });
    const started = Date.now();
    expect(await publishTenantRoles(second, names, 'globex', clerks, check)).toBe(2);
    expect(Date.now() - started).toBeLessThan(2000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(acmeDone).toBe(false);
    await holder.query('COMMIT');
    expect(await acme).toBe(4);
  }, 20_000);

  it('concurrent publishes: to one tenant they take consecutive sequences, to two they proceed side by side', async () => {
    const connections = await Promise.all([1, 2, 3, 4, 5, 6].map(() => connection()));
    const sequences = await Promise.all(
      connections.map((client, index) => publishTenantRoles(client, names, index % 2 === 0 ? 'initech' : 'hooli', auditors, check)),
    );
    expect(sequences.filter((_, index) => index % 2 === 0).sort()).toEqual([1, 2, 3]);
    expect(sequences.filter((_, index) => index % 2 === 1).sort()).toEqual([1, 2, 3]);
    const { rows } = await admin().query(`SELECT tenant, sequence FROM ${schema}.tenant_role_current WHERE tenant IN ('initech', 'hooli') ORDER BY tenant`);
    expect(rows).toEqual([
      { tenant: 'hooli', sequence: 3 },
      { tenant: 'initech', sequence: 3 },
    ]);
  }, 20_000);

  it('the watch names exactly the tenant of each publish, and says every tenant after a reconnect', async () => {
    const source = postgresTenantRoles({ connectionString: serverUrl ?? '', schema, channel: schema, reconnectDelayMs: 50 });
    const changes: (string | undefined)[] = [];
    const failures: unknown[] = [];
    const stop = source.watch?.(
      (tenant) => changes.push(tenant),
      (error) => failures.push(error),
    );
    try {
      await waitFor('the first LISTEN', () => changes.length === 1, 10_000);
      expect(changes).toEqual([undefined]);
      const client = await connection();
      await publishTenantRoles(client, names, '../../etc/passwd', clerks, check);
      await waitFor('the notification', () => changes.length === 2, 1_000);
      await publishTenantRoles(client, names, 'globex', auditors, check);
      await waitFor('the notification', () => changes.length === 3, 1_000);
      expect(changes).toEqual([undefined, '../../etc/passwd', 'globex']);
      expect(await source.read('globex')).toEqual({ tenant: 'globex', sequence: 3, document: auditors, compiled: compiledOf(auditors) });
      // The listener's connection is cut by the server: it comes back and says any tenant may have changed.
      const { rows } = await admin().query<{ ended: boolean }>(
        'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()',
        [`LISTEN "${schema}"`],
      );
      expect(rows).toEqual([{ ended: true }]);
      await waitFor('the reconnect', () => changes.length === 4, 10_000);
      expect(changes.at(-1)).toBeUndefined();
      expect(failures.length).toBeGreaterThanOrEqual(1);
      await publishTenantRoles(client, names, 'acme', auditors, check);
      await waitFor('the notification after the reconnect', () => changes.length === 5, 1_000);
      expect(changes.at(-1)).toBe('acme');
    } finally {
      await stop?.();
    }
  }, 30_000);

  it('lists 10,000 tenants in pages of 1,000, in order, each once', async () => {
    await admin().query(
      `INSERT INTO ${schema}.tenant_role_versions (tenant, sequence, document, roles)
         SELECT 'bulk-' || lpad(n::text, 5, '0'), 1, '{"definitions":[]}', '{}' FROM generate_series(1, 10000) n`,
    );
    await admin().query(
      `INSERT INTO ${schema}.tenant_role_current (tenant, sequence) SELECT 'bulk-' || lpad(n::text, 5, '0'), 1 FROM generate_series(1, 10000) n`,
    );
    const seen: string[] = [];
    let page = await listTenantRoles(admin(), names, { after: 'bulk-', limit: 1000 });
    for (let pages = 1; ; pages += 1) {
      seen.push(...page.tenants.map(({ tenant }) => tenant));
      if (page.next === undefined || !page.next.startsWith('bulk-')) break;
      expect(pages).toBeLessThan(12);
      page = await listTenantRoles(admin(), names, { after: page.next, limit: 1000 });
    }
    const bulk = seen.filter((tenant) => tenant.startsWith('bulk-'));
    expect(bulk).toHaveLength(10_000);
    expect(bulk[0]).toBe('bulk-00001');
    expect(bulk.at(-1)).toBe('bulk-10000');
    expect(new Set(bulk).size).toBe(10_000);
    await expect(listTenantRoles(admin(), names, { limit: 1001 })).rejects.toThrow('A page of tenants holds 1 to 1000 tenants, got 1001.');
  }, 30_000);
});
