/**
 * The one way the express integration answers a grant query: 400 with a JSON body for an id that is no
 * id of its resource, 403 when nothing is granted, else the Permit on `req.permit` and `next()`; errors go to `next(error)`. Both the
 * per-route middleware and the query-on-request middleware end here.
 */
import { setDecisionHeaders } from '../http/decision-headers.js';
import type { ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
import { PermissionsInvalidIdError, type GrantQuery, type Permissions, type Permit, type User } from '../core/index.js';

/** The JSON body of a 400 or 403 answer. */
export interface PermissionsErrorBody {
  readonly statusCode: 400 | 403;
  readonly error: 'Bad Request' | 'Forbidden';
  readonly message: string;
}

/** The JSON body of a 403 answer. */
export interface PermissionsForbiddenBody extends PermissionsErrorBody {
  readonly statusCode: 403;
  readonly error: 'Forbidden';
}

/**
 * Answers with a JSON error body.
 *
 * @example
 * ```ts
 * sendError(res, 403, 'Forbidden', 'read on document is not granted');
 * ```
 */
export function sendError(res: ExpressResponse, statusCode: 400 | 403, error: 'Bad Request' | 'Forbidden', message: string): void {
  const body: PermissionsErrorBody = { statusCode, error, message };
  res.status(statusCode).json(body);
}

/**
 * Answers 400 when `error` is a resource id that is no id of its resource; says whether it did.
 *
 * @example
 * ```ts
 * if (!refuseInvalidId(error, res)) next(error);
 * ```
 */
export function refuseInvalidId(error: unknown, res: ExpressResponse): boolean {
  if (!(error instanceof PermissionsInvalidIdError)) return false;
  sendError(res, 400, 'Bad Request', error.message);
  return true;
}

/**
 * Asks for a permit and answers: 400 for a resource id that is no id of the resource, 403 when nothing is
 * granted, else `req.permit = permit; next()`.
 *
 * @example
 * ```ts
 * answerGrantQuery(permissions, { user, resource: 'document', action: 'read', resourceId: 10 }, req, res, next);
 * ```
 */
export function answerGrantQuery<TUser extends User<unknown>, TFilter>(
  permissions: Permissions<TUser, TFilter>,
  query: GrantQuery<TUser>,
  req: ExpressRequest,
  res: ExpressResponse,
  next: ExpressNext,
): void {
  let asked: Promise<Permit<TUser, unknown, TFilter>>;
  try {
    asked = permissions.grantPermitVia(query, 'express');
  } catch (error) {
    if (!refuseInvalidId(error, res)) next(error);
    return;
  }
  asked.then(
    (permit) => {
      // The policy that decided this response, granted or refused, and the decision's call id for the application's logs.
      setDecisionHeaders(res, permit);
      if (!permit.granted) {
        sendError(res, 403, 'Forbidden', `${query.action} on ${query.resource} is not granted`);
        return;
      }
      (req as ExpressRequest & { permit?: Permit<TUser, unknown, TFilter> }).permit = permit;
      next();
    },
    (error: unknown) => {
      if (!refuseInvalidId(error, res)) next(error);
    },
  );
}
