/**
 * A bound on how many hook calls one operation has in flight: `filterPick` over thousands of items
 * whose ownership only a per-record `isOwner` can decide must not open thousands of database
 * queries at once.
 */

/** The most calls of a per-record hook that one operation (one `filterPick`) has in flight. */
export const MAX_HOOK_CALLS_IN_FLIGHT = 32;

/**
 * Runs the tasks of one operation with at most `limit` of them in flight; the others wait in order. Once one task
 * fails the operation has failed: the tasks still waiting are never started and reject with that error (a
 * database that went down is not asked thousands more times for an answer nobody reads).
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
  /** The first task that failed: once set, every task not yet started settles as it did, unstarted. */
  private failed: Promise<unknown> | undefined;

  constructor(private readonly limit: number) {}

  /** Starts `task` when a slot is free; settles as the task does, or rejects unstarted once a task failed. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        if (this.failed !== undefined) return void this.failed.then(resolve as () => void, reject);
        this.running++;
        const running = task();
        running.then(resolve, reject);
        running
          .catch(() => {
            this.failed ??= running;
          })
          .finally(() => {
            this.running--;
            // After a failure every waiting task is refused at once; otherwise the next one starts.
            if (this.failed !== undefined) for (const next of this.waiting.splice(0)) next();
            else this.waiting.shift()?.();
          });
      };
      if (this.running < this.limit) start();
      else this.waiting.push(start);
    });
  }
}
