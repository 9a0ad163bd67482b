/**
 * Creating the stores from many connections at once, on the server of TEST_DATABASE_URL (skipped, saying why,
 * without one). Each connection first looks the schema up and finds nothing, as a follower does before it creates
 * the store: PostgreSQL remembers that answer, and an advisory lock does not make it look again, so without care
 * every creator but the first fails on the catalog's unique index (23505) instead of finding the schema there.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ensurePolicyStore, storeNames } from '../../runtime/live/postgres-policy-store.js';
import { ensureTenantRolesStore, tenantRolesStoreNames } from '../../runtime/live/postgres-tenant-roles-store.js';

const serverUrl = process.env['TEST_DATABASE_URL'];
const CREATORS = 8;

if (serverUrl === undefined) console.info('Store creation race: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

(serverUrl === undefined ? describe.skip : describe)(`stores created from ${CREATORS} connections at once`, () => {
  const policySchema = `creation_race_policy_${process.pid}`;
  const tenantSchema = `creation_race_tenants_${process.pid}`;
  const warmUpSchema = `creation_race_warm_up_${process.pid}`;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    for (let index = 0; index < CREATORS; index += 1) {
      const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
      await client.connect();
      clients.push(client);
      // One at a time, so that no connection meets the race cold: a first run reads the catalogs slowly enough
      // that the creators would no longer start together.
      await client.query('BEGIN');
      await ensurePolicyStore(client, storeNames({ schema: warmUpSchema, channel: warmUpSchema }));
      await client.query('COMMIT');
      await ensureTenantRolesStore(client, tenantRolesStoreNames({ schema: warmUpSchema, channel: warmUpSchema }));
    }
  }, 30_000);

  afterAll(async () => {
    for (const schema of [policySchema, tenantSchema, warmUpSchema]) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await Promise.all(clients.map((client) => client.end()));
    await admin.end();
  }, 30_000);

  /** Drops `schema`, has every connection look it up (and miss), then runs `create` on all of them at once. */
  async function raceOn(schema: string, create: (client: pg.Client) => Promise<void>): Promise<PromiseSettledResult<void>[]> {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    for (const client of clients) {
      const { rows } = await client.query<{ oid: string | null }>('SELECT to_regnamespace($1) AS oid', [schema]);
      expect(rows).toEqual([{ oid: null }]);
    }
    return Promise.allSettled(clients.map(create));
  }

  it('the policy store: every creator succeeds and the store has one identity', async () => {
    const names = storeNames({ schema: policySchema, channel: policySchema });
    const results = await raceOn(policySchema, async (client) => {
      await client.query('SELECT to_regclass($1)', [`${policySchema}.policy_current`]);
      await client.query('BEGIN');
      try {
        await ensurePolicyStore(client, names);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    });
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect((await admin.query(`SELECT count(*)::int AS n FROM ${policySchema}.policy_store`)).rows).toEqual([{ n: 1 }]);
  }, 30_000);

  it('the tenant roles store: every creator succeeds and its tables are there', async () => {
    const names = tenantRolesStoreNames({ schema: tenantSchema, channel: tenantSchema });
    const results = await raceOn(tenantSchema, (client) => ensureTenantRolesStore(client, names));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const tables = await admin.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [tenantSchema]);
    expect(tables.rows.map((row: { table_name: string }) => row.table_name)).toEqual(['tenant_role_current', 'tenant_role_versions']);
  }, 30_000);
});
