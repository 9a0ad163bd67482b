/**
 * Handing the error behind a 500 answer to the application's reporter (`onServerError`, its logger), guarded.
 * The answer holds nothing of the error, and a reporter that throws — or returns a promise that rejects — changes
 * nothing of it either: left unguarded, a throw in an error handler hands the reporter's error to the framework's
 * own last handler (Express then answers with an HTML page that shows its stack outside production; Hono's
 * `fetch` throws it to the server), and a rejection nobody handles stops a Node.js process.
 */
import { functionOption } from '../core/shape/option-shapes.js';
import { usageChecked } from '../core/shape/shape-check.js';
import type { IntegrationFactory } from './permit-options.js';

/**
 * What an integration calls with the error of a 500 answer and its request (or context): never throws.
 *
 * @example
 * ```ts
 * const report: ServerErrorReporter<[Request]> = serverErrorReporter(options.onServerError, (error) => console.error(error), factory);
 * report(error, req);
 * ```
 */
export type ServerErrorReporter<TContext extends readonly unknown[] = [request: unknown]> = (error: unknown, ...context: TContext) => void;

const ignore = (): void => undefined;

/**
 * The reporter of an integration's server errors: the application's `onServerError` (else `fallback`), checked
 * when the integration is made — anything but a function or undefined throws a `PermissionsUsageError`
 * (`permissionsErrorHandler(): options.onServerError must be a function (error, req) => void.`) — and wrapped
 * so that what it throws, or the rejection of a promise it returns, is dropped: the answer stays the 500 with
 * nothing of the error. A reporter that fails has failed to report; this library has nowhere more reliable to
 * write it than the reporter the application chose.
 *
 * @example
 * ```ts
 * const report = serverErrorReporter(options.onServerError, (error) => console.error(error), { name: 'koaPermissions', receives: 'ctx' });
 * const { status, body, serverError } = answerOfError(error);
 * if (serverError) report(error, ctx);
 * ctx.status = status;
 * ctx.body = body;
 * ```
 */
export function serverErrorReporter<TContext extends readonly unknown[]>(
  onServerError: ((error: unknown, ...context: TContext) => unknown) | undefined,
  fallback: ServerErrorReporter<TContext>,
  factory: Pick<IntegrationFactory, 'name' | 'receives'>,
): ServerErrorReporter<TContext> {
  // Checked all the same: an application in JavaScript passes anything.
  const given = usageChecked(
    functionOption(`${factory.name}(): options.onServerError must be a function (error, ${factory.receives}) => void.`),
    onServerError,
  ) as typeof onServerError;
  const report = given ?? fallback;
  return (error, ...context) => {
    try {
      const result = report(error, ...context);
      // An async reporter's rejection, handled here so that it cannot stop the process.
      if (typeof result === 'object' && result !== null && typeof (result as PromiseLike<unknown>).then === 'function')
        (result as PromiseLike<unknown>).then(undefined, ignore);
    } catch {
      // Dropped, so that the answer stays the 500 that holds nothing of the error.
    }
  };
}
