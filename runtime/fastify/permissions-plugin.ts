/**
 * `fastifyPermissions`: the plugin of the Fastify integration. Registered before the routes, it sees each route
 * as it is registered (an `onRoute` hook), resolves which path parameter holds the record id of every route
 * with a `permit({ action })` hook — by the rules the hook applies per request — and binds the hook to that
 * answer; when the application is ready (`onReady`), a route whose record id is ambiguous stops the start. It
 * breaks encapsulation (fastify-plugin), so that it sees the routes of the context it is registered in and of
 * every context registered inside it.
 */
import type { FastifyPluginCallback, RouteOptions } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { PermissionsUsageError } from '../permissions/index.js';
import { describePaths, isResourceIdParamProblem, resolveRoute } from '../integration/index.js';
import { fastifyPathParams } from './fastify-path-params.js';
import { permitHookRouteOf, type PermitHookRoute } from './permit-hook.js';
import { PERMIT_DECORATION } from './permit-of.js';
import { keepRawParams, RAW_PARAMS } from './raw-params.js';

/** The route hooks that run before the handler with `(request, reply)`: where a permit hook may stand. */
const DECIDING_HOOKS = ['onRequest', 'preValidation', 'preHandler'] as const;

/** The other route hooks: a permit hook there would run with other arguments, or once the handler has run. */
const OTHER_HOOKS = ['preParsing', 'preSerialization', 'onSend', 'onResponse', 'onError', 'onTimeout', 'onRequestAbort'] as const;

/** A route as the `onRoute` hook receives it. */
type RegisteredRoute = RouteOptions & { routePath: string; prefix: string };

/**
 * What is wrong with the routes, by path and problem: the methods that have it. (Fastify registers a HEAD route
 * beside each GET route, with the same options: one line says it of both.)
 */
type Problems = Map<string, { readonly url: string; readonly methods: string[]; readonly problem: string }>;

function addProblem(problems: Problems, route: RegisteredRoute, problem: string): void {
  const key = `${route.url}\u0000${problem}`;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const known = problems.get(key);
  if (known === undefined) problems.set(key, { url: route.url, methods: [...methods], problem });
  else known.methods.push(...methods.filter((method) => !known.methods.includes(method)));
}

const asList = (hooks: unknown): unknown[] => (hooks === undefined || hooks === null ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/** Binds the permit hooks of `route` to its record id (in place), and says what is wrong with them. */
function bindPermitHooks(route: RegisteredRoute, problems: Problems): void {
  const label = `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`;
  const options = route as unknown as Record<string, unknown>;
  const found: PermitHookRoute[] = [];
  for (const name of OTHER_HOOKS) {
    for (const hook of asList(options[name])) {
      const permit = permitHookRouteOf(hook);
      if (permit === undefined) continue;
      found.push(permit);
      addProblem(
        problems,
        route,
        `has permit({ action: ${JSON.stringify(permit.action)} }) in its ${name} hooks, where it cannot decide before the handler. ` +
          'Fix: put it in the preHandler option.',
      );
    }
  }
  for (const name of DECIDING_HOOKS) {
    const hooks = options[name];
    if (!asList(hooks).some((hook) => permitHookRouteOf(hook) !== undefined)) continue;
    const bound = asList(hooks).map((hook) => {
      const permit = permitHookRouteOf(hook);
      if (permit === undefined) return hook;
      found.push(permit);
      const resolved = resolveRoute({
        label,
        path: route.routePath,
        resourceIdParam: permit.resourceIdParam,
        // A prefix's parameters (register(plugin, { prefix: '/users/:userId' })) come from outside the route's own path.
        inheritedParams: fastifyPathParams(route.prefix).map((param) => param.name),
        pathParams: fastifyPathParams,
      });
      if (isResourceIdParamProblem(resolved.resourceId))
        addProblem(
          problems,
          route,
          `(permit({ action: ${JSON.stringify(permit.action)} }) on ${describePaths(resolved.paths)}) ${resolved.resourceId.problem}. ` +
            `Fix: ${resolved.resourceId.fix}`,
        );
      return permit.bind(resolved);
    });
    // A new list (or function): the route's options object may be shared with the HEAD route Fastify adds for a GET.
    options[name] = Array.isArray(hooks) ? bound : bound[0];
  }
  if (found.length > 1)
    addProblem(
      problems,
      route,
      `has ${found.length} permit() hooks (${found.map((permit) => JSON.stringify(permit.action)).join(', ')}); each would decide, and log, on its own. ` +
        'Fix: keep one permit() per route.',
    );
}

const registerPermissions: FastifyPluginCallback = (instance, _options, done) => {
  if (instance.hasRequestDecorator(PERMIT_DECORATION)) {
    done(
      new PermissionsUsageError(
        'fastifyPermissions is registered twice on the same routes (here, and in this context or a parent of it): each registration would ' +
          'bind the routes it sees. Fix: register it once, in the context that holds the guarded routes or a parent of it.',
      ),
    );
    return;
  }
  instance.decorateRequest(PERMIT_DECORATION, null);
  // The path parameters as the URL carried them, before a params schema coerces them.
  instance.decorateRequest(RAW_PARAMS, null);
  instance.addHook('onRequest', keepRawParams);
  const problems: Problems = new Map();
  instance.addHook('onRoute', (route) => bindPermitHooks(route, problems));
  instance.addHook('onReady', (ready) => {
    if (problems.size === 0) return ready();
    const lines = [...problems.values()].map(({ url, methods, problem }) => `  - ${methods.join(',')} ${url} ${problem}`);
    ready(
      new PermissionsUsageError(
        'Routes whose permissions check is misconfigured; the server does not start, because a check without the right record id could grant access ' +
          `to the wrong record:\n${lines.join('\n')}`,
      ),
    );
  });
  done();
};

/**
 * The Fastify plugin that binds every route's `permit({ action })` hook to where its record id comes from, and
 * refuses to start when a route's record id is ambiguous. Register it once, before the guarded routes, in the
 * context that holds them or a parent of it: `await app.register(fastifyPermissions)`. It sees the routes
 * registered after it in that context and in the contexts registered inside it; registered twice on the same
 * routes, it throws. The permit is read with `permitOf(request)`.
 *
 * Start-time refusals (`app.ready()` and `app.listen()` reject with a PermissionsUsageError listing every route):
 * a route with parameters whose record id is not the default `id` as the last parameter of its own path and
 * that sets no `resourceIdParam`; a `resourceIdParam` the route's path does not declare; a wildcard as the
 * record id; a route whose only parameters come from its prefix (name the one meant); more than one `permit()`
 * on a route; a `permit()` in a hook that runs with other arguments or after the handler.
 *
 * @example
 * ```ts
 * const app = Fastify();
 * await app.register(fastifyPermissions);
 * app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, readDocument);
 * await app.listen({ port: 3000 }); // rejects for app.get('/users/:id/documents/:docId', { preHandler: permit({ action: 'read' }) }, …)
 * ```
 */
export const fastifyPermissions: FastifyPluginCallback = fastifyPlugin(registerPermissions, { name: 'typed-permissions', fastify: '5.x' });
