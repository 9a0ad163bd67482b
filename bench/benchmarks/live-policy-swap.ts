/**
 * How long a policy swap takes on the 10× scenario's tables: from "the source changed" to the new version
 * active — parsing the bundle text, checking that its tables hash to its version, checking the vocabulary and
 * the hooks, indexing the tables and replacing the snapshot — through `permissions.follow` and an in-memory source.
 * It has no target of its own: the requests served during swaps are what a swap must not slow down.
 */
import { permissionsFromTables } from '../../runtime/permissions/index.js';
import type { PolicySource } from '../../runtime/live/policy-source.js';
import { policyBundleOf } from '../../runtime/live/policy-bundle.js';
import type { Benchmark, BenchContext } from '../harness/benchmark.js';
import { formatBytes, formatDelayMs } from '../harness/format.js';
import { buildPermissions } from '../harness/peers/typed-permissions.js';
import { median, quantile } from '../harness/statistics.js';
import { largestSubjects, type BenchSubjects } from '../harness/subjects.js';

/** Swap times of one scenario. */
export interface SwapResult {
  readonly scale: number;
  readonly cells: number;
  /** The size of one bundle's JSON text, in bytes. */
  readonly bundleBytes: number;
  readonly swaps: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** A source holding one bundle's text at a time, which the bench replaces and announces. */
function memorySource(initial: string) {
  let text = initial;
  let changed: () => void = () => undefined;
  const source: PolicySource = {
    description: 'the bench',
    read: () => Promise.resolve({ bundle: JSON.parse(text) as unknown }),
    watch: (onChange) => {
      changed = onChange;
      return () => Promise.resolve();
    },
  };
  return { source, publish: (next: string) => ((text = next), changed()) };
}

/** Times `swaps` swaps between two versions of `subjects`' policy (the second drops the scenario's last definition). */
async function measureSwaps(subjects: BenchSubjects, swaps: number): Promise<SwapResult> {
  const { scenario, ownership } = subjects;
  const full = policyBundleOf(subjects.permissions.tables);
  const smaller = policyBundleOf(buildPermissions({ ...scenario, definitions: scenario.definitions.slice(0, -1) }, ownership).tables);
  const texts = [JSON.stringify(smaller), JSON.stringify(full)] as const;
  const permissions = permissionsFromTables(full, { ownership, logger: { warn: () => undefined } });
  const { source, publish } = memorySource(texts[1]);
  let activated: (() => void) | undefined;
  const live = await permissions.follow(source, {
    onChange: () => activated?.(),
    onReject: ({ reasons }) => {
      throw new Error(`the bench's version was rejected: ${reasons.join('; ')}`);
    },
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < swaps; i++) {
      const active = new Promise<void>((resolve) => (activated = resolve));
      const start = performance.now();
      publish(texts[i % 2] as string);
      await active;
      times.push(performance.now() - start);
    }
  } finally {
    await live.close();
  }
  return {
    scale: scenario.scale,
    cells: subjects.permissions.tables.cells.length,
    bundleBytes: Buffer.byteLength(texts[1]),
    swaps,
    medianMs: median(times),
    p99Ms: quantile(times, 0.99),
    maxMs: Math.max(...times),
  };
}

/** Swaps on the largest scenario's tables. */
async function run({ subjects, settings, log }: BenchContext): Promise<SwapResult> {
  const swap = await measureSwaps(largestSubjects(subjects), settings.livePolicy.swaps);
  log(`  swap of the ${swap.scale}× tables (${swap.cells} cells): median ${swap.medianMs.toFixed(2)} ms, p99 ${swap.p99Ms.toFixed(2)} ms`);
  return swap;
}

function sections(swap: SwapResult | undefined): string[] {
  if (swap === undefined) return [];
  return [
    `Live policy swap, from "the source changed" to the new version active (parse, hash check, vocabulary and hook checks, indexing, ` +
      `one assignment), ${swap.swaps} swaps between two versions of the ${swap.scale}× scenario's tables (${swap.cells} cells, ` +
      `${formatBytes(swap.bundleBytes)} of JSON): median ${formatDelayMs(swap.medianMs)}, p99 ${formatDelayMs(swap.p99Ms)}, max ${formatDelayMs(swap.maxMs)}.`,
  ];
}

/** The swap of a live policy, in process. */
export const livePolicySwapBenchmark: Benchmark<SwapResult> = { title: 'swap', run, sections, targets: () => [] };
