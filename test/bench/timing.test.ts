/**
 * The bench's per-call timing (bench/harness/timing.ts): a function whose first calls are slow, as a decision that
 * decodes a resource's cells on first use, is still timed in batches once warm — timed call by call, a 50 ns
 * function measures mitata's clock instead — and a slow function is timed call by call.
 */
import { describe, expect, it } from '@jest/globals';
import { BATCHED_CALL_NS, timeCall } from '../../bench/harness/timing.js';

/** Short measurements: the test reads whether calls were batched, never how long they took. */
const SETTINGS = {
  smoke: false,
  mitata: { min_cpu_time: 20e6, min_samples: 12, max_samples: 1e9, warmup_samples: 2, batch_samples: 4096 },
} as const;

/** Spins for `ms` milliseconds: a call that cannot take less. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('timing one call with mitata', () => {
  it('times a function whose first 20 calls take a millisecond each in batches, once warm', async () => {
    let calls = 0;
    const timed = await timeCall(() => {
      if (calls++ < 20) spin(1);
      return calls;
    }, SETTINGS);
    expect(timed.batched).toBe(true);
    expect(calls).toBeGreaterThan(20);
  }, 30_000);

  it('times an async function whose first calls are slow in batches too', async () => {
    let calls = 0;
    const timed = await timeCall(() => {
      if (calls++ < 5) spin(1);
      return Promise.resolve(calls);
    }, SETTINGS);
    expect(timed.batched).toBe(true);
  }, 30_000);

  it('times a call slower than the batching threshold one by one, and reports what it takes', async () => {
    const timed = await timeCall(() => spin(0.2), SETTINGS);
    expect(timed.batched).toBe(false);
    expect(BATCHED_CALL_NS).toBeLessThan(200_000);
    expect(timed.p50Ns).toBeGreaterThanOrEqual(200_000);
  }, 30_000);
});
