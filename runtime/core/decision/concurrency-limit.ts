/**
 * A bound on how many hook calls one operation has in flight: `filterPick` over thousands of items
 * whose ownership only a per-record `isOwner` can decide must not open thousands of database
 * queries at once.
 */

/** The most calls of a per-record hook that one operation (one `filterPick`) has in flight. */
export const MAX_HOOK_CALLS_IN_FLIGHT = 32;

/**
 * Runs tasks with at most `limit` of them in flight; the others wait in order.
 *
 * @example
 * ```ts
 * const limit = new ConcurrencyLimit(32);
 * const owned = await Promise.all(ids.map((id) => limit.run(() => isOwner({ user, resourceId: id }))));
 * ```
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Starts `task` when a slot is free; settles as the task does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.running++;
        task()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.waiting.shift()?.();
          });
      };
      if (this.running < this.limit) start();
      else this.waiting.push(start);
    });
  }
}
