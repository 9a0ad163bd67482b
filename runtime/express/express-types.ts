/**
 * The few parts of an express request and response that the integration uses, declared here so that
 * its types need no `@types/express`. Express's own `Request` and `Response` have them, so an
 * application passes its objects as they are, and the middleware fits wherever express wants a handler.
 */

/** A request, as the integration reads it. */
export interface ExpressRequest {
  readonly method: string;
  readonly originalUrl: string;
  /**
   * The path parameters of the matched route, decoded (a wildcard's value is a list of segments).
   * The same shape as express's `ParamsDictionary`, so that express infers the same types for the
   * route's other handlers as it would without the middleware.
   */
  readonly params?: { [name: string]: string | string[]; [index: number]: string };
  /** The matched route while its handlers run (express's `req.route`). */
  readonly route?: unknown;
}

/** A response, as the integration answers with it. */
export interface ExpressResponse {
  status(code: number): { json(body: unknown): unknown };
  /** Sets a response header (express's responses have it; the integration sends `x-permissions-version`). */
  setHeader?(name: string, value: string): unknown;
  /** Whether the response was already answered (by a timeout middleware, say): a late answer is then dropped. */
  readonly headersSent?: boolean;
  /** Whether the answer already sent is complete (Node.js's `writableEnded`). */
  readonly writableEnded?: boolean;
}

/** express's `next`: without an argument, the next handler runs; with an error, the error handlers. */
export type ExpressNext = (error?: unknown) => void;

/** A request handler (middleware) over requests of type `TRequest`. */
export type ExpressHandler<TRequest extends ExpressRequest = ExpressRequest> = (req: TRequest, res: ExpressResponse, next: ExpressNext) => void;
