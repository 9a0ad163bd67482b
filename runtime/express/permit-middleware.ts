/**
 * `createPermitMiddleware()`: the per-route form of the express integration. It runs as a route
 * handler — after the route matched, so `req.params` holds the route's parameters — reads the user,
 * resolves the record id from the route's path by the same rules as the NestJS guard, and answers
 * 400 (malformed id), 403 (not granted) or puts the Permit on the request.
 */
import type { ExpressHandler, ExpressNext, ExpressRequest, ExpressResponse } from './express-types.js';
import { PermissionsUsageError, type Permissions, type User } from '../core/index.js';
import { resolveResourceIdParam, type ResolvedResourceIdParam, type ResourceIdParamProblem, type ResourceIdParamSetting } from '../core/resource-id-param.js';
import { rawResourceIdOf, type ResourceIdRoute } from '../http/request-resource-id.js';
import { routePathParams } from '../http/route-path-params.js';
import { answerGrantQuery, sendError } from './grant-answer.js';

/** Options of {@link createPermitMiddleware}: what every route it protects shares. */
export interface PermitMiddlewareOptions<
  TUser extends User<unknown> = User<unknown>,
  TFilter = any,
  TResource extends string = string,
  TRequest extends ExpressRequest = ExpressRequest,
> {
  /** A built engine (see `initPermissions`). */
  readonly permissions: Permissions<TUser, TFilter>;
  /**
   * The user of a request (id and roles): where the application's authentication left it. May be
   * async; a throw goes to `next(error)`. Requests without a real user should get a placeholder
   * user carrying a dedicated role.
   */
  readonly getUser: (req: TRequest) => TUser | Promise<TUser>;
  /** The resource of the routes, unless a route names its own. */
  readonly resource?: TResource | undefined;
  /**
   * Turns the id path parameter (text) into the resource's id. Return `undefined` when the text is
   * not an id of the resource: the request is answered 400 and never checked. Default: the text.
   */
  readonly projectResourceId?: ((raw: string, context: { readonly resource: string }) => unknown) | undefined;
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

/** The function {@link createPermitMiddleware} returns: one middleware per route. */
export type PermitRoute<TResource extends string = string, TAction extends string = string, TRequest extends ExpressRequest = ExpressRequest> = (
  route: PermitRouteOptions<TResource, TAction>,
) => ExpressHandler<TRequest>;

/** The route object express puts on `req.route` while a route's handlers run. */
interface MatchedRoute {
  readonly path: unknown;
}

function isValidResourceId(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Resolves where a route's record id comes from. The route path is what express matched (so a
 * route mounted on a router knows only its own part): parameters a parent router merged in
 * (`mergeParams`) are never taken as the id by default — a route without parameters of its own
 * under a parent that has some must say which one it means, or `null`.
 */
function resolveRoute(label: string, route: MatchedRoute, setting: ResourceIdParamSetting, params: Readonly<Record<string, unknown>>): ResourceIdRoute {
  const paths =
    typeof route.path === 'string' ? [route.path] : Array.isArray(route.path) && route.path.every((path) => typeof path === 'string') ? route.path : undefined;
  if (paths === undefined) {
    const resourceId: ResolvedResourceIdParam | ResourceIdParamProblem =
      setting === null
        ? { kind: 'none' }
        : {
            problem: 'is a RegExp route, whose parameters cannot be read',
            fix: 'Give the route a string path (/documents/:id), or pass resourceIdParam: null if it acts on no single record.',
          };
    return { label, paths: [String(route.path)], resourceId, declaredParams: new Set(Object.keys(params)) };
  }
  const variants = paths.map(routePathParams);
  const own = new Set(variants.flat().map((param) => param.name));
  const merged = Object.keys(params).filter((name) => !own.has(name));
  let resourceId: ResolvedResourceIdParam | ResourceIdParamProblem;
  if (typeof setting === 'string' && !own.has(setting) && merged.includes(setting)) resourceId = { kind: 'param', name: setting, optional: false };
  else if (setting === undefined && merged.length > 0 && own.size === 0) {
    resourceId = {
      problem:
        `has no path parameter of its own, but receives ${merged.map((name) => JSON.stringify(name)).join(', ')} ` +
        `from a parent router, which may or may not be the record's id`,
      fix:
        `Set resourceIdParam to the parameter that holds the record id (one of ` +
        `${merged.map((name) => JSON.stringify(name)).join(', ')}), or to null if the route acts on no single record.`,
    };
  } else resourceId = resolveResourceIdParam(variants, setting, setting === undefined ? 'default' : 'handler');
  return { label, paths, resourceId, declaredParams: new Set([...own, ...merged]) };
}

/**
 * Creates the per-route permissions middleware. Put `permit({ action })` in a route, before the
 * handler: it needs the matched route (`req.route`), so it cannot be mounted with `app.use`.
 *
 * Per request it reads the user (`getUser`), the record id from the route's path parameters
 * (`resourceIdParam`, default `id` when it is the path's last parameter; a path with parameters
 * that resolves no id parameter is refused rather than checked as a collection), projects it
 * (`projectResourceId`; `undefined` → 400), asks for a permit, and answers 403 when nothing is
 * granted, else puts the permit on `req.permit` and calls the handler. Wiring mistakes, hook
 * failures and errors of `getUser` go to `next(error)`; access is never granted by an error.
 *
 * @example
 * ```ts
 * const permit = createPermitMiddleware({ permissions, getUser: (req) => userOf(req), resource: 'document', projectResourceId: documentId });
 * router.get('/documents/:id', permit({ action: 'read' }), async (req, res) => {
 *   const { permit } = req as RequestWithPermit<AppUser, number>;
 *   res.json(await permit!.pick(await documents.findById(permit!.resourceId!)));
 * });
 * ```
 */
export function createPermitMiddleware<
  TUser extends User<unknown> = User<unknown>,
  TFilter = any,
  TResource extends string = string,
  TAction extends string = string,
  TRequest extends ExpressRequest = ExpressRequest,
>(options: PermitMiddlewareOptions<TUser, TFilter, TResource, TRequest>): PermitRoute<TResource, TAction, TRequest> {
  if (typeof options !== 'object' || options === null)
    throw new PermissionsUsageError('createPermitMiddleware(options): options must be an object { permissions, getUser, resource?, projectResourceId? }.');
  const { permissions, getUser, resource: defaultResource, projectResourceId } = options;
  if (typeof permissions !== 'object' || permissions === null || typeof permissions.grantPermit !== 'function')
    throw new PermissionsUsageError('createPermitMiddleware(): options.permissions must be a Permissions instance (see initPermissions).');
  if (!permissions.built)
    throw new PermissionsUsageError(
      'createPermitMiddleware(): options.permissions is not built; call permissions.build() at boot (or use initPermissions) first.',
    );
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

    return (req: TRequest, res: ExpressResponse, next: ExpressNext): void => {
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
      const paramKey = Object.keys(params).sort().join('\u0000');
      let byParams = resolved.get(matched);
      if (byParams === undefined) resolved.set(matched, (byParams = new Map<string, ResourceIdRoute>()));
      let routeInfo = byParams.get(paramKey);
      if (routeInfo === undefined) byParams.set(paramKey, (routeInfo = resolveRoute(`${req.method} ${String(matched.path)}`, matched, setting, params)));

      let raw: string | undefined;
      try {
        raw = rawResourceIdOf(routeInfo, params);
      } catch (error) {
        next(error);
        return;
      }
      let resourceId: unknown;
      if (raw !== undefined) {
        try {
          resourceId = projectResourceId === undefined ? raw : projectResourceId(raw, { resource });
        } catch (error) {
          next(error);
          return;
        }
        if (!isValidResourceId(resourceId)) {
          sendError(res, 400, 'Bad Request', `${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)} is not an id of ${resource}.`);
          return;
        }
      }
      Promise.resolve()
        .then(() => getUser(req))
        .then(
          (user) => answerGrantQuery(permissions, { user, resource, action, resourceId }, req, res, next),
          (error: unknown) => next(error),
        );
    };
  };
}
