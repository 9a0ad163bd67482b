/**
 * How the express integration sends what the integration kit decided: the decision headers, then 400 or 403
 * with the kit's JSON body, or the Permit on `req.permit` and `next()`; errors go to `next(error)`. Both the
 * per-route middleware and the query-on-request middleware end here.
 */
import type { ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
import type { GrantQuery, Permissions, Permit, User } from '../permissions/index.js';
import { decideRequest, errorOfThrown, type ErrorAnswer } from '../integration/index.js';

/** Whether `res` was already answered: a middleware that answers on a timeout may have done so while the decision ran. */
function answered(res: ExpressResponse): boolean {
  return res.headersSent === true;
}

/**
 * Sends an answer of the integration kit, unless the response was already answered (a timeout middleware's 503):
 * that answer stays as it was sent, and writing this one would throw ERR_HTTP_HEADERS_SENT.
 *
 * @example
 * ```ts
 * sendAnswer(res, errorAnswer(403, 'read on document is not granted'));
 * ```
 */
export function sendAnswer(res: ExpressResponse, answer: ErrorAnswer): void {
  if (!answered(res)) res.status(answer.status).json(answer.body);
}

/**
 * Decides `query` and answers: 400 for a resource id that is no id of the resource, 403 when nothing is
 * granted, else `req.permit = permit; next()`. When the response was already answered before the decision came
 * (a timeout middleware's 503), the refusal and the decision headers are dropped — writing them would throw
 * ERR_HTTP_HEADERS_SENT from a promise, which ends the process — while an error still goes to `next(error)`, so
 * that the application's error handler hears of it (`permissionsErrorHandler` reports it and leaves the answer as
 * sent), and a grant still runs the handler, as it would without a check. Nothing in the chain can become an
 * unhandled rejection.
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
  settleWith(
    decideRequest(permissions, query, 'express'),
    (decision, goOn) => {
      // The policy that decided this response, granted or refused, and the decision's call id for the application's logs.
      if (decision.headers !== undefined && typeof res.setHeader === 'function' && !answered(res))
        for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
      if (!decision.granted) {
        sendAnswer(res, decision.answer);
        return;
      }
      (req as ExpressRequest & { permit?: Permit<TUser, unknown, TFilter> }).permit = decision.permit;
      goOn();
    },
    next,
  );
}

/**
 * Runs `onValue` with what `promise` resolves to, or hands its failure to `next` as an Error. Whatever throws on
 * the way (writing an answer, `next` itself) goes to `next(error)` when `next` has not run yet, and is dropped
 * otherwise, so that it can never become an unhandled rejection, which ends a Node.js process.
 *
 * @example
 * ```ts
 * settleWith(loadUser(req), (user, goOn) => { req.user = user; goOn(); }, next);
 * ```
 */
export function settleWith<T>(promise: Promise<T>, onValue: (value: T, goOn: () => void) => void, next: ExpressNext): void {
  let handedOn = false;
  const goOn = (): void => {
    handedOn = true;
    next();
  };
  // An Error, whatever was thrown: Express reads next(undefined) as "go on" and next('route') as "skip this route".
  const fail = (error: unknown): void => {
    handedOn = true;
    next(errorOfThrown(error));
  };
  promise
    .then((value) => onValue(value, goOn), fail)
    .then(undefined, (error: unknown) => {
      if (handedOn) return;
      try {
        fail(error);
      } catch {
        // next itself threw: there is nowhere left to hand the error.
      }
    });
}
