/**
 * A promise bounded in time: what a source of the application's own is asked (a policy's read, a tenant's custom
 * roles) may never settle, and whoever waits on it must not wait for ever. The late answer is dropped.
 */

/**
 * What `work()` settles to, or a rejection with `late()` when it has not settled within `timeoutMs`; a `work` that
 * throws rejects with what it threw. The timer is cleared either way.
 *
 * @example
 * ```ts
 * const version = await withinTime(() => source.read(tenant), 5000, () => new Error('it did not answer within 5000 ms'));
 * ```
 */
export function withinTime<T>(work: () => T | PromiseLike<T>, timeoutMs: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), timeoutMs);
  });
  return Promise.race([Promise.resolve().then(work), timeout]).finally(() => clearTimeout(timer));
}
