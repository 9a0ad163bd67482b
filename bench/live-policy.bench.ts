/**
 * Benchmark 9: the live policy. The swap time of the largest scenario's tables (in process), the propagation of a
 * publish to three instances on PostgreSQL (and to one that only polls), and the p99 of requests served while
 * the policy is replaced every few milliseconds against the p99 without swaps.
 */
import { measurePropagation, type PropagationResult, type PropagationSettings } from './live-propagation.js';
import { measureRequestsDuringSwaps, type RequestsDuringSwapsResult, type RequestsDuringSwapsSettings } from './live-requests.js';
import { measureSwaps, type SwapResult } from './live-swap.js';
import type { BenchSubjects } from './subjects.js';

/** What benchmark 9 does in one run; the parts left undefined are skipped (the smoke run). */
export interface LivePolicySettings {
  readonly swaps: number;
  readonly propagation: PropagationSettings | undefined;
  readonly requests: RequestsDuringSwapsSettings | undefined;
}

export interface LivePolicyResult {
  readonly swap: SwapResult;
  readonly propagation: PropagationResult;
  readonly requests: RequestsDuringSwapsResult;
}

/**
 * Runs benchmark 9 on `largest` (the 10× scenario in a full run).
 *
 * @example
 * ```ts
 * const live = await runLivePolicyBench(subjects10x, benchSettings('full').livePolicy, console.log);
 * ```
 */
export async function runLivePolicyBench(
  largest: BenchSubjects,
  settings: LivePolicySettings,
  log: (line: string) => void = () => undefined,
): Promise<LivePolicyResult> {
  const swap = await measureSwaps(largest, settings.swaps);
  log(`  swap of the ${swap.scale}× tables (${swap.cells} cells): median ${swap.medianMs.toFixed(2)} ms, p99 ${swap.p99Ms.toFixed(2)} ms`);
  const propagation: PropagationResult =
    settings.propagation === undefined ? { skipped: 'smoke run: propagation runs only in `npm run bench`' } : await measurePropagation(settings.propagation);
  if ('notified' in propagation) log(`  propagation to 3 instances: p50 ${propagation.notified.p50Ms} ms, p99 ${propagation.notified.p99Ms} ms`);
  else log(`  propagation skipped: ${propagation.skipped}`);
  const requests: RequestsDuringSwapsResult =
    settings.requests === undefined
      ? { skipped: 'smoke run: requests during swaps run only in `npm run bench`' }
      : await measureRequestsDuringSwaps(settings.requests, log);
  return { swap, propagation, requests };
}
