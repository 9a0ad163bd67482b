/**
 * Calling an ownership hook safely: a hook that throws, rejects, answers with the wrong type or
 * never settles becomes a {@link PermissionsHookError}, so it can never grant by accident.
 */
import { PermissionsHookError } from './errors.js';

/** A hook bound to the ownership service it came from, with the name used in error messages. */
export interface BoundHook {
  readonly name: string;
  readonly call: (args: object) => unknown;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Calls `hook` and checks its answer with `accept` (which throws a message string when the answer
 * is wrong). Rejects with a PermissionsHookError on throw, rejection, wrong answer or time-out.
 *
 * @example
 * ```ts
 * const owned = await callHook(isOwner, { user, resourceId: 3 }, 5000, expectBoolean);
 * ```
 */
export function callHook<T>(hook: BoundHook, args: object, timeoutMs: number, accept: (value: unknown, hook: string) => T): Promise<T> {
  let result: unknown;
  try {
    result = hook.call(args);
  } catch (error) {
    return Promise.reject(new PermissionsHookError(hook.name, `Ownership hook ${hook.name} threw: ${describe(error)}`, { cause: error }));
  }
  if (!isThenable(result)) {
    try {
      return Promise.resolve(accept(result, hook.name));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PermissionsHookError(hook.name, `Ownership hook ${hook.name} did not settle within ${timeoutMs} ms; access is refused. Make the hook answer faster, or raise hookTimeoutMs.`)), timeoutMs);
    timer.unref?.();
    result.then(
      (value) => {
        clearTimeout(timer);
        try {
          resolve(accept(value, hook.name));
        } catch (error) {
          reject(error);
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new PermissionsHookError(hook.name, `Ownership hook ${hook.name} rejected: ${describe(error)}`, { cause: error }));
      },
    );
  });
}

/** Accepts only `true` or `false` from an isOwner hook. */
export function expectBoolean(value: unknown, hook: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new PermissionsHookError(hook, `isOwner hook ${hook} returned ${value === null ? 'null' : typeof value}, not a boolean; access is refused. Return true or false.`);
}

/** Accepts only an array from a listOwned hook. */
export function expectArray(value: unknown, hook: string): readonly unknown[] {
  if (Array.isArray(value)) return value;
  throw new PermissionsHookError(hook, `listOwned hook ${hook} returned ${value === null ? 'null' : typeof value}, not an array of ids; nothing is treated as owned. Return an array.`);
}

/**
 * Finds method `name` on `service` or its class, never on Object.prototype (so `toString` is not a
 * hook), and binds it to the service.
 *
 * @example
 * ```ts
 * resolveMethod(new DocumentOwnership(db), 'isCreator'); // the bound method, or undefined
 * ```
 */
export function resolveMethod(service: object, name: string): ((args: object) => unknown) | undefined {
  for (let target: object | null = service; target !== null && target !== Object.prototype; target = Object.getPrototypeOf(target) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    if (descriptor === undefined) continue;
    return typeof descriptor.value === 'function' ? (descriptor.value as (args: object) => unknown).bind(service) : undefined;
  }
  return undefined;
}
