/**
 * A tenant publish and a policy publish at the same time, on a PostgreSQL server (TEST_DATABASE_URL). Each checks
 * against the other's state before its transaction: a tenant's roles checked against the version active before
 * must not be stored once another is active, and a version checked against the tenants' roles must not become
 * active once a tenant's roles changed — either would leave custom roles that grant nothing under the active
 * version, while both commands said all was well. The race is made certain by holding the lock one side waits on.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { main } from '../../compiler/commands/main.js';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import type { PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { readCurrentPolicy } from '../../runtime/live/postgres-policy-store.js';
import { readTenantRoles, tenantRolesStoreNames } from '../../runtime/live/postgres-tenant-roles-store.js';
import { postgresTenantRolesAdmin, type TenantRolesAdmin } from '../../runtime/live/tenant-roles-admin.js';
import { collectIo } from '../compiler/helpers.js';
import { useServerSchema } from './fixtures/server-schema.js';

const serverUrl = process.env['TEST_DATABASE_URL'];

async function run(argv: readonly string[]) {
  const { logs, errors, io } = collectIo();
  return { code: await main(argv, io), logs, errors };
}

/** A definitions folder granting READER `read` on each of `resources`. */
function folder(dir: string, resources: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'app.permissions.json'),
    JSON.stringify({ definitions: resources.map((resource) => ({ roles: ['READER'], resource, grant: ['read'] })) }),
  );
  return dir;
}

const auditing = (resource: string) => ({ definitions: [{ roles: ['AUDITOR'], resource, grant: ['read'] }] });

if (serverUrl === undefined) console.info('tenant and policy publish races: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

(serverUrl === undefined ? describe.skip : describe)('a tenant publish and a policy publish at once', () => {
  const schema = `publish_races_${process.pid}`;
  const { store, admin: client } = useServerSchema(serverUrl as string, schema);
  const names = tenantRolesStoreNames({ schema, channel: schema });
  const temp = mkdtempSync(join(tmpdir(), 'publish-races-'));
  const admins: TenantRolesAdmin[] = [];
  let locker: pg.Client;

  /** Holds the advisory lock of `key` in a transaction of `locker` until `release` is called. */
  async function hold(key: string, extended: boolean): Promise<() => Promise<void>> {
    await locker.query('BEGIN');
    await locker.query(extended ? 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))' : 'SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
    return async () => void (await locker.query('COMMIT'));
  }

  /** Waits until some session waits for an advisory lock (the other side reached its transaction). */
  async function someoneWaits(): Promise<void> {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const { rows } = await client().query<{ waiting: string }>("SELECT count(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
      if (Number(rows[0]?.waiting) > 0) return;
    }
    throw new Error('nobody waited for the lock within 10 s');
  }

  const active = async () => ((await readCurrentPolicy(client(), names))?.bundle as PolicyBundle | undefined)?.version;

  beforeAll(async () => {
    locker = new pg.Client({ connectionString: serverUrl });
    await locker.connect();
    expect((await run(['policy', 'publish', folder(join(temp, 'v1'), ['invoice', 'note']), ...store(), '--yes'])).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(admins.map((admin) => admin.close()));
    await locker.end();
    rmSync(temp, { recursive: true, force: true });
  });

  it("a tenant's roles checked against the version active before are not stored once another is active", async () => {
    const admin = postgresTenantRolesAdmin({ connectionString: serverUrl as string, schema, channel: schema });
    admins.push(admin);
    const checkedAgainst = await active();
    const release = await hold(`typed-permissions:${schema}:tenant:acme`, true);
    // Checked against v1 (which has invoices), then waiting for the tenant's lock.
    const publishing = admin.publish('acme', auditing('invoice')).then(
      () => undefined,
      (error: unknown) => error,
    );
    await someoneWaits();
    expect((await run(['policy', 'publish', folder(join(temp, 'v2'), ['note']), ...store(), '--yes'])).code).toBe(0);
    const now = await active();
    await release();
    expect(await publishing).toEqual(
      new PermissionsUsageError(
        `The policy store's active version changed while the custom roles of tenant "acme" were checked (${checkedAgainst} is now ${now}); ` +
          'nothing was changed. Publish again, to check them against it.',
      ),
    );
    expect(await readTenantRoles(client(), names, 'acme')).toBeUndefined();
  }, 60_000);

  it("a version checked against the tenants' roles does not become active once a tenant's roles changed", async () => {
    const before = await active();
    const bundle = (await readCurrentPolicy(client(), names))?.bundle as PolicyBundle;
    // An admin checking against a policy of its own takes no lock of the store: the publish must see its change.
    const own = postgresTenantRolesAdmin({ connectionString: serverUrl as string, schema, channel: schema, policy: bundle });
    admins.push(own);
    const release = await hold(`typed-permissions:${schema}`, false);
    const publishing = run(['policy', 'publish', folder(join(temp, 'v3'), ['note', 'memo']), ...store(), '--yes']);
    await someoneWaits();
    expect(await own.publish('delta', auditing('note'))).toEqual({ sequence: 1 });
    await release();
    const { code, errors } = await publishing;
    expect([code, errors]).toEqual([
      1,
      [
        "typed-permissions: A tenant's custom roles were published while this version was checked against them; nothing was published. " +
          'Publish again, to check them as they are now.',
      ],
    ]);
    expect(await active()).toBe(before);
    // Asked again, it checks the tenant's roles as they are, and publishes.
    expect((await run(['policy', 'publish', join(temp, 'v3'), ...store(), '--yes'])).code).toBe(0);
  }, 60_000);
});
