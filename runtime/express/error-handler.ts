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
 * answer). Without it express answers with an HTML page, and outside production with a stack trace. An error
 * that comes after the response was answered is reported alike and answers nothing: an answer still being written
 * is handed on to Express's own handler, which closes the connection; a complete one is left as it was sent. An
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
  return (error, req, res, next) => {
    const { status, body, serverError } = answerOfError(error);
    if (serverError) reportServerError(error, req);
    if (res.headersSent !== true) res.status(status).json(body);
    // Answered already: writing would throw ERR_HTTP_HEADERS_SENT. An answer still being written (a stream that
    // failed) goes to Express's own handler, as its guide asks, which closes the connection so that the cut answer
    // is not taken for a whole one; a complete one (an error that came after a timeout's 503) is left as it was sent.
    else if (res.writableEnded !== true) next(error);
  };
}
