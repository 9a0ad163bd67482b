/**
 * The bench's only source of randomness, seeded, so that every run builds the same scenario and samples the same
 * queries.
 */

/** The seeded PRNG (mulberry32): the same seed always gives the same scenario. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }

  /** `count` distinct elements, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(this.below(pool.length), 1)[0] as T);
    return out;
  }
}
