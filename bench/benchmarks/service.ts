/**
 * The decision service. `typed-permissions serve` runs in its own process on the example's
 * compiled policy (rate limit raised out of the way); autocannon posts batches of 1 and of 100 checks of the
 * example's users, actions and documents to `POST /v1/check` — one connection for the round-trip latency, ten for
 * throughput — and the same batch is answered in this process by the function the service answers with
 * (`answerChecks`, no HTTP), the embedded cost per check. Every answer is first compared with the embedded one.
 * Targets: a batch of 100 at most 2× the round trip of a batch of 1, and no 5xx or connection error under load.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { permissionsFromTables } from '../../runtime/permissions/precompiled-permissions.js';
import { vocabularyOf } from '../../runtime/core/tables/vocabulary.js';
import type { PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { answerChecks, type CheckQuery } from '../../runtime/service/check-answers.js';
import { ownershipStandIn } from '../../runtime/live/ownership-stand-in.js';
import type { Benchmark, BenchContext, Skipped } from '../harness/benchmark.js';
import { formatNs, formatRatio, table } from '../harness/format.js';
import { loadEndpoint, type LoadRound } from '../harness/load.js';
import { limitWhenMissed, type TargetVerdict } from '../harness/report.js';
import { REPO_ROOT } from '../harness/repository.js';
import { failIfExited, startNode, waitUntil, type NodeProcess } from '../harness/processes.js';
import type { LoadSettings } from '../harness/settings.js';

const TOKEN = 'bench-service-token-0123456789abcdef';
const USERS = [
  { id: 1, roles: ['EMPLOYEE'] },
  { id: 2, roles: ['EMPLOYEE_MANAGER'] },
  { id: 4, roles: ['COMPANY_ADMIN'] },
  { id: 5, roles: ['SUPER_ADMIN'] },
  { id: 7, roles: ['EMPLOYEE_MANAGER', 'COMPANY_ADMIN'] },
] as const;
const ACTIONS = ['read', 'list', 'review', 'update', 'delete', 'create'] as const;

/**
 * A batch of `size` checks cycling through the example's users, actions and documents; every third names a
 * document with the groups that own it (`ownedBy`), as a caller that asked its ownership does.
 *
 * @example
 * ```ts
 * checkBatch(100).length; // 100
 * ```
 */
export function checkBatch(size: number): CheckQuery[] {
  return Array.from({ length: size }, (_, i): CheckQuery => {
    const user = USERS[i % USERS.length] as (typeof USERS)[number];
    const action = ACTIONS[i % ACTIONS.length] as string;
    const resourceId = [undefined, 1, 10, 20, 40][i % 5];
    return {
      user: { id: user.id, roles: [...user.roles] },
      resource: 'document',
      action,
      ...(resourceId === undefined ? {} : { resourceId }),
      ...(resourceId !== undefined && i % 3 === 0 ? { ownedBy: [0] } : {}),
    };
  });
}

/** One autocannon run against the service. */
export interface ServiceRun extends LoadRound {
  readonly batch: number;
  readonly connections: number;
  readonly checksPerSecond: number;
}

export type ServiceResult =
  | Skipped
  | {
      readonly runs: readonly ServiceRun[];
      /** The same batch of 100 answered in process by answerChecks: ns per check. */
      readonly embeddedNsPerCheck: number;
      readonly durationSeconds: number;
      readonly command: string;
    };

/**
 * The mean time a request takes, from the throughput: connections ÷ requests per second (Little's law; with one
 * connection, requests follow each other, so this is the round trip). autocannon's own latency figures are whole
 * milliseconds, too coarse for sub-millisecond answers.
 *
 * @example
 * ```ts
 * roundTripMs({ connections: 1, requestsPerSecond: 5000 }); // 0.2
 * ```
 */
export function roundTripMs(run: Pick<ServiceRun, 'connections' | 'requestsPerSecond'>): number {
  return (run.connections * 1000) / run.requestsPerSecond;
}

/** How long the service may take to say where it listens. */
const START_TIMEOUT_MS = 60_000;

/** The service as a process, and the address it printed. */
async function startService(): Promise<{ readonly base: string; readonly process: NodeProcess }> {
  let base: string | undefined;
  const serve = ['serve', '--policy', 'generated/policy.json', '--port', '0', '--token', TOKEN, '--rate-limit-max', '100000000'];
  const service = startNode(['--import', 'tsx', 'runtime/cli/command.ts', ...serve], {
    onLine: (line) => (base ??= /listening on (http:\/\/\S+)/.exec(line)?.[1]),
  });
  try {
    await waitUntil('the service to listen', () => (failIfExited(service, 'the service'), base !== undefined), START_TIMEOUT_MS, 20);
  } catch (error) {
    await service.stop();
    throw new Error(`${(error as Error).message}; it printed: ${service.output()}`, { cause: error });
  }
  return { base: base as string, process: service };
}

/** The mean time per check of answering `checks` in process, over repeated batches for about `seconds`. */
function embeddedNsPerCheck(bundle: PolicyBundle, checks: readonly CheckQuery[], seconds: number): number {
  const engine = embeddedEngine(bundle);
  const vocabulary = vocabularyOf(engine.tables);
  for (let i = 0; i < 200; i++) answerChecks(engine, vocabulary, checks);
  let batches = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 50; i++) answerChecks(engine, vocabulary, checks);
    batches += 50;
  }
  return Number(process.hrtime.bigint() - start) / (batches * checks.length);
}

/** The source of the records behind the policy's ownership rules: as in the service, there are none, and nothing asks for them. */
const refuseRecords = (): never => {
  throw new Error('The benchmark has no records: its checks carry no record, and ownership rules are not evaluated.');
};

/** The embedded engine the service answers with, on the same policy. */
function embeddedEngine(bundle: PolicyBundle): ReturnType<typeof permissionsFromTables> {
  return permissionsFromTables(bundle, {
    ownership: ownershipStandIn(undefined, (name) => `${name} is not run by the benchmark.`),
    ownershipRules: { filter: refuseRecords, ownedAmong: refuseRecords, listOwned: refuseRecords },
    logger: { warn: () => undefined },
  });
}

/** Why the service's answers cannot be measured, if they differ from the embedded ones for one batch. */
async function compareAnswers(base: string, bundle: PolicyBundle, batches: ReadonlyMap<number, CheckQuery[]>): Promise<Skipped | undefined> {
  const engine = embeddedEngine(bundle);
  for (const [size, checks] of batches) {
    const response = await fetch(`${base}/v1/check`, { method: 'POST', headers: requestHeaders(), body: JSON.stringify({ checks }) });
    const body = (await response.json()) as { answers: unknown[] };
    const expected = answerChecks(engine, vocabularyOf(engine.tables), checks);
    if (response.status !== 200 || !isDeepStrictEqual(body.answers, JSON.parse(JSON.stringify(expected))))
      return { skipped: `the service's answer to the batch of ${size} is not the embedded one (${response.status})` };
  }
  return undefined;
}

const requestHeaders = (): Record<string, string> => ({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' });

/** One run of posting batches of `batch` checks. */
async function loadRun(base: string, checks: readonly CheckQuery[], connections: number, durationSeconds: number): Promise<ServiceRun> {
  const body = JSON.stringify({ checks });
  const round = await loadEndpoint({ url: `${base}/v1/check`, method: 'POST', connections, durationSeconds, headers: requestHeaders(), body });
  const { requestsPerSecond, p50Ms, p99Ms, non2xx, serverErrors, errors } = round;
  return {
    batch: checks.length,
    connections,
    requestsPerSecond,
    checksPerSecond: requestsPerSecond * checks.length,
    p50Ms,
    p99Ms,
    non2xx,
    serverErrors,
    errors,
  };
}

/** A warm-up per batch, then both batches with one connection and with many. */
async function loadRuns(base: string, batches: ReadonlyMap<number, CheckQuery[]>, load: LoadSettings, log: (line: string) => void): Promise<ServiceRun[]> {
  for (const checks of batches.values()) await loadRun(base, checks, load.connections, load.warmupSeconds);
  const runs: ServiceRun[] = [];
  for (const connections of [1, load.connections]) {
    for (const checks of batches.values()) {
      const measured = await loadRun(base, checks, connections, load.durationSeconds);
      runs.push(measured);
      log(
        `  service batch ${String(measured.batch).padStart(3)} × ${connections} connection(s): ${measured.requestsPerSecond.toFixed(0)} req/s, ` +
          `${measured.checksPerSecond.toFixed(0)} checks/s, round trip ${roundTripMs(measured).toFixed(3)} ms, p99 ${measured.p99Ms} ms`,
      );
    }
  }
  return runs;
}

/** Starts the service, checks its answers, then loads it; or says why it was skipped. */
async function run({ settings, log }: BenchContext): Promise<ServiceResult> {
  const load = settings.service;
  if (load === undefined) return { skipped: 'smoke run: the service benchmark runs only in `npm run bench`' };
  const bundle = JSON.parse(readFileSync(join(REPO_ROOT, 'generated', 'policy.json'), 'utf8')) as PolicyBundle;
  const service = await startService();
  try {
    const batches = new Map([1, 100].map((size) => [size, checkBatch(size)]));
    const differs = await compareAnswers(service.base, bundle, batches);
    if (differs !== undefined) return differs;
    return {
      runs: await loadRuns(service.base, batches, load, log),
      embeddedNsPerCheck: embeddedNsPerCheck(bundle, batches.get(100) ?? [], 1),
      durationSeconds: load.durationSeconds,
      command:
        `typed-permissions serve --policy generated/policy.json --token <t> --rate-limit-max 100000000 (one process); ` +
        `autocannon -m POST -c <1|${load.connections}> -d ${load.durationSeconds} <base>/v1/check with a batch of 1 or 100 checks`,
    };
  } finally {
    await service.process.stop();
  }
}

export const BATCH_TARGET = 'Decision service: a batch of 100 checks ≤ 2× the round trip of a batch of 1 (round trip, one connection)';
/** What the batch of 100 costs beyond the round trip, as profiled. */
const BATCH_LIMIT =
  'a batch of 100 is about 12 KB in and 40 KB out: parsing and validating 100 checks and serializing 100 answers cost about ' +
  '0.2 ms in the service; deciding them is about 50 µs of it (the embedded row)';

export const NO_5XX_TARGET = 'Decision service: no 5xx and no connection error under load';

const shownRoundTrip = (run: ServiceRun | undefined): string => (run === undefined ? '?' : `${roundTripMs(run).toFixed(3)} ms`);

const runOf = (runs: readonly ServiceRun[], batch: number, connections: number): ServiceRun | undefined =>
  runs.find((run) => run.batch === batch && run.connections === connections);

/** The service section. */
function sections(result: ServiceResult | undefined): string[] {
  if (result === undefined) return [];
  if ('skipped' in result) return [`Decision service: not measured (${result.skipped}).`];
  const embeddedPerSecond = 1e9 / result.embeddedNsPerCheck;
  return [
    `Decision service (${result.command}), ${result.durationSeconds} s per run; checks per second are the service's, one process ` +
      `(one core of JavaScript); the round trip is connections ÷ requests per second; the embedded row answers the same batch of 100 in ` +
      `this process with the function the service uses:\n\n${table(
        ['batch', 'connections', 'req/s', 'checks/s', 'round trip', 'p50', 'p99', 'non-2xx', '5xx', 'errors'],
        [
          ...result.runs.map((run) => [
            String(run.batch),
            String(run.connections),
            run.requestsPerSecond.toFixed(0),
            run.checksPerSecond.toFixed(0),
            `${roundTripMs(run).toFixed(3)} ms`,
            `${run.p50Ms} ms`,
            `${run.p99Ms} ms`,
            String(run.non2xx),
            String(run.serverErrors),
            String(run.errors),
          ]),
          ['100, embedded', '—', '—', embeddedPerSecond.toFixed(0), formatNs(result.embeddedNsPerCheck * 100), '—', '—', '—', '—', '—'],
        ],
      )}`,
  ];
}

/** The service targets. */
function targets(result: ServiceResult | undefined): TargetVerdict[] {
  if (result === undefined || 'skipped' in result) return [];
  const one = runOf(result.runs, 1, 1);
  const hundred = runOf(result.runs, 100, 1);
  const ratio = one === undefined || hundred === undefined ? Number.NaN : roundTripMs(hundred) / roundTripMs(one);
  const failures = result.runs.reduce((sum, run) => sum + run.serverErrors + run.errors, 0);
  return [
    {
      target: BATCH_TARGET,
      measured: `${formatRatio(ratio)} (round trip ${shownRoundTrip(hundred)} vs ${shownRoundTrip(one)})`,
      met: ratio <= 2,
      ...limitWhenMissed(ratio <= 2, BATCH_LIMIT),
    },
    { target: NO_5XX_TARGET, measured: `${failures} 5xx or errors in ${result.runs.length} runs`, met: failures === 0 },
  ];
}

/** The decision service over HTTP, beside the embedded cost of the same checks. */
export const serviceBenchmark: Benchmark<ServiceResult> = { title: 'decision service', run, sections, targets };
