/**
 * `postgresPolicySource` checks its listening connection: when the server goes away without a word (a failover
 * behind a proxy: every connection made so far silently drops what it carries, new ones reach a healthy server),
 * the bounded `SELECT 1` of the next ping finds it out, says it through `onError`, and listens again, so that the
 * next version arrives by notification rather than at the next poll. The server is "lost" by a TCP proxy in front
 * of the real one, so nothing else using that server is disturbed. Needs TEST_DATABASE_URL (.ci/run starts a server).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Permissions, type User } from '../../runtime/permissions/index.js';
import { postgresPolicySource, type LivePolicy } from '../../runtime/live/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import type { PgClient } from '../../runtime/live/postgres-client.js';
import { publishPolicy, storeNames } from '../../runtime/live/postgres-policy-store.js';

const databaseUrl = process.env['TEST_DATABASE_URL'];
const describeWithServer = databaseUrl === undefined ? describe.skip : describe;
if (databaseUrl === undefined) console.info('the policy source ping: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

/** A TCP proxy whose connections can all be blackholed at once: nothing passes any more, nothing is closed. */
class BlackholingProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<{ dead: boolean; sockets: Socket[] }>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      const pair = { dead: false, sockets: [client, upstream] };
      this.pairs.add(pair);
      for (const socket of pair.sockets) socket.on('error', () => (client.destroy(), upstream.destroy()));
      client.on('close', () => (upstream.destroy(), this.pairs.delete(pair)));
      upstream.on('close', () => client.destroy());
      client.on('data', (data: Buffer) => pair.dead || upstream.write(data));
      upstream.on('data', (data: Buffer) => pair.dead || client.write(data));
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
  }

  /** Every connection made so far goes silent; new connections pass. */
  blackhole(): void {
    for (const pair of this.pairs) pair.dead = true;
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) for (const socket of pair.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

function bundle(grant: readonly string[]): PolicyBundle {
  const permissions = new Permissions({ resourceIdTypes: { doc: 'number' }, logger: { warn: () => undefined } });
  permissions.addPermissions([{ roles: ['READER'], resource: 'doc', grant: [...grant] }]).build();
  return policyBundleOf(permissions.tables);
}

async function until(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until a connection of the server listens on `channel` (its last statement is the LISTEN), at most 10 s. */
async function untilListening(client: PgClient, channel: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  const listening = async () =>
    (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1`, [`LISTEN "${channel}"`])).rows[0]?.n ?? 0;
  while ((await listening()) === 0) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for a connection listening on ${channel}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithServer('postgresPolicySource: a listening connection lost without a word', () => {
  const names = storeNames({ schema: `ping_${process.pid}`, channel: `ping_${process.pid}` });
  const target = new URL(databaseUrl as string);
  const proxy = new BlackholingProxy({ host: target.hostname, port: Number(target.port) });
  let client: PgClient;
  let live: LivePolicy | undefined;

  beforeAll(async () => {
    await proxy.open();
    client = new pg.Client({ connectionString: databaseUrl }) as unknown as PgClient;
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${names.schema}" CASCADE`);
  });

  afterAll(async () => {
    await live?.close();
    await client.query(`DROP SCHEMA IF EXISTS "${names.schema}" CASCADE`);
    await client.end();
    await proxy.close();
  });

  it('is found out by the ping, said through onError, and listened to again: the next version arrives by notification', async () => {
    const [v1, v2] = [bundle(['read:any']), bundle(['update:any'])];
    await publishPolicy(client, names, v1);
    const proxied = new URL(databaseUrl as string);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const permissions = Permissions.fromTables<User<number>>(v1, { logger: { warn: () => undefined } });
    const errors: string[] = [];
    // The poll is far away: whatever arrives within the test came by notification.
    const source = postgresPolicySource({
      ...names,
      connectionString: proxied.href,
      pollIntervalMs: 600_000,
      pingIntervalMs: 100,
      reconnectDelayMs: 50,
      register: false,
    });
    live = await permissions.follow(source, { onError: (error) => errors.push((error as Error).message), readTimeoutMs: 3000 });
    expect(live.sequence).toBe(1);
    // Only once the listening connection has listened: a connection still starting when the proxy goes silent would
    // fail its connect (another timeout, another message) rather than its ping.
    await untilListening(client, names.channel);
    proxy.blackhole();
    // The ping's SELECT 1 is bounded by the listener's statement timeout (10 s).
    await until('the lost listener said', () => errors.length > 0, 15_000);
    expect(errors).toEqual(['Query read timeout']);
    await publishPolicy(client, names, v2);
    await until('v2 active', () => permissions.policyVersion === v2.version, 10_000);
    expect(live.sequence).toBe(2);
  }, 40_000);
});
