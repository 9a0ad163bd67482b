/**
 * The answers of a refused or failed request, as data: a status and a JSON body `{ statusCode, error, message }`
 * that every integration sends alike — 400 for an id that is no id of its resource, 401 (or another 4xx) that
 * the application's own code throws for an unknown caller, 403 when nothing is granted, and 500 for anything
 * else, with nothing of the original error in it.
 */
import type { PermitReason } from '../core/decision/permit-reason.js';
import { PermissionsInvalidIdError } from '../core/common/errors.js';
import { ThrownValueError } from './thrown-value.js';

/**
 * The JSON body of an error answer.
 *
 * @example
 * ```ts
 * const body: ErrorBody = { statusCode: 401, error: 'Unauthorized', message: 'Unknown user' };
 * ```
 */
export interface ErrorBody {
  readonly statusCode: number;
  readonly error: string;
  readonly message: string;
}

/**
 * The JSON body of a 400, 403 or 503 answer of a permissions check (503: a tenant's custom roles cannot be read now).
 *
 * @example
 * ```ts
 * const body: PermissionsErrorBody = { statusCode: 400, error: 'Bad Request', message: '"x" is not an id of "document".' };
 * ```
 */
export interface PermissionsErrorBody extends ErrorBody {
  readonly statusCode: 400 | 403 | 503;
  readonly error: 'Bad Request' | 'Forbidden' | 'Service Unavailable';
}

/**
 * The reason a 403 answer shows the caller: `'not-owner'` when the user's roles grant the action on their own
 * records only and the record is not theirs, else `'no-grant'`. The caller learns nothing a refusal without it
 * would not tell: `'not-owner'` is about the caller's own roles (their slice says as much) and is the same for a
 * record that does not exist, whose ownership is answered "not owned" too; an unknown role, tenant, resource or
 * action is the server's mistake, not the caller's, and shows as `'no-grant'` (the permit, the decision log and
 * the warnings name it exactly).
 *
 * @example
 * ```ts
 * const reason: ForbiddenReason = decision.answer.body.reason; // 'not-owner': the record is not the caller's
 * ```
 */
export type ForbiddenReason = Extract<PermitReason, 'no-grant' | 'not-owner'>;

/**
 * What a 403 answer shows of a refused permit's reason ({@link ForbiddenReason}).
 *
 * @example
 * ```ts
 * forbiddenReason('not-owner'); // 'not-owner'
 * forbiddenReason('unknown-role'); // 'no-grant'
 * ```
 */
export function forbiddenReason(reason: PermitReason): ForbiddenReason {
  return reason === 'not-owner' ? 'not-owner' : 'no-grant';
}

/**
 * The JSON body of a 403 answer.
 *
 * @example
 * ```ts
 * const body: PermissionsForbiddenBody = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'no-grant' };
 * ```
 */
export interface PermissionsForbiddenBody extends PermissionsErrorBody {
  readonly statusCode: 403;
  readonly error: 'Forbidden';
  /** Why, as much as the caller may know ({@link ForbiddenReason}). */
  readonly reason: ForbiddenReason;
}

/**
 * An answer to send: the HTTP status and the JSON body.
 *
 * @example
 * ```ts
 * const answer: ErrorAnswer = errorAnswer(401, 'Unknown user');
 * response.writeHead(answer.status).end(JSON.stringify(answer.body));
 * ```
 */
export interface ErrorAnswer<TBody extends ErrorBody = ErrorBody> {
  readonly status: TBody['statusCode'];
  readonly body: TBody;
}

/**
 * The message of a 500 answer: what the application did not mean to show stays out of the response.
 *
 * @example
 * ```ts
 * answerOfError(new Error('db-7 is down')).body.message === INTERNAL_ERROR_MESSAGE; // true
 * ```
 */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * The answer of `status` with `message`: its body names the status (`'Unauthorized'` for 401; `'Error'` for a
 * status without a name here).
 *
 * @example
 * ```ts
 * errorAnswer(401, 'Unknown user'); // { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Unknown user' } }
 * ```
 */
export function errorAnswer(status: number, message: string): ErrorAnswer {
  return { status, body: { statusCode: status, error: STATUS_NAMES[status] ?? 'Error', message } };
}

/** The 4xx (or 503) status an error carries as `status` or `statusCode`, as express's own errors and http-errors do. */
function clientStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && Number.isInteger(value) && ((value >= 400 && value < 500) || value === 503) ? value : undefined;
}

/**
 * The answer to an error a request ran into: 400 for a PermissionsInvalidIdError; the status and message of an
 * error that carries a 4xx (or 503) `status` or `statusCode` (what an application's `getUser` throws for an
 * unknown caller: 401); else 500 `"Internal server error"`, with `serverError: true` so that the integration
 * hands the error to the application's logging — its message, stack and cause are never in the body. Never
 * throws: a value whose getters or Proxy traps throw while it is read (a `statusCode` computed from a store that
 * is down) is answered with that 500 too.
 *
 * @example
 * ```ts
 * const { status, body, serverError } = answerOfError(error);
 * if (serverError) logger.error(error);
 * reply.code(status).send(body);
 * ```
 */
export function answerOfError(failure: unknown): ErrorAnswer & { readonly serverError: boolean } {
  try {
    return answerOfReadableError(failure);
  } catch {
    // Left to throw, the error path itself would fail: Express would answer its HTML page (the inner error's
    // stack outside production), Fastify the inner error's message. The value is reported as it was thrown.
    return internalErrorAnswer();
  }
}

function internalErrorAnswer(): ErrorAnswer & { readonly serverError: true } {
  return { ...errorAnswer(500, INTERNAL_ERROR_MESSAGE), serverError: true };
}

/** {@link answerOfError}, for a value that may throw while its prototype, status or message is read. */
function answerOfReadableError(failure: unknown): ErrorAnswer & { readonly serverError: boolean } {
  // A wrapped value is answered as the value (one level: errorOfThrown never wraps an Error).
  const error = failure instanceof ThrownValueError ? failure.thrown : failure;
  const status = error instanceof PermissionsInvalidIdError ? 400 : clientStatusOf(error);
  if (status === undefined) return internalErrorAnswer();
  const message = (error as { message?: unknown }).message;
  return { ...errorAnswer(status, typeof message === 'string' ? message : ''), serverError: false };
}
