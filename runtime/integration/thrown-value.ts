/**
 * What the application's code threw, as an Error. A framework passes only Errors on as failures: Express reads
 * `next(undefined)`, `next(null)` and `next(false)` as "go on" and `next('route')` as "skip to the next route" — a
 * `getUser` that rejects with nothing would run the guarded handler — and Hono gives its error handler only
 * Errors, answering anything else with an empty 500 that nobody hears of. An integration passes what `getUser`,
 * `getTenant` or `projectResourceId` threw through {@link errorOfThrown}; `answerOfError` answers the wrapper as it
 * answers the value it holds (an object carrying a 4xx `statusCode` keeps its status).
 */
import { describeValue } from '../core/common/describe-value.js';

/** What a message says of a thrown value; a revoked Proxy throws even when asked whether it is an array. */
function describeThrown(thrown: unknown): string {
  try {
    return describeValue(thrown);
  } catch {
    return 'a value that cannot be read';
  }
}

/** Whether `thrown` is an Error; a Proxy whose getPrototypeOf trap throws is none. */
function isError(thrown: unknown): thrown is Error {
  try {
    return thrown instanceof Error;
  } catch {
    return false;
  }
}

/**
 * A value thrown that is not an Error, wrapped: `thrown` is the value.
 *
 * @example
 * ```ts
 * new ThrownValueError(undefined).message; // 'The application threw undefined, which is not an Error.'
 * ```
 */
export class ThrownValueError extends Error {
  constructor(readonly thrown: unknown) {
    super(`The application threw ${describeThrown(thrown)}, which is not an Error.`);
    this.name = 'ThrownValueError';
  }
}

/**
 * `thrown` when it is an Error, else a {@link ThrownValueError} holding it: what an integration hands its framework
 * as a failure, so that no thrown value can read as "go on". Never throws: a value whose Proxy traps throw (its
 * prototype cannot be read) is wrapped like any value that is no Error.
 *
 * @example
 * ```ts
 * promise.then(onGranted, (error: unknown) => next(errorOfThrown(error))); // Express: never next(undefined)
 * ```
 */
export function errorOfThrown(thrown: unknown): Error {
  return isError(thrown) ? thrown : new ThrownValueError(thrown);
}
