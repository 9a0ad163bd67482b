/**
 * A generic express middleware: an earlier step puts a grant query on the request, this one asks for
 * a permit, refuses with 403 when nothing is granted, and otherwise puts the Permit on the request.
 */
import type { ExpressHandler, ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
import { PermissionsUsageError, type GrantQuery, type Permissions, type Permit, type User } from '../permissions/index.js';
import { errorOfThrown } from '../integration/index.js';
import { answerGrantQuery } from './grant-answer.js';

/**
 * An express request as the permissions middleware sees it: the grant query an earlier middleware
 * set (`permissionsQuery`), and the Permit this middleware set (`permit`). Nothing is added to
 * express's global `Request` type: cast to this type where you read or write these properties (pass
 * express's `Request` as `TRequest` to keep its own properties typed).
 *
 * @example
 * ```ts
 * app.get('/documents/:id', (req, res, next) => {
 *   const { permit } = req as RequestWithPermit<AppUser, number>;
 *   permit!.pick(findDocument(Number(req.params.id))).then((document) => res.json(document), next);
 * });
 * ```
 */
export type RequestWithPermit<
  TUser extends User<unknown> = User<unknown>,
  TId = unknown,
  TFilter = unknown,
  TRequest extends ExpressRequest = ExpressRequest,
> = TRequest & {
  /** The grant query, placed by an earlier middleware (read by default). */
  permissionsQuery?: GrantQuery<TUser, TId> | undefined;
  /** The Permit, placed by the permissions middleware when the query is granted. */
  permit?: Permit<TUser, TId, TFilter> | undefined;
};

/** Options of {@link createPermissionsMiddleware}. */
export interface PermissionsMiddlewareOptions<TUser extends User<unknown> = User<unknown>, TFilter = any, TRequest extends ExpressRequest = ExpressRequest> {
  /** A built engine (see {@link initPermissions}). */
  readonly permissions: Permissions<TUser, TFilter>;
  /** Reads the grant query of a request. Default: `req.permissionsQuery`. */
  readonly getQuery?: ((req: TRequest) => GrantQuery<TUser> | undefined) | undefined;
}

function defaultGetQuery(req: ExpressRequest): GrantQuery<any> | undefined {
  return (req as RequestWithPermit).permissionsQuery;
}

/**
 * Creates the permissions middleware. Per request it:
 * 1. reads the grant query (`getQuery(req)`, by default `req.permissionsQuery`, which an earlier
 *    middleware sets from the user, the route, and a resource id from params, query or body);
 * 2. calls `permissions.grantPermit(query)`;
 * 3. not granted → answers `403` with a JSON {@link PermissionsForbiddenBody} and does not call the
 *    next handler; granted → sets `req.permit` and calls `next()`.
 *
 * Errors go to `next(error)`, for the application's error handler (express answers 500 by default),
 * and the route handler never runs: an invalid query (PermissionsUsageError), an ownership hook that
 * threw, rejected or timed out (PermissionsHookError), and a **missing query**. A request without a
 * grant query is a wiring mistake (the step that sets it did not run, or `getQuery` does not match
 * it), so it is reported as a PermissionsUsageError through `next(error)` rather than answered with
 * 403, which would hide the mistake behind an ordinary refusal. Either way access is refused.
 *
 * `permissions` must already be built: an unbuilt engine throws here, at boot.
 *
 * @example
 * ```ts
 * const permissions = initPermissions(definitions, { ownership: new DocumentOwnership(db) });
 * app.get(
 *   '/documents/:id',
 *   (req, _res, next) => {
 *     (req as RequestWithPermit).permissionsQuery = { user: userOf(req), resource: 'document', action: 'read', resourceId: Number(req.params.id) };
 *     next();
 *   },
 *   createPermissionsMiddleware({ permissions }),
 *   async (req, res) => res.json(await (req as RequestWithPermit).permit!.pick(findDocument(Number(req.params.id)))),
 * );
 * ```
 */
export function createPermissionsMiddleware<TUser extends User<unknown> = User<unknown>, TFilter = any, TRequest extends ExpressRequest = ExpressRequest>(
  options: PermissionsMiddlewareOptions<TUser, TFilter, TRequest>,
): ExpressHandler<TRequest> {
  if (typeof options !== 'object' || options === null)
    throw new PermissionsUsageError('createPermissionsMiddleware(options): options must be an object { permissions, getQuery? }.');
  const { permissions, getQuery = defaultGetQuery } = options;
  if (typeof permissions !== 'object' || permissions === null || typeof permissions.grantPermit !== 'function') {
    throw new PermissionsUsageError('createPermissionsMiddleware(): options.permissions must be a Permissions instance (see initPermissions).');
  }
  if (!permissions.built)
    throw new PermissionsUsageError(
      'createPermissionsMiddleware(): options.permissions is not built; call permissions.build() at boot (or use ' +
        'initPermissions), before creating the middleware.',
    );
  if (typeof getQuery !== 'function')
    throw new PermissionsUsageError('createPermissionsMiddleware(): options.getQuery must be a function (req) => grant query.');

  return (req: TRequest, res: ExpressResponse, next: ExpressNext): void => {
    let query: GrantQuery<TUser> | undefined;
    try {
      query = getQuery(req);
    } catch (error) {
      next(errorOfThrown(error));
      return;
    }
    if (query === undefined || query === null) {
      next(
        new PermissionsUsageError(
          `No grant query for ${req.method} ${req.originalUrl}: set req.permissionsQuery = { user, resource, action, ` +
            `resourceId? } in a middleware that runs before the permissions middleware, or pass getQuery to ` +
            `createPermissionsMiddleware.`,
        ),
      );
      return;
    }
    answerGrantQuery(permissions, query, req, res, next);
  };
}
