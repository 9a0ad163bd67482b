/**
 * `createPermitMiddleware()`: the per-route form of the express integration. It runs as a route
 * handler — after the route matched, so `req.params` holds the route's parameters — reads the user,
 * resolves the record id from the route's path by the same rules as the NestJS guard, and answers
 * 400 (malformed id), 403 (not granted) or puts the Permit on the request.
 */
import type { ExpressHandler, ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
import { PermissionsUsageError, type Permissions, type PermissionsSchema, type TypedPermissions, type User } from '../permissions/index.js';
import {
  checkPermitOptions,
  checkPermitRoute,
  errorOfThrown,
  projectRequestId,
  rawResourceIdOf,
  resolveRoute,
  type CheckedPermitRoute,
  type PermitOptions,
  type PermitRouteOptions,
  type ResourceIdRoute,
} from '../integration/index.js';
import { answerGrantQuery, sendAnswer, settleWith } from './grant-answer.js';

export type { PermitRouteOptions };

/**
 * Options of {@link createPermitMiddleware}: what every route it protects shares — the integration kit's
 * `PermitOptions`, where `permissions` is what the generated `createPermissions()` returns or a `Permissions`
 * that `initPermissions` built.
 */
export interface PermitMiddlewareOptions<
  TUser extends User<unknown> = User<unknown>,
  TFilter = any,
  TResource extends string = string,
  TRequest extends ExpressRequest = ExpressRequest,
> extends PermitOptions<TUser, TFilter, TResource, TRequest> {
  /**
   * The user of a request (id and roles): where the application's authentication left it. May be
   * async; a throw goes to `next(error)`. Requests without a real user should get a placeholder
   * user carrying a dedicated role.
   */
  readonly getUser: (req: TRequest) => TUser | Promise<TUser>;
}

/** The function {@link createPermitMiddleware} returns for a plain `Permissions`: one middleware per route. */
export type PermitRoute<TResource extends string = string, TAction extends string = string, TRequest extends ExpressRequest = ExpressRequest> = (
  route: PermitRouteOptions<TResource, TAction>,
) => ExpressHandler<TRequest>;

/**
 * The function {@link createPermitMiddleware} returns for generated permissions: the route's resource (its own,
 * else the middleware's `TDefault`) must be a resource of the schema, and its action an action of that resource.
 */
export type TypedPermitRoute<S extends PermissionsSchema, TDefault extends string, TRequest extends ExpressRequest = ExpressRequest> = <
  R extends keyof S['resources'] & string = TDefault & keyof S['resources'] & string,
>(
  route: PermitRouteOptions<R, S['resources'][R]['actions']>,
) => ExpressHandler<TRequest>;

/** How the integration kit's messages name this factory and what `getUser` is given. */
const FACTORY = { name: 'createPermitMiddleware', receives: 'req' } as const;

/** The route object express puts on `req.route` while a route's handlers run. */
interface MatchedRoute {
  readonly path: unknown;
}

/** What each `permit(route)` middleware checks, kept for the boot-time route check (`checkPermitRoutes`). */
const permitRoutes = new WeakMap<object, CheckedPermitRoute>();

/**
 * @internal What `handler` checks, when it is a middleware `permit(route)` made.
 *
 * @example
 * ```ts
 * permitRouteOf(permit({ action: 'read' })); // { action: 'read', resource: 'document', resourceIdParam: undefined }
 * ```
 */
export function permitRouteOf(handler: unknown): CheckedPermitRoute | undefined {
  return typeof handler === 'function' ? permitRoutes.get(handler) : undefined;
}

/**
 * Creates the per-route permissions middleware. Put `permit({ action })` in a route, before the
 * handler: it needs the matched route (`req.route`), so it cannot be mounted with `app.use`.
 *
 * Given what the generated `createPermissions()` returns, `permit()` is typed: a resource the definitions do
 * not name, or an action the route's resource does not have, is a compile error.
 *
 * Per request it reads the user (`getUser`) and the tenant (`getTenant`, when given), the record id from the route's path parameters
 * (`resourceIdParam`, default `id` when it is the path's last parameter; a path with parameters
 * that resolves no id parameter is refused rather than checked as a collection), projects it
 * (`projectResourceId`, else the resource's declared id type), answers 400 for an id that is no id of the
 * resource, asks for a permit, and answers 403 when nothing is granted, else puts the permit on `req.permit`
 * (read it with `permitOf(req)`) and calls the handler. Wiring mistakes, hook failures and errors of `getUser`
 * go to `next(error)`; access is never granted by an error. `checkPermitRoutes(app)` at boot finds the
 * routes whose record id is ambiguous before any request.
 *
 * @example
 * ```ts
 * const permit = createPermitMiddleware({ permissions: createPermissions({ ownership }), getUser: (req) => userOf(req), resource: 'document' });
 * router.get('/documents/:id', permit({ action: 'read' }), async (req, res) => {
 *   const permit = permitOf<AppUser, number>(req);
 *   res.json(await permit.pick(await documents.findById(permit.resourceId!)));
 * });
 * ```
 */
export function createPermitMiddleware<
  S extends PermissionsSchema,
  TUser extends User<unknown>,
  TFilter,
  TDefault extends keyof S['resources'] & string = never,
  TRequest extends ExpressRequest = ExpressRequest,
>(
  options: PermitMiddlewareOptions<TUser, TFilter, TDefault, TRequest> & { readonly permissions: TypedPermissions<S, TUser, TFilter> },
): TypedPermitRoute<S, TDefault, TRequest>;
export function createPermitMiddleware<
  TUser extends User<unknown> = User<unknown>,
  TFilter = any,
  TResource extends string = string,
  TAction extends string = string,
  TRequest extends ExpressRequest = ExpressRequest,
>(
  options: PermitMiddlewareOptions<TUser, TFilter, TResource, TRequest> & { readonly permissions: Permissions<TUser, TFilter> },
): PermitRoute<TResource, TAction, TRequest>;
export function createPermitMiddleware<TUser extends User<unknown>, TFilter, TRequest extends ExpressRequest>(
  options: PermitMiddlewareOptions<TUser, TFilter, string, TRequest>,
): PermitRoute<string, string, TRequest> {
  const { permissions, getUser, getTenant, resource: defaultResource, projectResourceId } = checkPermitOptions(options, FACTORY);

  return (route) => {
    const checked = checkPermitRoute(route, defaultResource, FACTORY.name);
    const { action, resource, resourceIdParam: setting } = checked;
    // Resolved once per matched route (and set of merged parent parameters), not per request.
    const resolved = new WeakMap<object, Map<string, ResourceIdRoute>>();

    const middleware = (req: TRequest, res: ExpressResponse, next: ExpressNext): void => {
      // The matched route object, or absent outside a route.
      const matchedRoute: unknown = req.route;
      if (typeof matchedRoute !== 'object' || matchedRoute === null) {
        next(
          new PermissionsUsageError(
            `permit({ action: ${JSON.stringify(action)} }) ran outside a route (${req.method} ${req.originalUrl}): put ` +
              `it in the route, router.get('/documents/:id', permit({ action }), handler), not in app.use(), so that it ` +
              `sees the route's parameters.`,
          ),
        );
        return;
      }
      const matched = matchedRoute as MatchedRoute;
      const params = (typeof req.params === 'object' && req.params !== null ? req.params : {}) as Readonly<Record<string, unknown>>;
      const names = Object.keys(params);
      const paramKey = [...names].sort().join('\u0000');
      let byParams = resolved.get(matched);
      if (byParams === undefined) resolved.set(matched, (byParams = new Map<string, ResourceIdRoute>()));
      let routeInfo = byParams.get(paramKey);
      if (routeInfo === undefined)
        byParams.set(
          paramKey,
          (routeInfo = resolveRoute({ label: `${req.method} ${String(matched.path)}`, path: matched.path, resourceIdParam: setting, inheritedParams: names })),
        );

      let requested: ReturnType<typeof projectRequestId>;
      try {
        requested = projectRequestId(rawResourceIdOf(routeInfo, params), resource, projectResourceId);
      } catch (error) {
        next(errorOfThrown(error));
        return;
      }
      if ('answer' in requested) {
        sendAnswer(res, requested.answer);
        return;
      }
      const { resourceId } = requested;
      settleWith(
        Promise.resolve().then(async () => ({ user: await getUser(req), tenant: await getTenant?.(req) })),
        ({ user, tenant }) => answerGrantQuery(permissions, { user, resource, action, resourceId, tenant }, req, res, next),
        next,
      );
    };
    permitRoutes.set(middleware, checked);
    return middleware;
  };
}
