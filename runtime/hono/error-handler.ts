/**
 * `permissionsErrorHandler()`: a Hono error handler (`app.onError`) that answers every error as JSON, the way
 * `permit()` answers its own refusals (the integration kit's answers), and never shows what the application did
 * not mean to show.
 */
import type { Context, ErrorHandler } from 'hono';
import { answerOfError, serverErrorReporter } from '../integration/index.js';

/** Options of {@link permissionsErrorHandler}. */
export interface PermissionsErrorHandlerOptions {
  /**
   * Sees every error answered with 500 (a failing ownership hook, a bug), to log it. Default: `console.error`.
   * What it throws (or a promise it returns rejects with) changes nothing of the answer.
   */
  readonly onServerError?: ((error: unknown, c: Context) => void) | undefined;
}

/**
 * An error that brings the response to send (Hono's `HTTPException` made with `{ res }`, as its auth middlewares
 * throw). One whose getters or Proxy traps throw brings none: it is answered as any other error that cannot be read.
 */
function ownResponseOf(error: unknown): Response | undefined {
  try {
    const { res, getResponse } = error as { res?: unknown; getResponse?: unknown };
    return res instanceof Response && typeof getResponse === 'function' ? (getResponse as () => Response).call(error) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates the error handler to register with `app.onError(…)`. It answers JSON `{ statusCode, error, message }`:
 * 400 for an id that is no id of its resource; the status and message of an error that carries a 4xx `status` or
 * `statusCode` (Hono's `HTTPException(401, { message })`, what `getUser` throws for an unknown caller); and 500
 * "Internal server error" for anything else — a failing ownership hook, a wiring mistake, a bug — with no message,
 * stack or cause of the original (those go to `onServerError`, whose own failure changes nothing of the answer). An
 * `HTTPException` made with a response of its own (`{ res }`) answers with that response. Without it Hono answers
 * 500 with the text "Internal Server Error". An `onServerError` that is not a function throws a
 * PermissionsUsageError here.
 *
 * @example
 * ```ts
 * app.onError(permissionsErrorHandler({ onServerError: (error) => logger.error(error) }));
 * ```
 */
export function permissionsErrorHandler(options: PermissionsErrorHandlerOptions = {}): ErrorHandler {
  const reportServerError = serverErrorReporter<[Context]>(options.onServerError, (error) => console.error(error), {
    name: 'permissionsErrorHandler',
    receives: 'c',
  });
  return (error, c) => {
    const own = ownResponseOf(error);
    if (own !== undefined) return own;
    const { status, body, serverError } = answerOfError(error);
    if (serverError) reportServerError(error, c);
    return c.json(body, status as 400 | 401 | 403 | 500);
  };
}
