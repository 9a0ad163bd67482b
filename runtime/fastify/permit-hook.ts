/**
 * `createPermitHook()`: the per-route form of the Fastify integration. `permit({ action })` makes a route hook
 * (for the route's `preHandler` option); the `fastifyPermissions` plugin binds it, when the route is registered,
 * to where that route's record id comes from. Per request the bound hook reads the user, the record id, decides
 * through the integration kit, and answers 400, 401, 403 or 500 itself — or puts the Permit on the request.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PermissionsUsageError, type Permissions, type PermissionsSchema, type TypedPermissions, type User } from '../permissions/index.js';
import {
  answerOfError,
  checkPermitOptions,
  checkPermitRoute,
  decideRequest,
  projectRequestId,
  rawResourceIdOf,
  serverErrorReporter,
  type CheckedPermitRoute,
  type ErrorAnswer,
  type PermitOptions,
  type PermitRouteOptions,
  type ResourceIdRoute,
} from '../integration/index.js';
import { PERMIT_DECORATION } from './permit-of.js';
import { rawParamsOf } from './raw-params.js';

export type { PermitRouteOptions };

/** The label of this integration's decisions in the decision log (`via`) and in spans. */
const VIA = 'fastify';

/** How the integration kit's messages name this factory, what `getUser` and `onServerError` are given, and its own option. */
const FACTORY = { name: 'createPermitHook', receives: 'request', extraOptions: ['onServerError?'] } as const;

/** Options of {@link createPermitHook}: what every route it guards shares (the integration kit's `PermitOptions`), and `onServerError`. */
export interface PermitHookOptions<TUser extends User<unknown> = User<unknown>, TFilter = any, TResource extends string = string> extends PermitOptions<
  TUser,
  TFilter,
  TResource,
  FastifyRequest
> {
  /**
   * The user of a request (id and roles): where the application's authentication left it. May be async. What it
   * throws is answered: an error carrying a 4xx `statusCode` or `status` (401 for an unknown caller) with that
   * status and its message, anything else with 500. Requests without a real user should get a placeholder user
   * carrying a role of its own.
   */
  readonly getUser: (request: FastifyRequest) => TUser | Promise<TUser>;
  /**
   * Sees every error answered with 500 (a failing ownership method, a failing `getUser`, a wiring mistake), to
   * log it; the answer holds nothing of it, and what it throws changes nothing of the answer. Default: the
   * request's logger (`request.log.error`).
   */
  readonly onServerError?: ((error: unknown, request: FastifyRequest) => void) | undefined;
}

/**
 * A route hook `permit()` made: for a route's `preHandler` option (or `onRequest`, `preValidation`). When it answers,
 * it resolves with the reply, which Fastify then waits for: the handler never runs after a refusal, even while an
 * asynchronous `onSend` hook (compression, an etag) still holds the answer back.
 */
export type PermitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** The function {@link createPermitHook} returns for a plain `Permissions`: one hook per route. */
export type PermitRoute<TResource extends string = string, TAction extends string = string> = (route: PermitRouteOptions<TResource, TAction>) => PermitHook;

/**
 * The function {@link createPermitHook} returns for generated permissions: the route's resource (its own, else
 * the factory's `TDefault`) must be a resource of the schema, and its action an action of that resource.
 */
export type TypedPermitRoute<S extends PermissionsSchema, TDefault extends string> = <
  R extends keyof S['resources'] & string = TDefault & keyof S['resources'] & string,
>(
  route: PermitRouteOptions<R, S['resources'][R]['actions']>,
) => PermitHook;

/** What a hook `permit(route)` made checks, and how to bind it to a registered route. */
export interface PermitHookRoute extends CheckedPermitRoute {
  /** The hook for one registered route, whose record id `route` resolves. */
  bind(route: ResourceIdRoute): PermitHook;
}

const permitHookRoutes = new WeakMap<object, PermitHookRoute>();

/**
 * @internal What `hook` checks, when it is a hook `permit(route)` made (and not yet bound to a route).
 *
 * @example
 * ```ts
 * permitHookRouteOf(permit({ action: 'read' })); // { action: 'read', resource: 'document', resourceIdParam: undefined, bind }
 * ```
 */
export function permitHookRouteOf(hook: unknown): PermitHookRoute | undefined {
  return typeof hook === 'function' ? permitHookRoutes.get(hook) : undefined;
}

/**
 * Answers with `answer`, and returns the reply for the hook to resolve with: Fastify skips the handler once the
 * reply is sent, and an answer that `onSend` hooks are still working on is not sent yet — resolving with the reply
 * (a thenable that settles when the answer is written) makes Fastify wait for it instead of running the handler.
 * A reply already answered (a timeout that sent 503 while the check ran) is left as it was sent: sending again
 * would only log Fastify's "Reply was already sent" warning, which blames the route.
 */
function send(reply: FastifyReply, answer: ErrorAnswer): FastifyReply {
  return reply.sent || reply.raw.headersSent ? reply : reply.code(answer.status).send(answer.body);
}

/**
 * Creates `permit(route)`, which makes a route hook: put `{ preHandler: permit({ action }) }` in a route's
 * options, and register the `fastifyPermissions` plugin before the routes (it binds each hook to its route when
 * the route is registered, and refuses to start when a route's record id is ambiguous).
 *
 * Given what the generated `createPermissions()` returns, `permit()` is typed: a resource the definitions do not
 * name, or an action the route's resource does not have, is a compile error.
 *
 * Per request the hook reads the user (`getUser`), the record id from the route's path parameters
 * (`resourceIdParam`, default `id` when it is the last parameter of the route's own path), projects it
 * (`projectResourceId`, else the resource's declared id type), answers 400 for an id that is no id of the
 * resource, decides, and answers 403 when nothing is granted — with the decision headers
 * `x-permissions-version` and `x-permissions-call-id` — else puts the permit on the request (read it with
 * `permitOf(request)`) and the handler runs. What `getUser` throws with a 4xx status is answered with it; any
 * other error with 500 `"Internal server error"` (and `onServerError`). Access is never granted by an error.
 *
 * @example
 * ```ts
 * const permit = createPermitHook({ permissions: createPermissions({ ownership }), getUser: userOf, resource: 'document' });
 * await app.register(fastifyPermissions);
 * app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, async (request) => {
 *   const permit = permitOf<AppUser, number>(request);
 *   return permit.pick(await documents.findById(permit.resourceId as number));
 * });
 * ```
 */
export function createPermitHook<S extends PermissionsSchema, TUser extends User<unknown>, TFilter, TDefault extends keyof S['resources'] & string = never>(
  options: PermitHookOptions<TUser, TFilter, TDefault> & { readonly permissions: TypedPermissions<S, TUser, TFilter> },
): TypedPermitRoute<S, TDefault>;
export function createPermitHook<
  TUser extends User<unknown> = User<unknown>,
  TFilter = any,
  TResource extends string = string,
  TAction extends string = string,
>(options: PermitHookOptions<TUser, TFilter, TResource> & { readonly permissions: Permissions<TUser, TFilter> }): PermitRoute<TResource, TAction>;
export function createPermitHook<TUser extends User<unknown>, TFilter>(options: PermitHookOptions<TUser, TFilter, string>): PermitRoute {
  const { permissions, getUser, getTenant, resource: defaultResource, projectResourceId } = checkPermitOptions(options, FACTORY);
  const reportServerError = serverErrorReporter<[FastifyRequest]>(options.onServerError, (error, request) => request.log.error(error), FACTORY);

  /** Answers what went wrong: a 4xx the error carries, else 500 with nothing of the error (which goes to onServerError). */
  const fail = (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const { status, body, serverError } = answerOfError(error);
    if (serverError) reportServerError(error, request);
    return send(reply, { status, body });
  };

  return (route) => {
    const checked = checkPermitRoute(route, defaultResource, FACTORY.name);
    const { action, resource } = checked;

    const bind = (resolved: ResourceIdRoute): PermitHook =>
      async function permitHook(request, reply) {
        try {
          // The text the URL carried: a params schema may have coerced request.params (an integer id) before this hook.
          const requested = projectRequestId(rawResourceIdOf(resolved, rawParamsOf(request)), resource, projectResourceId);
          if ('answer' in requested) return send(reply, requested.answer);
          const user = await getUser(request);
          const tenant = await getTenant?.(request);
          const decision = await decideRequest(permissions, { user, resource, action, resourceId: requested.resourceId, tenant }, VIA);
          // The policy that decided, granted or refused, and the decision's call id for the application's logs.
          if (decision.headers !== undefined) void reply.headers(decision.headers);
          if (!decision.granted) return send(reply, decision.answer);
          (request as unknown as { [PERMIT_DECORATION]: unknown })[PERMIT_DECORATION] = decision.permit;
          return undefined;
        } catch (error) {
          return fail(error, request, reply);
        }
      };

    // Until the plugin binds it to a route, the hook refuses: a route the plugin did not see was not checked at start.
    const unbound: PermitHook = async function permitHook(request, reply) {
      return fail(
        new PermissionsUsageError(
          `permit({ action: ${JSON.stringify(action)} }) ran on ${request.method} ${request.routeOptions.url ?? '(no route)'}, which the ` +
            'fastifyPermissions plugin did not see registered, so its record id was not resolved at start: register the plugin ' +
            '(await app.register(fastifyPermissions)) before the routes, in the context that holds them or a parent of it, and put ' +
            "permit() in the route's options ({ preHandler: permit({ action }) }), not in app.addHook().",
        ),
        request,
        reply,
      );
    };
    permitHookRoutes.set(unbound, { ...checked, bind });
    return unbound;
  };
}
