/**
 * A follower's registration in a PostgreSQL store, on the server of TEST_DATABASE_URL (skipped, saying why, without
 * one). A follower that starts before anything was published creates the store, so that it can register; a store
 * whose tables go away after it registered was dropped, and the follower never makes it again: that would turn a
 * dropped store into an empty one, kept there against whoever dropped it. It says so once, and registers again
 * when the store is back.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { followerRegistration } from '../../runtime/live/postgres-follower-registration.js';
import { ensurePolicyStore, storeNames } from '../../runtime/live/postgres-policy-store.js';
import type { FollowerStatus } from '../../runtime/live/policy-source.js';

const serverUrl = process.env['TEST_DATABASE_URL'];

if (serverUrl === undefined) console.info('Follower registration: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

/** Polls `check` every 20 ms until it holds, for at most 10 s. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

(serverUrl === undefined ? describe.skip : describe)('a follower registering in a PostgreSQL store', () => {
  const schema = `registration_${process.pid}`;
  const names = storeNames({ schema, channel: schema });
  const status = (): FollowerStatus => ({
    version: undefined,
    sequence: undefined,
    store: undefined,
    capabilities: { vocabulary: undefined, ownershipMethods: [] },
    lastRejection: undefined,
  });
  let pool: pg.Pool;

  const schemaExists = async () => (await pool.query<{ oid: string | null }>('SELECT to_regnamespace($1) AS oid', [schema])).rows[0]?.oid !== null;
  const registrations = async () => Number((await pool.query<{ count: string }>(`SELECT count(*) FROM "${schema}".policy_followers`)).rows[0]?.count);

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: serverUrl, max: 2 });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }, 30_000);

  it('creates the store when it starts before any publish, and never again once the store was dropped', async () => {
    const problems: string[] = [];
    const registration = followerRegistration(
      () => Promise.resolve(pool),
      names,
      `PostgreSQL store ${schema}`,
      status,
      (error) => problems.push((error as Error).message),
    );
    try {
      await until('the first registration', async () => (await schemaExists()) && (await registrations()) === 1);
      await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      registration.changed();
      registration.changed();
      await until('the complaint', () => Promise.resolve(problems.length > 0));
      expect(problems).toEqual([
        `this follower cannot register itself in PostgreSQL store ${schema} (the store's tables are gone (dropped after this follower registered; ` +
          'it does not make them again)); it follows the store as before, but `typed-permissions policy publish` cannot check versions against it.',
      ]);
      expect(await schemaExists()).toBe(false);

      // Made again by whoever publishes next: the follower registers there, and says nothing more.
      const client = await pool.connect();
      await client.query('BEGIN');
      await ensurePolicyStore(client, names);
      await client.query('COMMIT');
      client.release();
      registration.changed();
      await until('the registration in the store made again', async () => (await registrations()) === 1);
      expect(problems).toHaveLength(1);
    } finally {
      await registration.close();
    }
    expect(await registrations()).toBe(0);
  }, 30_000);
});
