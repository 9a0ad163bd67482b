/**
 * `createPermitMiddleware()`: the per-route form of the express integration. It runs as a route
 * handler — after the route matched, so `req.params` holds the route's parameters — reads the user,
 * resolves the record id from the route's path by the same rules as the NestJS guard, and answers
 * 400 (malformed id), 403 (not granted) or puts the Permit on the request.
 */
import type { ExpressHandler, ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
import { PermissionsUsageError, type Permissions, type PermissionsSchema, type TypedPermissions, type User } from '../permissions/index.js';
import {
  permissionsEngineOf,
  projectRequestId,
  rawResourceIdOf,
  resolveRoute,
  type ProjectResourceId,
  type ResourceIdParamSetting,
  type ResourceIdRoute,
} from '../integration/index.js';
import { answerGrantQuery, sendAnswer } from './grant-answer.js';

/** Options of {@link createPermitMiddleware}: what every route it protects shares. */
export interface PermitMiddlewareOptions<
  TUser extends User<unknown> = User<unknown>,
  TFilter = any,
  TResource extends string = string,
  TRequest extends ExpressRequest = ExpressRequest,
> {
  /**
   * The engine: what the generated `createPermissions()` returns (then every route's resource and action are
   * checked at compile time), or a built `Permissions` (see `initPermissions`).
   */
  readonly permissions: Permissions<TUser, TFilter> | TypedPermissions<PermissionsSchema, TUser, TFilter>;
  /**
   * The user of a request (id and roles): where the application's authentication left it. May be
   * async; a throw goes to `next(error)`. Requests without a real user should get a placeholder
   * user carrying a dedicated role.
   */
  readonly getUser: (req: TRequest) => TUser | Promise<TUser>;
  /** The resource of the routes, unless a route names its own. */
  readonly resource?: TResource | undefined;
  /**
   * Turns the id path parameter (text) into the resource's id; `undefined` or `null` answers 400 and the
   * request is never checked. Default: the resource's declared id type projects it (`'10'` → `10` where ids
   * are numbers; `'01'` or `'abc'` answers 400), and a resource without one keeps the text.
   */
  readonly projectResourceId?: ProjectResourceId | undefined;
}

/** What one route checks. */
export interface PermitRouteOptions<TResource extends string = string, TAction extends string = string> {
  readonly action: TAction;
  /** The resource, when not the middleware's. */
  readonly resource?: TResource | undefined;
  /**
   * The path parameter holding the record id. Default: `id` when it is the last parameter of the
   * route's path. `null`: the route acts on no single record although its path has parameters.
   */
  readonly resourceIdParam?: ResourceIdParamSetting;
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

/** The route object express puts on `req.route` while a route's handlers run. */
interface MatchedRoute {
  readonly path: unknown;
}

/** What a `permit(route)` middleware checks, kept for the boot-time route check (`checkPermitRoutes`). */
export interface PermitMiddlewareRoute {
  readonly action: string;
  readonly resource: string;
  readonly setting: ResourceIdParamSetting;
}

const permitRoutes = new WeakMap<object, PermitMiddlewareRoute>();

/**
 * @internal What `handler` checks, when it is a middleware `permit(route)` made.
 *
 * @example
 * ```ts
 * permitRouteOf(permit({ action: 'read' })); // { action: 'read', resource: 'document', setting: undefined }
 * ```
 */
export function permitRouteOf(handler: unknown): PermitMiddlewareRoute | undefined {
  return typeof handler === 'function' ? permitRoutes.get(handler) : undefined;
}

/**
 * Creates the per-route permissions middleware. Put `permit({ action })` in a route, before the
 * handler: it needs the matched route (`req.route`), so it cannot be mounted with `app.use`.
 *
 * Given what the generated `createPermissions()` returns, `permit()` is typed: a resource the definitions do
 * not name, or an action the route's resource does not have, is a compile error.
 *
 * Per request it reads the user (`getUser`), the record id from the route's path parameters
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
  if (typeof options !== 'object' || options === null)
    throw new PermissionsUsageError('createPermitMiddleware(options): options must be an object { permissions, getUser, resource?, projectResourceId? }.');
  const { getUser, resource: defaultResource, projectResourceId } = options;
  const permissions = permissionsEngineOf(options.permissions, 'createPermitMiddleware()');
  if (typeof getUser !== 'function') throw new PermissionsUsageError('createPermitMiddleware(): options.getUser must be a function (req) => user.');
  if (projectResourceId !== undefined && typeof projectResourceId !== 'function')
    throw new PermissionsUsageError('createPermitMiddleware(): options.projectResourceId must be a function (raw, { resource }) => id | undefined.');

  return (route) => {
    if (typeof route !== 'object' || route === null || typeof route.action !== 'string' || route.action === '')
      throw new PermissionsUsageError('permit(route): route must be an object { action, resource?, resourceIdParam? } with a non-empty action.');
    const resource = route.resource ?? defaultResource;
    if (typeof resource !== 'string' || resource === '')
      throw new PermissionsUsageError(`permit({ action: ${JSON.stringify(route.action)} }): no resource; pass resource here or to createPermitMiddleware.`);
    const setting = route.resourceIdParam;
    if (setting !== undefined && setting !== null && (typeof setting !== 'string' || setting === ''))
      throw new PermissionsUsageError(`permit(): resourceIdParam must be a parameter name or null, got ${JSON.stringify(setting)}.`);
    const { action } = route;
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
        next(error);
        return;
      }
      if ('answer' in requested) {
        sendAnswer(res, requested.answer);
        return;
      }
      const { resourceId } = requested;
      Promise.resolve()
        .then(() => getUser(req))
        .then(
          (user) => answerGrantQuery(permissions, { user, resource, action, resourceId }, req, res, next),
          (error: unknown) => next(error),
        );
    };
    permitRoutes.set(middleware, { action, resource, setting });
    return middleware;
  };
}
