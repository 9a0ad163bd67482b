/**
 * The path parameters of a Fastify request as its URL carried them, kept before validation: a route's params
 * schema may coerce them (`{ id: { type: 'integer' } }` turns `'10'` into `10`, in place), and the record id is
 * read from the text the URL carried — converted by the resource's id type or `projectResourceId`, as on every
 * other route — so that a schema changes nothing of the check.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * The request decoration holding the copy: a registered symbol, as the permit's, so that two copies of this package
 * in one application see one decoration.
 *
 * @example
 * ```ts
 * instance.decorateRequest(RAW_PARAMS, null);
 * ```
 */
export const RAW_PARAMS: unique symbol = Symbol.for('typed-permissions.raw-params');

type WithRawParams = { [RAW_PARAMS]?: Readonly<Record<string, unknown>> | null };

/**
 * An `onRequest` hook that keeps a copy of the request's path parameters. The plugin adds it to its context:
 * Fastify runs a context's `onRequest` hooks before a route's own and before validation, which coerces the
 * parameters in place.
 *
 * @example
 * ```ts
 * instance.addHook('onRequest', keepRawParams);
 * ```
 */
export function keepRawParams(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  (request as unknown as WithRawParams)[RAW_PARAMS] = { ...(request.params as Readonly<Record<string, unknown>>) };
  done();
}

/**
 * The path parameters of `request` as the URL carried them: the copy {@link keepRawParams} kept, else (a request it
 * did not see) the request's own.
 *
 * @example
 * ```ts
 * rawResourceIdOf(resolved, rawParamsOf(request)); // '10', also where a params schema made request.params.id 10
 * ```
 */
export function rawParamsOf(request: FastifyRequest): Readonly<Record<string, unknown>> {
  return (request as unknown as WithRawParams)[RAW_PARAMS] ?? (request.params as Readonly<Record<string, unknown>>);
}
