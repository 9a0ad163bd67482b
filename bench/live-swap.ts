/**
 * How long a policy swap takes on the 10× scenario's tables: from "the source changed" to the new version
 * active — parsing the bundle text, checking that its tables hash to its version, checking the vocabulary and
 * the hooks, indexing the tables and replacing the snapshot — through `permissions.follow` and an in-memory source.
 */
import { permissionsFromTables } from '../runtime/permissions/index.js';
import type { PolicySource } from '../runtime/live/policy-source.js';
import { policyBundleOf } from '../runtime/live/policy-bundle.js';
import { quantile, median } from './measure.js';
import type { BenchSubjects } from './subjects.js';
import { buildPermissions } from './peers/typed-permissions.js';

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

/**
 * Times `swaps` swaps between two versions of `subjects`' policy (the second drops the scenario's last definition).
 *
 * @example
 * ```ts
 * const swap = await measureSwaps(subjectsOf10x, 50); // { medianMs: 9.1, p99Ms: 14, … }
 * ```
 */
export async function measureSwaps(subjects: BenchSubjects, swaps: number): Promise<SwapResult> {
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
