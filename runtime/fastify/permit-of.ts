/**
 * `permitOf(request)`: the Permit a route's `permit({ action })` hook put on a Fastify request, for the handler.
 * The permit sits on a request decoration under a symbol, so that it can collide with no other plugin's
 * decoration and is read through one typed accessor.
 */
import { PermissionsUsageError, type Permit, type User } from '../permissions/index.js';

/**
 * The request decoration holding the permit: a registered symbol, so that two copies of this package in one
 * application (a dependency's and the application's) still see one decoration, and a second registration of the
 * plugin is found.
 *
 * @example
 * ```ts
 * instance.hasRequestDecorator(PERMIT_DECORATION); // true once fastifyPermissions is registered here or above
 * ```
 */
export const PERMIT_DECORATION: unique symbol = Symbol.for('typed-permissions.permit');

/** What `permitOf` reads of a request: Fastify's requests have it, whatever their route's types. */
export interface RequestWithPermit {
  readonly method: string;
  /** The matched route (its path pattern names it in messages, never the request's own URL). */
  readonly routeOptions: { readonly url?: string | undefined };
}

/**
 * The Permit the route's `permit({ action })` hook put on `request`. Throws a PermissionsUsageError — the handler
 * fails with 500 rather than run unrestricted — when there is none: the route has no `permit()` hook, or the
 * `fastifyPermissions` plugin does not enclose it.
 *
 * @example
 * ```ts
 * app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, async (request) => {
 *   const permit = permitOf<AppUser, number>(request);
 *   return permit.pick(await documents.findById(permit.resourceId as number));
 * });
 * ```
 */
export function permitOf<TUser extends User<unknown> = User<unknown>, TId = unknown, TFilter = any>(request: RequestWithPermit): Permit<TUser, TId, TFilter> {
  const permit: unknown = (request as unknown as { [PERMIT_DECORATION]?: unknown })[PERMIT_DECORATION];
  if (typeof permit !== 'object' || permit === null) {
    throw new PermissionsUsageError(
      `permitOf(request) found no permit on ${request.method} ${request.routeOptions.url ?? '(no route)'}: put permit({ action }) in the ` +
        "route's preHandler option, and register the fastifyPermissions plugin before the route.",
    );
  }
  return permit as Permit<TUser, TId, TFilter>;
}
