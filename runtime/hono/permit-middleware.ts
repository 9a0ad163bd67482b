/**
 * `createPermitMiddleware()`: the Hono integration's per-route middleware. In a route, before the handler, it
 * reads the user, resolves the record id from the matched route's path (by the integration kit's rules), and
 * answers 400 (an id that is no id of the resource) or 403 (not granted) as JSON, or puts the permit in the
 * context's variables (`c.var.permit`) and runs the handler. It uses only what every runtime Hono runs on has:
 * no Node.js module or global.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Permissions, PermissionsSchema, Permit, TypedPermissions, User } from '../permissions/index.js';
// The engine's entry for precompiled tables (typed-permissions/precompiled): it loads no definition builder.
import { PermissionsUsageError } from '../permissions/precompiled.js';
import {
  checkPermitOptions,
  checkPermitRoute,
  decideRequest,
  errorOfThrown,
  POLICY_VERSION_HEADER,
  projectRequestId,
  rawResourceIdOf,
  type CheckedPermitRoute,
  type DecisionHeaders,
  type ErrorAnswer,
  type PermitOptions,
  type PermitRouteOptions,
  type ResourceIdRoute,
} from '../integration/index.js';
import { resolveHonoRoute, type HonoRoute } from './hono-route.js';

export type { PermitRouteOptions };

/** The label of this integration's decisions in the decision log (`via`) and in decision spans. */
const VIA = 'hono';

/** How the integration kit's messages name this factory and what `getUser` is given. */
const FACTORY = { name: 'createPermitMiddleware', receives: 'c' } as const;

/**
 * What `permit()` adds to a route's context: the permit, as `c.var.permit` or `c.get('permit')` in the handler.
 *
 * @example
 * ```ts
 * app.get('/documents/:id', permit({ action: 'read' }), async (c) => c.json(await c.var.permit.pick(await find(c.var.permit.resourceId))));
 * ```
 */
export interface PermitEnv<TUser extends User<unknown> = User<unknown>, TId = unknown, TFilter = any> {
  readonly Variables: { readonly permit: Permit<TUser, TId, TFilter> };
}

/** Options of {@link createPermitMiddleware}: what every route it protects shares (the integration kit's `PermitOptions`). */
export interface PermitMiddlewareOptions<
  TUser extends User<unknown> = User<unknown>,
  TFilter = any,
  TResource extends string = string,
  E extends Env = any,
> extends PermitOptions<TUser, TFilter, TResource, Context<E>> {
  /**
   * The user of a request (id and roles), from where the application's authentication left it. May be async;
   * what it throws goes to the application's error handler (`app.onError(permissionsErrorHandler())`), where an
   * error carrying a 4xx `status` — such as Hono's `HTTPException(401)` — answers that status. Requests without a
   * real user should get a placeholder user carrying a dedicated role.
   */
  readonly getUser: (c: Context<E>) => TUser | Promise<TUser>;
}

/** The function {@link createPermitMiddleware} returns for a plain `Permissions`: one middleware per route. */
export type PermitRoute<TUser extends User<unknown> = User<unknown>, TFilter = any, TResource extends string = string, TAction extends string = string> = (
  route: PermitRouteOptions<TResource, TAction>,
) => MiddlewareHandler<PermitEnv<TUser, unknown, TFilter>>;

/**
 * The function {@link createPermitMiddleware} returns for generated permissions: the route's resource (its own,
 * else the middleware's `TDefault`) must be a resource of the schema, its action an action of that resource, and
 * the handler's `c.var.permit` carries the resource's id type.
 */
export type TypedPermitRoute<S extends PermissionsSchema, TUser extends User<unknown>, TFilter, TDefault extends string> = <
  R extends keyof S['resources'] & string = TDefault & keyof S['resources'] & string,
>(
  route: PermitRouteOptions<R, S['resources'][R]['actions']>,
) => MiddlewareHandler<PermitEnv<TUser, S['resources'][R]['id'], TFilter>>;

/** What each `permit(route)` middleware checks, kept for the start-time check (`checkPermitRoutes`). */
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

/** Sets the decision headers on what the context answers. */
function setHeaders(c: Context, headers: DecisionHeaders | undefined): void {
  if (headers !== undefined) for (const [name, value] of Object.entries(headers)) c.header(name, value);
}

function answer(c: Context, { status, body }: ErrorAnswer): Response {
  return c.json(body, status as 400 | 403);
}

/**
 * Creates the per-route permissions middleware. Put `permit({ action })` in a route, before the handler:
 * `app.get('/documents/:id', permit({ action: 'read' }), handler)`. Given what the generated `createPermissions()`
 * returns, `permit()` is typed: a resource the definitions do not name, or an action the route's resource does not
 * have, is a compile error, and the handler's `c.var.permit.resourceId` has the resource's id type.
 *
 * Per request it resolves the record id from the matched route's path (`resourceIdParam`, default `id` when it
 * is the last parameter of the route's own path; a path with parameters that resolves none, or that ends in a
 * wildcard, is refused with a `PermissionsUsageError` rather than checked as a collection), projects it
 * (`projectResourceId`, else the resource's declared id type), answers 400 for an id that is no id of the
 * resource, reads the user (`getUser`), asks for a permit, sends the decision headers (`x-permissions-version`,
 * `x-permissions-call-id`), and answers 403 when nothing is granted, else sets `c.var.permit` and runs the
 * handler. Wiring mistakes, hook failures and errors of `getUser` are thrown to the application's error handler
 * (`app.onError(permissionsErrorHandler())`); access is never granted by an error. `checkPermitRoutes(app)` at
 * start finds the routes whose record id is ambiguous before any request.
 *
 * @example
 * ```ts
 * const permit = createPermitMiddleware({ permissions: createPermissions({ ownership }), getUser: (c) => userOf(c), resource: 'document' });
 * app.get('/documents/:id', permit({ action: 'read' }), async (c) => {
 *   const document = await documents.findById(c.var.permit.resourceId!); // a number: document ids are numbers
 *   return c.json(await c.var.permit.pick(document));
 * });
 * ```
 */
export function createPermitMiddleware<
  S extends PermissionsSchema,
  TUser extends User<unknown>,
  TFilter,
  TDefault extends keyof S['resources'] & string = never,
  E extends Env = any,
>(
  options: PermitMiddlewareOptions<TUser, TFilter, TDefault, E> & { readonly permissions: TypedPermissions<S, TUser, TFilter> },
): TypedPermitRoute<S, TUser, TFilter, TDefault>;
export function createPermitMiddleware<
  TUser extends User<unknown> = User<unknown>,
  TFilter = any,
  TResource extends string = string,
  TAction extends string = string,
  E extends Env = any,
>(
  options: PermitMiddlewareOptions<TUser, TFilter, TResource, E> & { readonly permissions: Permissions<TUser, TFilter> },
): PermitRoute<TUser, TFilter, TResource, TAction>;
export function createPermitMiddleware<TUser extends User<unknown>, TFilter, E extends Env>(
  options: PermitMiddlewareOptions<TUser, TFilter, string, E>,
): PermitRoute<TUser, TFilter> {
  const { permissions, getUser, getTenant, resource: defaultResource, projectResourceId } = checkPermitOptions(options, FACTORY);

  return (route) => {
    const checked = checkPermitRoute(route, defaultResource, FACTORY.name);
    const { action, resource, resourceIdParam: setting } = checked;
    // Resolved once per route Hono matched (the same middleware may sit in several routes), not per request.
    const resolved = new WeakMap<HonoRoute, ResourceIdRoute>();

    const middleware: MiddlewareHandler<PermitEnv<TUser, unknown, TFilter>> = async (c, next) => {
      const matched = matchedRoutes(c)[c.req.routeIndex];
      if (matched === undefined)
        throw new PermissionsUsageError(
          `permit({ action: ${JSON.stringify(action)} }) ran outside a route Hono matched (${c.req.method} ${c.req.path}): put it in the route, ` +
            "app.get('/documents/:id', permit({ action }), handler).",
        );
      let routeInfo = resolved.get(matched);
      if (routeInfo === undefined) resolved.set(matched, (routeInfo = resolveHonoRoute(matched, setting)));
      let requested: ReturnType<typeof projectRequestId>;
      let decision: Awaited<ReturnType<typeof decideRequest<TUser, TFilter>>>;
      try {
        requested = projectRequestId(rawResourceIdOf(routeInfo, c.req.param()), resource, projectResourceId);
        if ('answer' in requested) return answer(c, requested.answer);
        const user = await getUser(c as unknown as Context<E>);
        const tenant = await getTenant?.(c as unknown as Context<E>);
        // In the try too: the decision reads the user (a roles getter that throws a string rejects it with that string).
        decision = await decideRequest(permissions, { user, resource, action, resourceId: requested.resourceId, tenant }, VIA);
      } catch (error) {
        // Hono hands its error handler Errors only: anything else thrown would be an empty 500 nobody hears of.
        throw errorOfThrown(error);
      }
      setHeaders(c, decision.headers);
      if (!decision.granted) return answer(c, decision.answer);
      c.set('permit', decision.permit);
      await next();
      // A handler that returns a Response of its own (not made with c.json, c.text…) has not got the headers yet.
      if (c.res.headers.get(POLICY_VERSION_HEADER) === null) {
        // A copy: the handler's Response may have immutable headers (one fetch() returned).
        c.res = new Response(c.res.body, c.res);
        setHeaders(c, decision.headers);
      }
    };
    permitRoutes.set(middleware, checked);
    return middleware;
  };
}
