/**
 * `permitOf(req)`: the Permit the permissions middleware put on a request, for the route's handler.
 */
import { PermissionsUsageError, type Permit, type User } from '../permissions/index.js';
import type { ExpressRequest } from './express-types.js';

/**
 * The Permit `permit({ action })` (or the query middleware) put on `req`. Throws a PermissionsUsageError —
 * the handler fails with 500 rather than run unrestricted — when there is none: the route has no permissions
 * middleware before this handler.
 *
 * @example
 * ```ts
 * app.get('/documents/:id', permit({ action: 'read' }), async (req, res) => {
 *   const permit = permitOf<AppUser, number>(req);
 *   res.json(await permit.pick(await documents.findById(permit.resourceId!)));
 * });
 * ```
 */
export function permitOf<TUser extends User<unknown> = User<unknown>, TId = unknown, TFilter = any>(req: ExpressRequest): Permit<TUser, TId, TFilter> {
  const permit: unknown = (req as { permit?: unknown }).permit;
  if (typeof permit !== 'object' || permit === null) {
    throw new PermissionsUsageError(
      `permitOf(req) found no permit on ${req.method} ${req.originalUrl}: put permit({ action }) in the route before this handler.`,
    );
  }
  return permit as Permit<TUser, TId, TFilter>;
}
