/**
 * Calling an ownership hook safely: a hook that throws, rejects, answers with the wrong type or
 * never settles becomes a {@link PermissionsHookError}, so it can never grant by accident.
 */
import { describeValue } from '../common/describe-value.js';
import { PermissionsHookError } from '../common/errors.js';
import type { BoundHook } from '../tables/table-loader.js';

function errorMessage(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    // A thrown value whose toString throws (or a revoked proxy) still needs a message.
    return 'a value that cannot be shown';
  }
}

function hookError(hook: BoundHook, what: string, cause: unknown): PermissionsHookError {
  return new PermissionsHookError(hook.name, `Ownership hook ${hook.name} ${what}: ${errorMessage(cause)}`, { cause });
}

/** An answer that `accept` refused (already a PermissionsHookError) or could not even read (a hostile array or proxy threw). */
function unreadable(hook: BoundHook, error: unknown): PermissionsHookError {
  return error instanceof PermissionsHookError ? error : hookError(hook, 'answered with a value that cannot be read', error);
}

/**
 * Calls `hook` and checks its answer with `accept` (which throws a PermissionsHookError when the
 * answer is wrong). Rejects with a PermissionsHookError on throw, rejection, wrong answer or
 * time-out — also when the answer is a hostile thenable (a `then` getter or method that throws,
 * or a `then` that never calls back), so nothing a hook returns can escape as a raw error.
 *
 * @example
 * ```ts
 * const owned = await callHook(isOwner, { user, resourceId: 3 }, 5000, expectBoolean);
 * ```
 */
export function callHook<T>(hook: BoundHook, args: object, timeoutMs: number, accept: (value: unknown, hook: string) => T): Promise<T> {
  let result: unknown;
  let then: unknown;
  try {
    result = hook.call(args);
  } catch (error) {
    return Promise.reject(hookError(hook, 'threw', error));
  }
  try {
    // Read once: a getter may answer differently (or throw) on a second read.
    then = (typeof result === 'object' || typeof result === 'function') && result !== null ? (result as { then?: unknown }).then : undefined;
  } catch (error) {
    return Promise.reject(hookError(hook, "answered with an object whose 'then' cannot be read", error));
  }
  if (typeof then !== 'function') {
    try {
      return Promise.resolve(accept(result, hook.name));
    } catch (error) {
      return Promise.reject(unreadable(hook, error));
    }
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new PermissionsHookError(
              hook.name,
              `Ownership hook ${hook.name} did not settle within ${timeoutMs} ms; access is refused. Make the hook answer faster, or raise hookTimeoutMs.`,
            ),
          ),
        ),
      timeoutMs,
    );
    timer.unref?.();
    // A thenable may call back more than once, or both ways: the first answer counts.
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    try {
      (then as (onFulfilled: (value: unknown) => void, onRejected: (error: unknown) => void) => unknown).call(
        result,
        (value) =>
          settle(() => {
            try {
              resolve(accept(value, hook.name));
            } catch (error) {
              reject(unreadable(hook, error));
            }
          }),
        (error) => settle(() => reject(hookError(hook, 'rejected', error))),
      );
    } catch (error) {
      settle(() => reject(hookError(hook, "answered with a thenable whose 'then' threw", error)));
    }
  });
}

/**
 * Calls a synchronous hook (limitOwned, which configures a filter and never waits): a throw becomes
 * a PermissionsHookError, like every other hook failure.
 *
 * @example
 * ```ts
 * const filter = callHookSync(limitOwned, { user });
 * ```
 */
export function callHookSync(hook: BoundHook, args: object): unknown {
  let filter: unknown;
  try {
    filter = hook.call(args);
  } catch (error) {
    throw hookError(hook, 'threw', error);
  }
  if (filter instanceof Promise) {
    // An async method: its filter would arrive after limitOwn() returned, and the promise would be taken for the filter.
    filter.catch(() => undefined);
    throw new PermissionsHookError(
      hook.name,
      `Ownership hook ${hook.name} returned a promise, not a filter; access is refused. A filter describes records and waits for nothing: ` +
        'return it as it is (not from an async method).',
    );
  }
  return filter;
}

/** Accepts only `true` or `false` from an isOwner hook. */
export function expectBoolean(value: unknown, hook: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new PermissionsHookError(
    hook,
    `isOwner hook ${hook} returned ${describeValue(value, { quoteStrings: false })}, not a boolean; access is refused. Return true or false.`,
  );
}

/** Accepts only an array from a listOwned hook. */
export function expectArray(value: unknown, hook: string): readonly unknown[] {
  if (Array.isArray(value)) return value;
  throw new PermissionsHookError(
    hook,
    `listOwned hook ${hook} returned ${describeValue(value, { quoteStrings: false })}, not an array of ids; nothing is treated as owned. Return an array.`,
  );
}
