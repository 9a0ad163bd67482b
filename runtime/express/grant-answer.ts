/**
 * How the express integration sends what the integration kit decided: the decision headers, then 400 or 403
 * with the kit's JSON body, or the Permit on `req.permit` and `next()`; errors go to `next(error)`. Both the
 * per-route middleware and the query-on-request middleware end here.
 */
import type { ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
import type { GrantQuery, Permissions, Permit, User } from '../permissions/index.js';
import { decideRequest, errorOfThrown, type ErrorAnswer } from '../integration/index.js';

/**
 * Sends an answer of the integration kit.
 *
 * @example
 * ```ts
 * sendAnswer(res, errorAnswer(403, 'read on document is not granted'));
 * ```
 */
export function sendAnswer(res: ExpressResponse, answer: ErrorAnswer): void {
  res.status(answer.status).json(answer.body);
}

/**
 * Decides `query` and answers: 400 for a resource id that is no id of the resource, 403 when nothing is
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
  decideRequest(permissions, query, 'express').then(
    (decision) => {
      // The policy that decided this response, granted or refused, and the decision's call id for the application's logs.
      if (decision.headers !== undefined && typeof res.setHeader === 'function' && (res as { headersSent?: boolean }).headersSent !== true)
        for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
      if (!decision.granted) {
        sendAnswer(res, decision.answer);
        return;
      }
      (req as ExpressRequest & { permit?: Permit<TUser, unknown, TFilter> }).permit = decision.permit;
      next();
    },
    (error: unknown) => next(errorOfThrown(error)),
  );
}
