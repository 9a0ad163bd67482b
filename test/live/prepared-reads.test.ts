/**
 * A tenant's custom roles are read with a statement the server prepares once per connection: the name is derived
 * from the statement's text (so two stores never share one and it fits the server's 63 bytes), and on the server
 * of TEST_DATABASE_URL (skipped, saying why, without one) a hundred reads on one connection leave exactly one
 * prepared statement there, while the answers stay exact.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { preparedQuery } from '../../runtime/live/postgres-client.js';
import { publishTenantRoles, readTenantRoles, tenantRolesStoreNames } from '../../runtime/live/postgres-tenant-roles-store.js';
import { useServerSchema } from './fixtures/server-schema.js';

describe('preparedQuery', () => {
  it('names a statement after its text, within the server’s 63 bytes', () => {
    const first = preparedQuery('SELECT 1 FROM "a".t WHERE x = $1', ['acme']);
    expect(first).toEqual({ name: expect.stringMatching(/^typed_permissions_[0-9a-f]{32}$/), text: 'SELECT 1 FROM "a".t WHERE x = $1', values: ['acme'] });
    expect(Buffer.byteLength(first.name)).toBeLessThanOrEqual(63);
    expect(preparedQuery('SELECT 1 FROM "a".t WHERE x = $1', ['other']).name).toBe(first.name);
    expect(preparedQuery('SELECT 1 FROM "b".t WHERE x = $1', ['acme']).name).not.toBe(first.name);
  });
});

const serverUrl = process.env['TEST_DATABASE_URL'];
const schema = `prepared_reads_${process.pid}`;
const names = tenantRolesStoreNames({ schema, channel: schema });

if (serverUrl === undefined) console.info('Prepared tenant reads: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

(serverUrl === undefined ? describe.skip : describe)('reading tenants with a prepared statement on the server', () => {
  useServerSchema(serverUrl ?? '', schema);
  const client = new pg.Client({ connectionString: serverUrl });
  afterAll(() => client.end(), 10_000);

  it('prepares the read once per connection and answers every tenant exactly', async () => {
    await client.connect();
    const check = (tenant: string) => `compiled for ${tenant}`;
    const document = (i: number) => ({ definitions: [{ roles: [`ROLE_${i}`], resource: 'document', grant: ['read'] }] });
    for (let i = 0; i < 3; i++) await publishTenantRoles(client, names, `tenant-${i}`, document(i), check);
    for (let round = 0; round < 100; round++) {
      const i = round % 4;
      const read = await readTenantRoles(client, names, `tenant-${i}`);
      expect(read).toEqual(i === 3 ? undefined : { tenant: `tenant-${i}`, sequence: 1, document: document(i), compiled: `compiled for tenant-${i}` });
    }
    const { rows } = await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.statement).toContain(`"${schema}".tenant_role_current`);
  }, 30_000);
});
