/**
 * A store that is dropped and created again, or restored from a backup, never freezes a running replica on a
 * revoked grant. Six instances follow one store on a PostgreSQL server, each its own process: three notified
 * (polling only every 30 s, so what reaches them in seconds came by notification) and three that never get a
 * notification (listening on another channel, polling every 2 s). The store is dropped and a revocation published
 * into the new one (numbering starts again at 1); later the store is rewound as a restore would (the newest
 * entries gone, the pointer and the numbering back) and another revocation published at a sequence below the one
 * the instances hold. Every instance refuses the revoked grant: the notified within the wait, the others within
 * one poll interval. Needs TEST_DATABASE_URL (.ci/run starts a server); without one it says so and skips.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Permissions } from '../../runtime/permissions/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { publishPolicy, storeNames } from '../../runtime/live/postgres-policy-store.js';
import type { PgClient } from '../../runtime/live/postgres-client.js';
import { isReady, lastChange, until, useFollowerProcesses, type Follower } from './fixtures/follower-processes.js';

const databaseUrl = process.env['TEST_DATABASE_URL'];
const NOTIFIED_POLL_MS = 30_000;
const DEAF_POLL_MS = 2_000;
/** What a poll may take beyond its interval: the read of the store and the check of the version. */
const READ_ALLOWANCE_MS = 1_000;

/** READER's grants on doc (ids numbers, as the instances' vocabulary has them). */
function bundle(grant: readonly string[]): PolicyBundle {
  const permissions = new Permissions({ resourceIdTypes: { doc: 'number' }, logger: { warn: () => undefined } });
  permissions.addPermissions([{ roles: ['READER', 'WRITER'], resource: 'doc', grant: [...grant] }]).build();
  return policyBundleOf(permissions.tables);
}

const describeWithServer = databaseUrl === undefined ? describe.skip : describe;
if (databaseUrl === undefined) console.info('a recreated policy store: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

describeWithServer('a policy store dropped and created again, or restored from a backup, with six followers', () => {
  const names = storeNames({ schema: `recreated_${process.pid}`, channel: `recreated_${process.pid}` });
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-recreated-'));
  const baseFile = join(folder, 'base.json');
  const startFollower = useFollowerProcesses({ databaseUrl: databaseUrl as string, schema: names.schema, baseFile });
  const notified: Follower[] = [];
  const deaf: Follower[] = [];
  let client: PgClient;

  /** The revoked grant is refused: the follower's last change took a version under which READER reads nothing. */
  const refuses = (follower: Follower, version: string) => lastChange(follower)?.version === version && lastChange(follower)?.reads === false;

  async function publishAndAwait(next: PolicyBundle): Promise<{ sequence: number; delays: number[] }> {
    const at = Date.now();
    const sequence = await publishPolicy(client, names, next);
    await until('every notified follower to refuse', () => notified.every((follower) => refuses(follower, next.version)), 10_000);
    await until('every unnotified follower to refuse', () => deaf.every((follower) => refuses(follower, next.version)), DEAF_POLL_MS + 10_000);
    const delays = deaf.map((follower) => (follower.events.find((event) => event.event === 'change' && event.version === next.version)?.at ?? Infinity) - at);
    return { sequence, delays };
  }

  beforeAll(async () => {
    writeFileSync(baseFile, JSON.stringify(bundle(['read:any'])));
    client = new pg.Client({ connectionString: databaseUrl }) as unknown as PgClient;
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${names.schema}" CASCADE`);
    // The store has run a while: its active version is #4, which READER may read with.
    for (const grant of [['read:any'], ['read:any', 'list:any'], ['read:any', 'create:any'], ['read:any', 'update:any']])
      await publishPolicy(client, names, bundle(grant));
    for (let i = 0; i < 3; i++) notified.push(startFollower(names.channel, NOTIFIED_POLL_MS));
    for (let i = 0; i < 3; i++) deaf.push(startFollower(`${names.channel}_elsewhere`, DEAF_POLL_MS));
    await until('six followers ready', () => [...notified, ...deaf].every(isReady), 60_000);
  }, 90_000);

  afterAll(async () => {
    await client.query(`DROP SCHEMA IF EXISTS "${names.schema}" CASCADE`).catch(() => undefined);
    await client.end();
    rmSync(folder, { recursive: true, force: true });
  }, 30_000);

  it('every follower starts on #4 of the store, and may read', () => {
    for (const follower of [...notified, ...deaf]) expect(follower.events.find((event) => event.event === 'ready')).toMatchObject({ sequence: 4, reads: true });
  });

  it('dropped and created again: a revocation published as #1 of the new store is refused by all six', async () => {
    const [before] = (await client.query<{ identity: string }>(`SELECT identity FROM "${names.schema}".policy_store`)).rows;
    await client.query(`DROP SCHEMA "${names.schema}" CASCADE`);
    const revoked = bundle(['update:any']);
    const { sequence, delays } = await publishAndAwait(revoked);
    const [after] = (await client.query<{ identity: string }>(`SELECT identity FROM "${names.schema}".policy_store`)).rows;
    expect(sequence).toBe(1);
    expect(after?.identity).not.toBe(before?.identity);
    for (const follower of [...notified, ...deaf]) {
      expect(lastChange(follower)).toMatchObject({ version: revoked.version, sequence: 1, store: after?.identity, storeChange: 'replaced', reads: false });
      // Said loudly, whatever onChange does.
      expect(follower.events.filter((event) => event.event === 'warning').map((event) => event.message)).toContainEqual(
        expect.stringMatching(
          /the policy store of PostgreSQL store recreated_\d+ at .* was replaced: its identity is .*; its active version .* \(#1\) replaces .* \(#4\)\./,
        ),
      );
    }
    // Without notifications, one poll interval (and the read it starts) was enough.
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(DEAF_POLL_MS + READ_ALLOWANCE_MS);
  }, 60_000);

  it('restored from a backup: a revocation published at a sequence below the followers’ is refused by all six', async () => {
    for (const grant of [['read:any'], ['read:any', 'create:any']]) await publishPolicy(client, names, bundle(grant));
    await until('every follower on #3', () => [...notified, ...deaf].every((follower) => lastChange(follower)?.sequence === 3), DEAF_POLL_MS + 10_000);
    // What a restore of the backup taken at #1 leaves: #2 and #3 gone, the pointer and the numbering back at #1.
    await client.query('BEGIN');
    await client.query(`UPDATE "${names.schema}".policy_current SET sequence = 1`);
    await client.query(`DELETE FROM "${names.schema}".policy_versions WHERE sequence > 1`);
    await client.query(`SELECT setval(pg_get_serial_sequence('"${names.schema}".policy_versions', 'sequence'), 1)`);
    await client.query('COMMIT');
    const revokedAgain = bundle(['update:any', 'delete:any']);
    const { sequence, delays } = await publishAndAwait(revokedAgain);
    expect(sequence).toBe(2);
    for (const follower of [...notified, ...deaf]) expect(lastChange(follower)).toMatchObject({ version: revokedAgain.version, sequence: 2, reads: false });
    for (const follower of notified) expect(lastChange(follower)?.storeChange).toBe('rewound');
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(DEAF_POLL_MS + READ_ALLOWANCE_MS);
  }, 60_000);
});
