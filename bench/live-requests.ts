/**
 * What policy swaps cost the requests being served: the example app follows a policy file (POLICY_FILE), and
 * autocannon loads a guarded endpoint in rounds without swaps and rounds during which the bench replaces the
 * file (write and rename, as a deployment does) every `swapIntervalMs` with the other of two versions. Both
 * versions answer the endpoint alike, so every response must be a 200; the rounds alternate (ABBA) so that
 * drift does not favour either.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileChangedExample } from '../test/live/fixtures/example-policy.js';
import { REPO_ROOT } from './build.bench.js';
import { EXAMPLE_MAIN, startExampleApp } from './example-app.js';

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
  | { readonly skipped: string }
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

/** The settings of this benchmark. */
export interface RequestsDuringSwapsSettings {
  readonly connections: number;
  readonly durationSeconds: number;
  /** Pairs of rounds (quiet, swapping), run in ABBA order. */
  readonly roundPairs: number;
  readonly swapIntervalMs: number;
}

const ENDPOINT = { path: '/documents-protected-simple/1', userId: 5, label: 'guarded GET /documents-protected-simple/1, SUPER_ADMIN' };

/** The example's policy bundle as compiled, and one whose EMPLOYEE also lists the status of others' documents. */
function exampleBundles(folder: string): [string, string] {
  const original = readFileSync(join(REPO_ROOT, 'generated', 'policy.json'), 'utf8');
  return [original, compileChangedExample(folder, '"list:any": ["title", "date"]', '"list:any": ["title", "date", "status"]').text];
}

const activations = (output: string): number => output.split('\n').filter((line) => / active, from file /.test(line)).length;

/**
 * Runs the rounds, or says why it could not (the app not built).
 *
 * @example
 * ```ts
 * const result = await measureRequestsDuringSwaps({ connections: 10, durationSeconds: 5, roundPairs: 2, swapIntervalMs: 100 });
 * ```
 */
export async function measureRequestsDuringSwaps(settings: RequestsDuringSwapsSettings, log: (line: string) => void): Promise<RequestsDuringSwapsResult> {
  if (!existsSync(EXAMPLE_MAIN)) return { skipped: 'dist/examples/documents/main.js does not exist: the HTTP benchmark builds it, and did not' };
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-bench-swaps-'));
  const policyFile = join(folder, 'policy.json');
  const { default: autocannon } = await import('autocannon');
  try {
    const bundles = exampleBundles(folder);
    writeFileSync(policyFile, bundles[0]);
    const app = await startExampleApp({ POLICY_FILE: policyFile });
    let written = 0;
    const swap = (): void => {
      written++;
      writeFileSync(`${policyFile}.next`, bundles[written % 2] as string);
      renameSync(`${policyFile}.next`, policyFile);
    };
    try {
      const load = (duration: number) =>
        autocannon({ url: `${app.base}${ENDPOINT.path}`, connections: settings.connections, duration, headers: { 'x-user-id': String(ENDPOINT.userId) } });
      await load(1);
      const rounds: SwapRound[] = [];
      const order = Array.from({ length: settings.roundPairs }, (_, i) => (i % 2 === 0 ? [false, true] : [true, false])).flat();
      for (const swapping of order) {
        const before = activations(app.output());
        const timer = swapping ? setInterval(swap, settings.swapIntervalMs) : undefined;
        const result = await load(settings.durationSeconds);
        clearInterval(timer);
        // Let the last replacement be read before counting.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const round = {
          swapping,
          requestsPerSecond: result.requests.average,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          swapsTaken: activations(app.output()) - before,
        };
        rounds.push(round);
        log(
          `  ${swapping ? 'swapping' : 'quiet   '} ${round.requestsPerSecond.toFixed(0)} req/s, p99 ${round.p99Ms} ms, ${round.swapsTaken} versions activated`,
        );
      }
      const p99Of = (swapping: boolean) => {
        const list = rounds.filter((round) => round.swapping === swapping);
        return list.reduce((sum, round) => sum + round.p99Ms, 0) / list.length;
      };
      const [quietP99Ms, swappingP99Ms] = [p99Of(false), p99Of(true)];
      return {
        endpoint: ENDPOINT.label,
        rounds,
        quietP99Ms,
        swappingP99Ms,
        ratio: swappingP99Ms / quietP99Ms,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        swapIntervalMs: settings.swapIntervalMs,
      };
    } finally {
      await app.stop();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
