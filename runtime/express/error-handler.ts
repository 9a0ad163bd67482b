/**
 * `permissionsErrorHandler()`: an express error handler that answers every error as JSON, the way the
 * middleware answers its own refusals, and never shows what the application did not mean to show.
 */
import { PermissionsInvalidIdError } from '../core/index.js';
import type { ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';

/** The JSON body of an error answer. */
export interface ErrorBody {
  readonly statusCode: number;
  readonly error: string;
  readonly message: string;
}

/** Options of {@link permissionsErrorHandler}. */
export interface PermissionsErrorHandlerOptions {
  /** Sees every error answered with 500 (a failing ownership hook, a bug), to log it. Default: `console.error`. */
  readonly onServerError?: ((error: unknown, req: ExpressRequest) => void) | undefined;
}

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** The 4xx (or 503) status an error carries as `status` or `statusCode`, as express's own errors and http-errors do. */
function clientStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && Number.isInteger(value) && ((value >= 400 && value < 500) || value === 503) ? value : undefined;
}

/**
 * Creates the error handler to register last (`app.use(permissionsErrorHandler())`). It answers JSON
 * `{ statusCode, error, message }`: 400 for an id that is no id of its resource; the status and message of an
 * error that carries a 4xx `status` or `statusCode` (what `getUser` throws for an unknown caller: 401); and 500
 * "Internal server error" for anything else — a failing ownership hook, a wiring mistake, a bug — with no
 * message, stack or cause of the original (those go to `onServerError`). Without it express answers with an
 * HTML page, and outside production with a stack trace.
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
  const onServerError = options.onServerError ?? ((error: unknown) => console.error(error));
  // Express treats a handler as an error handler only when it declares four parameters.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  return (error, req, res, _next) => {
    const status = error instanceof PermissionsInvalidIdError ? 400 : clientStatusOf(error);
    if (status === undefined) {
      onServerError(error, req);
      const body: ErrorBody = { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };
      res.status(500).json(body);
      return;
    }
    const message = (error as { message?: unknown }).message;
    const body: ErrorBody = { statusCode: status, error: STATUS_NAMES[status] ?? 'Error', message: typeof message === 'string' ? message : '' };
    res.status(status).json(body);
  };
}
