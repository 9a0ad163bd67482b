/**
 * How long a publish takes to reach running instances: three follower processes on one PostgreSQL store
 * (test/live/fixtures/policy-follower.ts — the same instance the cross-process tests run), versions published
 * one after another, the delay from the publishing transaction's commit to each instance's change, as each
 * instance stamps it. Then the same for an instance that is never notified and converges by its poll alone.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { Permissions } from '../runtime/permissions/index.js';
import { policyBundleOf, type PolicyBundle } from '../runtime/live/policy-bundle.js';
import type { PgClient } from '../runtime/live/postgres-client.js';
import { publishPolicy, storeNames } from '../runtime/live/postgres-policy-store.js';
import { REPO_ROOT } from './build.bench.js';
import { median, quantile } from './measure.js';
import { Random } from './scenario.js';

const FOLLOWER = 'test/live/fixtures/policy-follower.ts';

/** Delays of one way of following, in ms. */
export interface PropagationDelays {
  readonly instances: number;
  readonly publishes: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export type PropagationResult =
  | { readonly skipped: string }
  | { readonly notified: PropagationDelays; readonly polled: PropagationDelays & { readonly pollIntervalMs: number }; readonly server: string };

/** The settings of the propagation benchmark. */
export interface PropagationSettings {
  readonly publishes: number;
  readonly polledPublishes: number;
  readonly pollIntervalMs: number;
}

interface Follower {
  readonly child: ChildProcess;
  /** When each sequence became active on it (its own clock: the same machine's). */
  readonly changes: Map<number, number>;
  ready: boolean;
}

function bundle(attributes: readonly string[]): PolicyBundle {
  const permissions = new Permissions({
    ownership: { isCreator: () => false, listCreated: () => [] },
    resourceIdTypes: { doc: 'number' },
    logger: { warn: () => undefined },
  });
  permissions.addPermissions([{ roles: ['READER', 'WRITER'], resource: 'doc', grant: { 'read:any': [...attributes] } }]).build();
  return policyBundleOf(permissions.tables);
}

async function until(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A PostgreSQL server: BENCH_DATABASE_URL or TEST_DATABASE_URL, else a throwaway one started by scripts/start-test-postgres.sh. */
function findServer(): { url: string; stop: () => void } | { skipped: string } {
  const given = process.env['BENCH_DATABASE_URL'] ?? process.env['TEST_DATABASE_URL'];
  if (given !== undefined && given !== '') return { url: given, stop: () => undefined };
  const started = spawnSync(join(REPO_ROOT, 'scripts', 'start-test-postgres.sh'), { encoding: 'utf8', timeout: 300_000 });
  if (started.status !== 0) return { skipped: `no PostgreSQL server (set BENCH_DATABASE_URL): ${started.stderr.trim().split('\n').at(-1) ?? ''}` };
  const [url, data, bin] = started.stdout.trim().split(' ') as [string, string, string];
  return { url, stop: () => void spawnSync('runuser', ['-u', 'postgres', '--', `${bin}/pg_ctl`, '-D', data, 'stop', '-m', 'fast']) };
}

function startFollower(url: string, schema: string, channel: string, baseFile: string, pollIntervalMs: number): Follower {
  const child = spawn(process.execPath, ['--import', 'tsx', FOLLOWER, url, schema, channel, baseFile, String(pollIntervalMs)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const follower: Follower = { child, changes: new Map(), ready: false };
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const event = JSON.parse(line) as { event: string; sequence?: number; at: number };
    if (event.event === 'ready') follower.ready = true;
    if (event.event === 'change' && event.sequence !== undefined) follower.changes.set(event.sequence, event.at);
  });
  return follower;
}

/**
 * Publishes `count` versions one at a time, each once every follower has the one before and after a pause of
 * up to `jitterMs` (seeded), so that a publish lands anywhere in a poll's interval; the delays from each commit.
 */
async function publishAndTime(
  client: PgClient,
  names: ReturnType<typeof storeNames>,
  followers: readonly Follower[],
  { count, label, jitterMs, timeoutMs }: { count: number; label: string; jitterMs: number; timeoutMs: number },
) {
  const delays: number[] = [];
  const random = new Random(20261124);
  for (let i = 0; i < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, random.below(jitterMs + 1)));
    const sequence = await publishPolicy(client, names, bundle(['id', `${label}${i}`]), `bench ${label} ${i}`);
    const committed = Date.now();
    await until(`${label} publish ${i} everywhere`, () => followers.every((follower) => follower.changes.has(sequence)), timeoutMs);
    for (const follower of followers) delays.push((follower.changes.get(sequence) as number) - committed);
  }
  return { instances: followers.length, publishes: count, p50Ms: median(delays), p99Ms: quantile(delays, 0.99), maxMs: Math.max(...delays) };
}

/**
 * Runs the propagation benchmark, or says why it could not.
 *
 * @example
 * ```ts
 * const propagation = await measurePropagation({ publishes: 20, polledPublishes: 10, pollIntervalMs: 1000 });
 * ```
 */
export async function measurePropagation(settings: PropagationSettings): Promise<PropagationResult> {
  const server = findServer();
  if ('skipped' in server) return server;
  const names = storeNames({ schema: `bench_live_${process.pid}`, channel: `bench_live_${process.pid}` });
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-bench-live-'));
  const baseFile = join(folder, 'base.json');
  writeFileSync(baseFile, JSON.stringify(bundle(['id'])));
  const client = new pg.Client({ connectionString: server.url }) as unknown as PgClient;
  const followers: Follower[] = [];
  try {
    await client.connect();
    for (let i = 0; i < 3; i++) followers.push(startFollower(server.url, names.schema, names.channel, baseFile, 30_000));
    // The fourth hears nothing on its channel: it has only its poll, as behind a pooler in transaction mode.
    const deaf = startFollower(server.url, names.schema, `${names.channel}_unheard`, baseFile, settings.pollIntervalMs);
    followers.push(deaf);
    await until('the followers ready', () => followers.every((follower) => follower.ready), 60_000);
    const notified = await publishAndTime(client, names, followers.slice(0, 3), {
      count: settings.publishes,
      label: 'notified',
      jitterMs: 50,
      timeoutMs: 10_000,
    });
    const polled = await publishAndTime(client, names, [deaf], {
      count: settings.polledPublishes,
      label: 'polled',
      jitterMs: settings.pollIntervalMs,
      timeoutMs: settings.pollIntervalMs * 3 + 10_000,
    });
    return { notified, polled: { ...polled, pollIntervalMs: settings.pollIntervalMs }, server: 'PostgreSQL on loopback' };
  } finally {
    for (const { child } of followers) child.kill('SIGTERM');
    await Promise.all(followers.map(({ child }) => new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)))));
    await client.query(`DROP SCHEMA IF EXISTS "${names.schema}" CASCADE`).catch(() => undefined);
    await client.end().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
    server.stop();
  }
}
