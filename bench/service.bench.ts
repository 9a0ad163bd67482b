/**
 * Benchmark 11: the decision service. `typed-permissions serve` runs in its own process on the example's
 * compiled policy (rate limit raised out of the way); autocannon posts batches of 1 and of 100 checks of the
 * example's users, actions and documents to `POST /v1/check` — one connection for the round-trip latency, ten for
 * throughput — and the same batch is answered in this process by the function the service answers with
 * (`answerChecks`, no HTTP), the embedded cost per check. Every answer is first compared with the embedded one.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isDeepStrictEqual } from 'node:util';
import { permissionsFromTables } from '../runtime/permissions/precompiled-permissions.js';
import { vocabularyOf } from '../runtime/core/tables/vocabulary.js';
import type { PolicyBundle } from '../runtime/live/policy-bundle.js';
import { answerChecks, type CheckQuery } from '../runtime/service/check-answers.js';
import { ownershipStandIn } from '../runtime/live/ownership-stand-in.js';
import { REPO_ROOT } from './build.bench.js';
import type { BenchSettings } from './measure.js';

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
export interface ServiceRun {
  readonly batch: number;
  readonly connections: number;
  readonly requestsPerSecond: number;
  readonly checksPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly serverErrors: number;
  readonly errors: number;
}

export type ServiceResult =
  | { readonly skipped: string }
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

/** The service as a process: its address, and how to stop it. */
async function startService(): Promise<{ readonly base: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'runtime/cli/command.ts',
      'serve',
      '--policy',
      'generated/policy.json',
      '--port',
      '0',
      '--token',
      TOKEN,
      '--rate-limit-max',
      '100000000',
    ],
    { cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const printed: string[] = [];
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start within 60 s: ${printed.join('\n')}`)), 60_000);
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        printed.push(line);
        const address = /listening on (http:\/\/\S+)/.exec(line)?.[1];
        if (address === undefined) return;
        clearTimeout(timer);
        resolve(address);
      });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code}: ${printed.join('\n')}`));
    });
  });
  return {
    base,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The mean time per check of answering `checks` in process, over repeated batches for about `seconds`. */
function embeddedNsPerCheck(bundle: PolicyBundle, checks: readonly CheckQuery[], seconds: number): number {
  const engine = permissionsFromTables(bundle, {
    ownership: ownershipStandIn(undefined, (name) => `${name} is not run by the benchmark.`),
    logger: { warn: () => undefined },
  });
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

/**
 * Runs benchmark 11, or says why it was skipped.
 *
 * @example
 * ```ts
 * const service = await runServiceBench(benchSettings('full'), console.log);
 * ```
 */
export async function runServiceBench(settings: BenchSettings, log: (line: string) => void = () => undefined): Promise<ServiceResult> {
  const load = settings.service;
  if (load === undefined) return { skipped: 'smoke run: the service benchmark runs only in `npm run bench`' };
  const bundle = JSON.parse(readFileSync(join(REPO_ROOT, 'generated', 'policy.json'), 'utf8')) as PolicyBundle;
  const { default: autocannon } = await import('autocannon');
  const service = await startService();
  try {
    const batches = new Map([1, 100].map((size) => [size, checkBatch(size)]));
    const engine = permissionsFromTables(bundle, {
      ownership: ownershipStandIn(undefined, (name) => `${name} is not run by the benchmark.`),
      logger: { warn: () => undefined },
    });
    for (const [size, checks] of batches) {
      const response = await fetch(`${service.base}/v1/check`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ checks }),
      });
      const body = (await response.json()) as { answers: unknown[] };
      const expected = answerChecks(engine, vocabularyOf(engine.tables), checks);
      if (response.status !== 200 || !isDeepStrictEqual(body.answers, JSON.parse(JSON.stringify(expected))))
        return { skipped: `the service's answer to the batch of ${size} is not the embedded one (${response.status})` };
    }
    const run = async (batch: number, connections: number, duration: number): Promise<ServiceRun> => {
      const result = await autocannon({
        url: `${service.base}/v1/check`,
        method: 'POST',
        connections,
        duration,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ checks: batches.get(batch) }),
      });
      return {
        batch,
        connections,
        requestsPerSecond: result.requests.average,
        checksPerSecond: result.requests.average * batch,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        serverErrors: result['5xx'],
        errors: result.errors,
      };
    };
    for (const batch of [1, 100]) await run(batch, load.connections, load.warmupSeconds);
    const runs: ServiceRun[] = [];
    for (const connections of [1, load.connections]) {
      for (const batch of [1, 100]) {
        const measured = await run(batch, connections, load.durationSeconds);
        runs.push(measured);
        log(
          `  service batch ${String(batch).padStart(3)} × ${connections} connection(s): ${measured.requestsPerSecond.toFixed(0)} req/s, ` +
            `${measured.checksPerSecond.toFixed(0)} checks/s, round trip ${roundTripMs(measured).toFixed(3)} ms, p99 ${measured.p99Ms} ms`,
        );
      }
    }
    return {
      runs,
      embeddedNsPerCheck: embeddedNsPerCheck(bundle, batches.get(100) ?? [], 1),
      durationSeconds: load.durationSeconds,
      command:
        `typed-permissions serve --policy generated/policy.json --token <t> --rate-limit-max 100000000 (one process); ` +
        `autocannon -m POST -c <1|${load.connections}> -d ${load.durationSeconds} <base>/v1/check with a batch of 1 or 100 checks`,
    };
  } finally {
    await service.stop();
  }
}
