/**
 * The database goes away under a decision service that follows the PostgreSQL store: the service keeps
 * answering from its last good version and stays ready, and takes the next version once the database is back; a
 * fresh replica started while the database is unreachable is alive but not ready, and refuses decisions (503)
 * rather than answering without a policy. The database "goes away" by cutting a TCP proxy in front of the real
 * server, so nothing else using that server is disturbed. Needs TEST_DATABASE_URL (.ci/run starts a server).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { removeTempDir } from '../compiler/helpers.js';
import { folderWith, run } from '../policy-tests/policy-test-folders.js';
import { postgresPolicySource } from '../../runtime/live/index.js';
import type { DecisionService } from '../../runtime/service/index.js';
import { ask, fixtureService, recordingLogger, until } from './service-fixture.js';

const databaseUrl = process.env['TEST_DATABASE_URL'];
const describeWithServer = databaseUrl === undefined ? describe.skip : describe;
if (databaseUrl === undefined)
  console.info('decision service through a database outage: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

/** A TCP proxy to the database that can be cut (every connection dropped, new ones refused) and restored on the same port. */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => (client.destroy(), upstream.destroy()));
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  }
}

describeWithServer('a decision service through a database outage', () => {
  const schema = `outage_${process.pid}`;
  const channel = `outage_${process.pid}`;
  const target = new URL(databaseUrl as string);
  const proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port) });
  const folders: string[] = [];
  const services: DecisionService[] = [];
  let proxiedUrl = '';

  const publish = async (note: string) => {
    const folder = folderWith({});
    folders.push(folder);
    const published = await run(
      'policy',
      'publish',
      '--yes',
      folder,
      '--database-url',
      databaseUrl as string,
      '--schema',
      schema,
      '--channel',
      channel,
      '--note',
      note,
    );
    expect(published.code).toBe(0);
  };
  const following = async () => {
    const source = postgresPolicySource({ connectionString: proxiedUrl, schema, channel, pollIntervalMs: 100, reconnectDelayMs: 50 });
    const service = await fixtureService({ tables: undefined, source, readTimeoutMs: 1000, logger: recordingLogger() });
    services.push(service);
    return service;
  };
  const editorRead = (service: DecisionService) =>
    ask(service, { method: 'POST', url: '/v1/check', payload: { checks: [{ user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'read' }] } });

  beforeAll(async () => {
    await proxy.open();
    const proxied = new URL(databaseUrl as string);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    proxiedUrl = proxied.href;
  });

  afterAll(async () => {
    for (const service of services) await service.close();
    await proxy.cut();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    for (const folder of folders) removeTempDir(folder);
  }, 30_000);

  it('keeps answering from the last good version and stays ready; a fresh replica is not ready', async () => {
    await publish('first');
    const service = await following();
    await until('the service is ready', async () => (await ask(service, { method: 'GET', url: '/readyz' })).status === 200);
    const version = service.policyVersion;
    expect(version).toMatch(/^[0-9a-f]{64}$/);

    await proxy.cut();
    // Past several polls and reconnects: every one fails.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const during = await editorRead(service);
    expect([during.status, during.body.answers[0]?.granted, during.body.answers[0]?.policyVersion]).toEqual([200, true, version]);
    expect((await ask(service, { method: 'GET', url: '/readyz' })).status).toBe(200);
    expect((await ask(service, { method: 'GET', url: '/metrics' })).text).toMatch(/^typed_permissions_policy_source_errors_total [1-9]\d*$/m);

    const fresh = await following();
    expect((await ask(fresh, { method: 'GET', url: '/healthz' })).status).toBe(200);
    const notReady = await ask(fresh, { method: 'GET', url: '/readyz' });
    expect(notReady.status).toBe(503);
    expect((await editorRead(fresh)).status).toBe(503);

    // The database is back: both take the store's version.
    await proxy.open();
    await until('the fresh replica is ready', async () => (await ask(fresh, { method: 'GET', url: '/readyz' })).status === 200, 15_000);
    expect(fresh.policyVersion).toBe(version);
  }, 60_000);
});
