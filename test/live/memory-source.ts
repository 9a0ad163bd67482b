/**
 * A policy source in memory for the live-policy tests: the test sets its current version and tells the follower
 * it changed; whether the follower stopped watching is recorded.
 */
import type { PolicySource, SourcedPolicy } from '../../runtime/live/policy-source.js';

/** What {@link memorySource} returns. */
export interface MemorySource {
  readonly source: PolicySource;
  /** Makes `next` the current version and notifies the follower. */
  readonly publish: (next: SourcedPolicy) => void;
  /** Whether the follower stopped watching (closed). */
  readonly stopped: boolean;
}

/**
 * A source holding `initial` (undefined: no version yet).
 *
 * @example
 * ```ts
 * const { source, publish } = memorySource({ bundle: v1, sequence: 1 });
 * const live = await permissions.follow(source);
 * publish({ bundle: v2, sequence: 2 });
 * ```
 */
export function memorySource(initial: SourcedPolicy | undefined, description = 'memory'): MemorySource {
  let current = initial;
  let notify: (() => void) | undefined;
  let stopped = false;
  return {
    source: {
      description,
      read: () => Promise.resolve(current),
      watch: (changed) => {
        notify = changed;
        return () => {
          stopped = true;
          return Promise.resolve();
        };
      },
    },
    publish: (next) => {
      current = next;
      notify?.();
    },
    get stopped() {
      return stopped;
    },
  };
}
