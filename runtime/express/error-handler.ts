/**
 * `permissionsErrorHandler()`: an express error handler that answers every error as JSON, the way the
 * middleware answers its own refusals (the integration kit's answers), and never shows what the application
 * did not mean to show.
 */
import { answerOfError, serverErrorReporter } from '../integration/index.js';
import type { ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';

/** Options of {@link permissionsErrorHandler}. */
export interface PermissionsErrorHandlerOptions {
  /**
   * Sees every error answered with 500 (a failing ownership hook, a bug), to log it. Default: `console.error`.
   * What it throws (or a promise it returns rejects with) changes nothing of the answer.
   */
  readonly onServerError?: ((error: unknown, req: ExpressRequest) => void) | undefined;
}

/**
 * Creates the error handler to register last (`app.use(permissionsErrorHandler())`). It answers JSON
 * `{ statusCode, error, message }`: 400 for an id that is no id of its resource; the status and message of an
 * error that carries a 4xx `status` or `statusCode` (what `getUser` throws for an unknown caller: 401); and 500
 * "Internal server error" for anything else — a failing ownership hook, a wiring mistake, a bug — with no
 * message, stack or cause of the original (those go to `onServerError`, whose own failure changes nothing of the
 * answer). Without it express answers with an HTML page, and outside production with a stack trace. An
 * `onServerError` that is not a function throws a PermissionsUsageError here.
 *
 * @example
 * ```ts
 * app.get('/documents/:id', permit({ action: 'read' }), readDocument);
 * app.use(permissionsErrorHandler({ onServerError: (error) => logger.error(error) }));
 * ```
 */
export function permissionsErrorHandler(
  options: PermissionsErrorHandlerOptions = {},
): (error: unknown, req: ExpressRequest, res: ExpressResponse, next: ExpressNext) => void {
  const reportServerError = serverErrorReporter<[ExpressRequest]>(options.onServerError, (error) => console.error(error), {
    name: 'permissionsErrorHandler',
    receives: 'req',
  });
  // Express treats a handler as an error handler only when it declares four parameters.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  return (error, req, res, _next) => {
    const { status, body, serverError } = answerOfError(error);
    if (serverError) reportServerError(error, req);
    res.status(status).json(body);
  };
}
