/**
 * What policy swaps cost the requests being served: the example app follows a policy file (POLICY_FILE), and
 * autocannon loads a guarded endpoint in rounds without swaps and rounds during which the bench replaces the
 * file (write and rename, as a deployment does) every `swapIntervalMs` with the other of two versions. Both
 * versions answer the endpoint alike, so every response must be a 200; the rounds alternate (ABBA) so that
 * drift does not favour either. The target: the p99 during swaps at most 1.1× the p99 without, every request answered.
 * It runs after the HTTP benchmark, which builds the app.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileChangedExample } from '../../test/live/fixtures/example-policy.js';
import type { Benchmark, BenchContext, Skipped } from '../harness/benchmark.js';
import { EXAMPLE_MAIN, startExampleApp, type RunningExampleApp } from '../harness/example-app.js';
import { formatRatio, table } from '../harness/format.js';
import { loadEndpoint } from '../harness/load.js';
import { notMeasured, type TargetVerdict } from '../harness/report.js';
import { REPO_ROOT } from '../harness/repository.js';
import type { RequestsDuringSwapsSettings } from '../harness/settings.js';
import { mean } from '../harness/statistics.js';

/** One autocannon round. */
export interface SwapRound {
  readonly swapping: boolean;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Versions the app activated during the round (from its log). */
  readonly swapsTaken: number;
}

export type RequestsDuringSwapsResult =
  | Skipped
  | {
      readonly endpoint: string;
      readonly rounds: readonly SwapRound[];
      readonly quietP99Ms: number;
      readonly swappingP99Ms: number;
      /** swappingP99Ms / quietP99Ms. */
      readonly ratio: number;
      readonly connections: number;
      readonly durationSeconds: number;
      readonly swapIntervalMs: number;
    };

const ENDPOINT = { path: '/documents-protected-simple/1', userId: 5, label: 'guarded GET /documents-protected-simple/1, SUPER_ADMIN' };

/** The example's policy bundle as compiled, and one whose EMPLOYEE also lists the status of others' documents. */
function exampleBundles(folder: string): [string, string] {
  const original = readFileSync(join(REPO_ROOT, 'generated', 'policy.json'), 'utf8');
  return [original, compileChangedExample(folder, '"list:any": ["title", "date"]', '"list:any": ["title", "date", "status"]').text];
}

const activations = (output: string): number => output.split('\n').filter((line) => / active, from file /.test(line)).length;

/** Replaces the policy file, by write and rename as a deployment does, with the other of the two versions each time. */
function policyFileSwapper(policyFile: string, bundles: readonly [string, string]): () => void {
  let written = 0;
  return () => {
    written++;
    writeFileSync(`${policyFile}.next`, bundles[written % 2] as string);
    renameSync(`${policyFile}.next`, policyFile);
  };
}

/** One round of load, swapping the policy meanwhile or not; the versions the app activated counted from its log. */
async function loadRound(app: RunningExampleApp, settings: RequestsDuringSwapsSettings, swapping: boolean, swap: () => void): Promise<SwapRound> {
  const before = activations(app.output());
  const timer = swapping ? setInterval(swap, settings.swapIntervalMs) : undefined;
  const result = await loadEndpoint({
    url: `${app.base}${ENDPOINT.path}`,
    connections: settings.connections,
    durationSeconds: settings.durationSeconds,
    headers: { 'x-user-id': String(ENDPOINT.userId) },
  });
  clearInterval(timer);
  // Let the last replacement be read before counting.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const { requestsPerSecond, p99Ms, non2xx, errors } = result;
  return { swapping, requestsPerSecond, p99Ms, non2xx, errors, swapsTaken: activations(app.output()) - before };
}

/** A warm-up, then the rounds in ABBA order. */
async function loadRounds(app: RunningExampleApp, settings: RequestsDuringSwapsSettings, swap: () => void, log: (line: string) => void): Promise<SwapRound[]> {
  await loadEndpoint({
    url: `${app.base}${ENDPOINT.path}`,
    connections: settings.connections,
    durationSeconds: 1,
    headers: { 'x-user-id': String(ENDPOINT.userId) },
  });
  const rounds: SwapRound[] = [];
  const order = Array.from({ length: settings.roundPairs }, (_, i) => (i % 2 === 0 ? [false, true] : [true, false])).flat();
  for (const swapping of order) {
    const round = await loadRound(app, settings, swapping, swap);
    rounds.push(round);
    log(`  ${swapping ? 'swapping' : 'quiet   '} ${round.requestsPerSecond.toFixed(0)} req/s, p99 ${round.p99Ms} ms, ${round.swapsTaken} versions activated`);
  }
  return rounds;
}

/** The app following a policy file in a fresh folder, loaded in rounds; the folder removed at the end. */
async function measureRequestsDuringSwaps(settings: RequestsDuringSwapsSettings, log: (line: string) => void): Promise<RequestsDuringSwapsResult> {
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-bench-swaps-'));
  const policyFile = join(folder, 'policy.json');
  try {
    const bundles = exampleBundles(folder);
    writeFileSync(policyFile, bundles[0]);
    const app = await startExampleApp({ POLICY_FILE: policyFile });
    try {
      const rounds = await loadRounds(app, settings, policyFileSwapper(policyFile, bundles), log);
      const quietP99Ms = mean(rounds.filter((round) => !round.swapping).map((round) => round.p99Ms));
      const swappingP99Ms = mean(rounds.filter((round) => round.swapping).map((round) => round.p99Ms));
      const { connections, durationSeconds, swapIntervalMs } = settings;
      return { endpoint: ENDPOINT.label, rounds, quietP99Ms, swappingP99Ms, ratio: swappingP99Ms / quietP99Ms, connections, durationSeconds, swapIntervalMs };
    } finally {
      await app.stop();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The rounds, or why they were skipped (the smoke run, the app not built). */
function run({ settings, log }: BenchContext): Promise<RequestsDuringSwapsResult> {
  const requests = settings.livePolicy.requests;
  if (requests === undefined) return Promise.resolve({ skipped: 'smoke run: requests during swaps run only in `npm run bench`' });
  if (!existsSync(EXAMPLE_MAIN))
    return Promise.resolve({ skipped: 'dist/examples/documents/main.js does not exist: the HTTP benchmark builds it, and did not' });
  return measureRequestsDuringSwaps(requests, log);
}

function sections(result: RequestsDuringSwapsResult | undefined): string[] {
  if (result === undefined) return [];
  if ('skipped' in result) return [`Requests during swaps: not measured (${result.skipped}).`];
  const intro =
    `Requests during swaps: ${result.endpoint}, autocannon -c ${result.connections} for ${result.durationSeconds} s per round, rounds without ` +
    `swaps and rounds during which the policy file is replaced (write and rename) every ${result.swapIntervalMs} ms, in ABBA order:`;
  return [
    `${intro}\n\n${table(
      ['round', 'swapping', 'req/s', 'p99', 'non-2xx + errors', 'versions activated'],
      result.rounds.map((round, i) => [
        String(i + 1),
        round.swapping ? 'yes' : 'no',
        round.requestsPerSecond.toFixed(0),
        `${round.p99Ms} ms`,
        String(round.non2xx + round.errors),
        String(round.swapsTaken),
      ]),
    )}\n\nMean p99 without swaps ${result.quietP99Ms} ms, during swaps ${result.swappingP99Ms} ms: ${formatRatio(result.ratio)}.`,
  ];
}

export const SWAP_REQUESTS_TARGET = 'Live policy: request p99 during swaps ≤ 1.1× without';

function targets(result: RequestsDuringSwapsResult | undefined): TargetVerdict[] {
  if (result === undefined) return [];
  if ('skipped' in result) return [notMeasured(SWAP_REQUESTS_TARGET)];
  const clean = result.rounds.every((round) => round.non2xx + round.errors === 0);
  return [
    {
      target: SWAP_REQUESTS_TARGET,
      measured: `${formatRatio(result.ratio)} (${result.swappingP99Ms} ms vs ${result.quietP99Ms} ms)${clean ? '' : '; SOME REQUESTS FAILED'}`,
      met: result.ratio <= 1.1 && clean,
    },
  ];
}

/** Requests served while a live policy is swapped. */
export const livePolicyRequestsBenchmark: Benchmark<RequestsDuringSwapsResult> = { title: 'requests during swaps', run, sections, targets };
