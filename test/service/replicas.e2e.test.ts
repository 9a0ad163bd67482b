/**
 * Two replicas of the decision service — separate processes of `typed-permissions serve`, as behind a load
 * balancer — follow one PostgreSQL store. Before anything is published they are alive but not ready (503); after
 * `typed-permissions policy publish` both are ready on that version; after the next publish both answer with the
 * new version and its decisions; a rollback brings both back; `policy followers` lists both. Needs TEST_DATABASE_URL (.ci/run starts a throwaway
 * server on loopback); without a server it says so and skips.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { compileModel } from '../../compiler/model/compile-model.js';
import { makeTempDir, removeTempDir } from '../compiler/helpers.js';
import { bundleForNode } from '../compiler/node-bundle.js';
import type { PermissionDefinition } from '../../runtime/permissions/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { TOKEN, fixtureDefinitions, until } from './service-fixture.js';

const databaseUrl = process.env['TEST_DATABASE_URL'];
const root = new URL('../../', import.meta.url);

/** A replica process and what it said. */
interface Replica {
  readonly child: ChildProcess;
  readonly out: string[];
  readonly err: string[];
  address?: string | undefined;
}

const describeWithServer = databaseUrl === undefined ? describe.skip : describe;
if (databaseUrl === undefined)
  console.info('decision service replicas on PostgreSQL: skipped, no PostgreSQL server (TEST_DATABASE_URL is not set; .ci/run sets it)');

/** The fixture policy with EDITOR also updating articles. */
const editorsUpdate: PermissionDefinition[] = [...fixtureDefinitions, { roles: ['EDITOR'], resource: 'article', grant: { 'update:any': ['title'] } }];

/**
 * Writes `definitions` and the fixture's resource files into `folder`, as a definitions folder to publish, and
 * returns the bundle the compiler makes of it (what `policy publish` stores).
 */
function writeDefinitions(folder: string, definitions: PermissionDefinition[]): PolicyBundle {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'fixture.permissions.json'), JSON.stringify({ definitions }, null, 2));
  writeFileSync(join(folder, 'article.resource.json'), JSON.stringify({ resource: 'article', idType: 'number' }));
  writeFileSync(join(folder, 'team.resource.json'), JSON.stringify({ resource: 'team', idType: 'string', ownedAmong: 'teamsAmong' }));
  const compiled = compileModel(folder);
  if (!compiled.ok) throw new Error(`the fixture definitions do not compile: ${JSON.stringify(compiled.problems[0])}`);
  return policyBundleOf(compiled.model.tables);
}

describeWithServer('two replicas following one PostgreSQL store', () => {
  const schema = `service_${process.pid}`;
  const channel = `service_${process.pid}`;
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-replicas-'));
  const replicas: Replica[] = [];
  // The compiler's command line and the runtime's, bundled once for every process of this file (see node-bundle.ts).
  let bundles: string | undefined;
  let compilerCli: string;
  let runtimeCli: string;

  /** `typed-permissions policy …` as a process (the compiler's command, from source). */
  function policy(...args: string[]): string {
    const result = spawnSync(
      process.execPath,
      [compilerCli, 'policy', ...args, '--database-url', databaseUrl as string, '--schema', schema, '--channel', channel],
      { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8', timeout: 60_000 },
    );
    if (result.status !== 0) throw new Error(`policy ${args.join(' ')}: exit ${result.status}\n${result.stdout}\n${result.stderr}`);
    return result.stdout;
  }

  function startReplica(how: 'flag' | 'environment'): Replica {
    const args = [runtimeCli, 'serve', '--port', '0', '--schema', schema, '--channel', channel];
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', TYPED_PERMISSIONS_TOKENS: TOKEN, DATABASE_URL: '' };
    if (how === 'flag') args.push('--database-url', databaseUrl as string);
    else env['DATABASE_URL'] = databaseUrl;
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const replica: Replica = { child, out: [], err: [] };
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      replica.out.push(line);
      replica.address ??= /listening on (http:\/\/\S+)/.exec(line)?.[1];
    });
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => replica.err.push(line));
    replicas.push(replica);
    return replica;
  }

  async function get(replica: Replica, url: string) {
    const response = await fetch(`${replica.address as string}${url}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function editorMayUpdate(replica: Replica) {
    const response = await fetch(`${replica.address as string}/v1/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checks: [{ user: { id: 2, roles: ['EDITOR'] }, resource: 'article', action: 'update', resourceId: 4 }] }),
    });
    const body = (await response.json()) as { answers: { granted: boolean; policyVersion: string }[] };
    return { version: response.headers.get('x-permissions-version'), granted: body.answers[0]?.granted, policyVersion: body.answers[0]?.policyVersion };
  }

  const readyVersion = async (replica: Replica) => {
    const ready = await get(replica, '/readyz');
    return ready.status === 200 ? ready.body['policyVersion'] : undefined;
  };

  beforeAll(async () => {
    bundles = makeTempDir('replicas');
    [compilerCli, runtimeCli] = await Promise.all([
      bundleForNode('compiler/bin.ts', join(bundles, 'compiler-cli.mjs')),
      bundleForNode('runtime/cli/command.ts', join(bundles, 'runtime-cli.mjs')),
    ]);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    startReplica('flag');
    startReplica('environment');
    await until('both replicas listening', () => replicas.every((replica) => replica.address !== undefined), 60_000);
  }, 90_000);

  afterAll(async () => {
    for (const { child } of replicas) child.kill('SIGTERM');
    const codes = await Promise.all(
      replicas.map(({ child }) => new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)))),
    );
    expect(codes).toEqual([0, 0]);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    rmSync(folder, { recursive: true, force: true });
    removeTempDir(bundles);
  }, 30_000);

  it('before anything is published: alive, not ready, and decisions wait', async () => {
    for (const replica of replicas) {
      expect((await fetch(`${replica.address as string}/healthz`)).status).toBe(200);
      expect(await get(replica, '/readyz')).toEqual({
        status: 503,
        body: {
          type: 'urn:typed-permissions:problem:not-ready',
          title: 'Not ready',
          status: 503,
          detail: 'No policy is loaded yet; the service answers once its policy source has one.',
        },
      });
    }
  });

  it('both take each published version, and answer with it; a rollback brings both back', async () => {
    const v1 = writeDefinitions(join(folder, 'v1'), fixtureDefinitions);
    const v2 = writeDefinitions(join(folder, 'v2'), editorsUpdate);

    policy('publish', '--yes', join(folder, 'v1'), '--note', 'first');
    await until('both ready on v1', async () => (await Promise.all(replicas.map(readyVersion))).every((version) => version === v1.version), 20_000);
    for (const replica of replicas) expect(await editorMayUpdate(replica)).toEqual({ version: v1.version, granted: false, policyVersion: v1.version });

    policy('publish', '--yes', join(folder, 'v2'), '--note', 'editors update titles');
    await until('both on v2', async () => (await Promise.all(replicas.map(readyVersion))).every((version) => version === v2.version), 20_000);
    for (const replica of replicas) expect(await editorMayUpdate(replica)).toEqual({ version: v2.version, granted: true, policyVersion: v2.version });

    policy('rollback', '1');
    await until('both back on v1', async () => (await Promise.all(replicas.map(readyVersion))).every((version) => version === v1.version), 20_000);
    for (const replica of replicas) {
      expect(await editorMayUpdate(replica)).toEqual({ version: v1.version, granted: false, policyVersion: v1.version });
      const store = `PostgreSQL store ${schema} at ${new URL(databaseUrl as string).host}`;
      expect(replica.err).toContain(`typed-permissions service: policy ${v2.version} active (was ${v1.version}), from ${store}.`);
    }
  }, 90_000);

  it('both registered as followers of the store, so that policy publish checks versions against them', () => {
    const lines = policy('followers').trimEnd().split('\n');
    expect(lines[0]).toBe(`typed-permissions: 2 followers of ${schema}, seen in the last 60 s:`);
    for (const replica of replicas)
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^\\S+ pid ${replica.child.pid} \\(instance [0-9a-f]{8}\\): runs #3 [0-9a-f]{64}, seen \\d+ s ago`)),
      );
  }, 30_000);
});
