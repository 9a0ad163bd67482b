/**
 * Caches bounded by count and by bytes. A cache keyed by something callers choose (a set of roles) must not
 * grow with what they send: each cache keeps at most `maxEntries` values, and every cache sharing a
 * {@link CacheBudget} keeps at most its `maxBytes` of estimated size together. When a value does not fit, the
 * oldest values (first in, first out, across the caches of the budget) are forgotten; a value larger than the
 * whole budget is returned to its caller and not kept. A cache given `spare` keeps, once, an oldest value that was
 * used since it was last passed over (second chance): the least recently used is forgotten first, without a cost
 * on reads beyond the mark the caller sets.
 */

/** One cached value, as the budget tracks it for eviction. */
interface Charge {
  readonly cache: BoundedCache<unknown, unknown>;
  readonly key: unknown;
  readonly bytes: number;
  released: boolean;
}

/**
 * A byte budget shared by several caches (one engine's caches of one kind), evicting across them oldest first.
 *
 * @example
 * ```ts
 * const budget = new CacheBudget(16 * 1024 * 1024);
 * const slices = new BoundedCache<string, PermissionSlice>(1024, budget);
 * ```
 */
export class CacheBudget {
  /** Charges oldest first from `head`; released ones stay until passed or compacted away (a queue, not a Map: no tombstones to walk). */
  private queue: Charge[] = [];
  private head = 0;
  private released = 0;
  private used = 0;

  constructor(readonly maxBytes: number) {}

  /** The estimated bytes of every value the caches of this budget hold. */
  get bytes(): number {
    return this.used;
  }

  /** @internal Makes room for `bytes` (forgetting the oldest values), records them, and returns the charge; undefined when they can never fit. */
  charge(cache: BoundedCache<unknown, unknown>, key: unknown, bytes: number): Charge | undefined {
    if (bytes > this.maxBytes) return undefined;
    // The charge at `head` is never a released one (release moves past them): forgetting it releases it and moves on,
    // and so does sparing it (its value is charged again, as the newest). Each value is spared at most once a pass.
    let spared = 0;
    while (this.used + bytes > this.maxBytes && this.head < this.queue.length) {
      const oldest = this.queue[this.head] as Charge;
      if (spared < this.queue.length - this.head && oldest.cache.spareOnce(oldest)) spared++;
      else oldest.cache.forget(oldest.key, oldest);
    }
    const charge: Charge = { cache, key, bytes, released: false };
    this.queue.push(charge);
    this.used += bytes;
    this.compact();
    return charge;
  }

  /** @internal Charges `charge`'s value again, as the newest, and releases the old charge. */
  renew(charge: Charge): Charge {
    const renewed: Charge = { cache: charge.cache, key: charge.key, bytes: charge.bytes, released: false };
    this.queue.push(renewed);
    this.used += charge.bytes;
    this.release(charge);
    return renewed;
  }

  /** @internal Releases a charge (its value was forgotten). */
  release(charge: Charge): void {
    if (charge.released) return;
    charge.released = true;
    this.released++;
    this.used -= charge.bytes;
    while (this.head < this.queue.length && (this.queue[this.head] as Charge).released) {
      this.head++;
      this.released--;
    }
  }

  /** Drops passed and released charges once they are most of the queue, so it stays proportional to what is kept. */
  private compact(): void {
    if (this.head + this.released < 1024 || (this.head + this.released) * 2 < this.queue.length) return;
    this.queue = this.queue.slice(this.head).filter((charge) => !charge.released);
    this.head = 0;
    this.released = 0;
  }
}

/**
 * A map with at most `maxEntries` values, whose values are charged to a {@link CacheBudget}.
 *
 * @example
 * ```ts
 * const cache = new BoundedCache<string, readonly number[]>(1024, new CacheBudget(1024 * 1024));
 * cache.set('EMPLOYEE', [1, 2], 64);
 * cache.get('EMPLOYEE'); // [1, 2]
 * ```
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly charge: Charge }>();

  constructor(
    readonly maxEntries: number,
    private readonly budget: CacheBudget,
    /** Called when a value is forgotten (to drop what indexes it elsewhere). */
    private readonly onForget?: (key: K, value: V) => void,
    /**
     * Asked about the oldest value before it is forgotten to make room: true keeps it, as the newest, this once
     * (the caller clears its own mark of use, so that the value is forgotten when next the oldest unless used again).
     */
    private readonly spare?: (key: K, value: V) => boolean,
  ) {}

  /** How many values are kept. */
  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Keeps `value` under `key`, charged `bytes` (an estimate of its size), forgetting the oldest values as needed. */
  set(key: K, value: V, bytes: number): void {
    const earlier = this.entries.get(key);
    if (earlier !== undefined) this.forget(key, earlier.charge);
    // Each value is spared at most once here: after a whole pass the oldest is forgotten whatever its mark says.
    for (let spared = 0; this.entries.size >= this.maxEntries;) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [K, { charge: Charge }];
      if (spared < this.entries.size && this.spareOnce(oldest.charge)) spared++;
      else this.forget(oldestKey, oldest.charge);
    }
    const charge = this.budget.charge(this as BoundedCache<unknown, unknown>, key, bytes);
    if (charge !== undefined) this.entries.set(key, { value, charge });
  }

  /** Forgets the value of `key`, if one is kept. */
  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry !== undefined) this.forget(key, entry.charge);
  }

  /** The keys kept, oldest first. */
  keys(): K[] {
    return [...this.entries.keys()];
  }

  /**
   * Makes the value of `key`, if one is kept, the newest: the last to be forgotten. For reads that are not on a hot
   * path (a Map delete and set, and a new charge); a hot path marks use for `spare` instead.
   *
   * @example
   * ```ts
   * tenants.refresh('acme'); // asked about just now: forgotten after every other tenant
   * ```
   */
  refresh(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.entries.set(key, { value: entry.value, charge: this.budget.renew(entry.charge) });
  }

  /**
   * @internal Keeps the value of `charge` as the newest (of this cache and of its budget) when `spare` says so;
   * false when it does not, or when `charge` is no longer the value's.
   */
  spareOnce(charge: Charge): boolean {
    const key = charge.key as K;
    const entry = this.entries.get(key);
    if (this.spare === undefined || entry?.charge !== charge || !this.spare(key, entry.value)) return false;
    this.refresh(key);
    return true;
  }

  /** @internal Forgets `key` if it still holds the value of `charge`, and releases the charge. */
  forget(key: unknown, charge: Charge): void {
    const entry = this.entries.get(key as K);
    if (entry?.charge === charge) {
      this.entries.delete(key as K);
      this.onForget?.(key as K, entry.value);
    }
    this.budget.release(charge);
  }
}
