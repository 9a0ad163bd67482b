/**
 * How long a publish takes to reach running instances: three follower processes on one PostgreSQL store
 * (test/live/fixtures/policy-follower.ts — the same instance the cross-process tests run), versions published
 * one after another, the delay from the publishing transaction's commit to each instance's change, as each
 * instance stamps it. Then the same for an instance that is never notified and converges by its poll alone.
 * Targets: p99 ≤ 1 s to the notified instances, and ≤ the poll interval to the one that only polls.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Permissions } from '../../runtime/permissions/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import type { PgClient } from '../../runtime/live/postgres-client.js';
import { publishPolicy, storeNames } from '../../runtime/live/postgres-policy-store.js';
import type { Benchmark, BenchContext, Skipped } from '../harness/benchmark.js';
import { formatDelayMs, formatMs, table } from '../harness/format.js';
import { findPostgresServer } from '../harness/postgres-server.js';
import { startNode, waitUntil, type NodeProcess } from '../harness/processes.js';
import { Random } from '../harness/random.js';
import { notMeasured, type TargetVerdict } from '../harness/report.js';
import type { PropagationSettings } from '../harness/settings.js';
import { median, quantile } from '../harness/statistics.js';

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
  Skipped | { readonly notified: PropagationDelays; readonly polled: PropagationDelays & { readonly pollIntervalMs: number }; readonly server: string };

interface Follower {
  readonly process: NodeProcess;
  /** When each sequence became active on it (its own clock: the same machine's). */
  readonly changes: Map<number, number>;
  readonly ready: boolean;
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

function startFollower(url: string, schema: string, channel: string, baseFile: string, pollIntervalMs: number): Follower {
  const changes = new Map<number, number>();
  let ready = false;
  const process = startNode(['--import', 'tsx', FOLLOWER, url, schema, channel, baseFile, String(pollIntervalMs)], {
    onLine: (line) => {
      const event = JSON.parse(line) as { event: string; sequence?: number; at: number };
      if (event.event === 'ready') ready = true;
      if (event.event === 'change' && event.sequence !== undefined) changes.set(event.sequence, event.at);
    },
  });
  return {
    process,
    changes,
    get ready() {
      return ready;
    },
  };
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
    await waitUntil(`${label} publish ${i} everywhere`, () => followers.every((follower) => follower.changes.has(sequence)), timeoutMs);
    for (const follower of followers) delays.push((follower.changes.get(sequence) as number) - committed);
  }
  return { instances: followers.length, publishes: count, p50Ms: median(delays), p99Ms: quantile(delays, 0.99), maxMs: Math.max(...delays) };
}

/** Runs the propagation benchmark, or says why it could not. */
async function measurePropagation(settings: PropagationSettings): Promise<PropagationResult> {
  const server = findPostgresServer();
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
    await waitUntil('the followers ready', () => followers.every((follower) => follower.ready), 60_000);
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
    await Promise.all(followers.map((follower) => follower.process.stop()));
    await client.query(`DROP SCHEMA IF EXISTS "${names.schema}" CASCADE`).catch(() => undefined);
    await client.end().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
    server.stop();
  }
}

/** Propagation after publishes, or why it was skipped (the smoke run, no server). */
async function run({ settings, log }: BenchContext): Promise<PropagationResult> {
  const propagationSettings = settings.livePolicy.propagation;
  if (propagationSettings === undefined) return { skipped: 'smoke run: propagation runs only in `npm run bench`' };
  const propagation = await measurePropagation(propagationSettings);
  if ('notified' in propagation) log(`  propagation to 3 instances: p50 ${propagation.notified.p50Ms} ms, p99 ${propagation.notified.p99Ms} ms`);
  else log(`  propagation skipped: ${propagation.skipped}`);
  return propagation;
}

function sections(result: PropagationResult | undefined): string[] {
  if (result === undefined) return [];
  if ('skipped' in result) return [`Propagation of a publish: not measured (${result.skipped}).`];
  const { notified, polled } = result;
  const intro =
    `Propagation of a publish (${result.server}), from the publishing commit to the instance's change, each instance stamping its own: ` +
    `${notified.publishes} publishes to ${notified.instances} notified instances, ${polled.publishes} to one that only polls every ` +
    `${formatMs(polled.pollIntervalMs)} (published at a seeded random point of its interval):`;
  return [
    `${intro}\n\n${table(
      ['instances', 'publishes', 'p50', 'p99', 'max'],
      [
        [
          `${notified.instances}, LISTEN/NOTIFY`,
          String(notified.publishes),
          formatDelayMs(notified.p50Ms),
          formatDelayMs(notified.p99Ms),
          formatDelayMs(notified.maxMs),
        ],
        [
          `${polled.instances}, poll every ${formatMs(polled.pollIntervalMs)}`,
          String(polled.publishes),
          formatDelayMs(polled.p50Ms),
          formatDelayMs(polled.p99Ms),
          formatDelayMs(polled.maxMs),
        ],
      ],
    )}`,
  ];
}

export const PROPAGATION_TARGET = 'Live policy: propagation p99 to three instances ≤ 1 s with notifications';
export const POLLED_TARGET = 'Live policy: propagation p99 without notifications ≤ the poll interval';

function targets(result: PropagationResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  if ('skipped' in result) return [notMeasured(PROPAGATION_TARGET), notMeasured(POLLED_TARGET)];
  const { notified, polled } = result;
  return [
    {
      target: PROPAGATION_TARGET,
      measured: `p99 ${formatDelayMs(notified.p99Ms)} (p50 ${formatDelayMs(notified.p50Ms)})`,
      met: notified.p99Ms <= 1000,
    },
    {
      target: POLLED_TARGET,
      measured: `p99 ${formatDelayMs(polled.p99Ms)}, poll every ${formatMs(polled.pollIntervalMs)}`,
      met: polled.p99Ms <= polled.pollIntervalMs,
    },
  ];
}

/** The propagation of a live policy's publish, on PostgreSQL. */
export const livePolicyPropagationBenchmark: Benchmark<PropagationResult> = { title: 'propagation', run, sections, targets };
