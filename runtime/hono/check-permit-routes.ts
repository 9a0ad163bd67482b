/**
 * `checkPermitRoutes(app)`: the start-time check of the Hono integration. It reads the application's routes
 * (`app.routes`, where Hono also records the routes of the applications mounted with `app.route()`) and
 * resolves, for every route that holds a `permit({ action })` middleware, which path parameter is the record's
 * id — by the rules the middleware applies per request — so that an ambiguous route stops the start instead of
 * failing its first request.
 */
import { PermissionsUsageError } from '../permissions/precompiled.js';
import { describePaths, isResourceIdParamProblem } from '../integration/index.js';
import { resolveHonoRoute, type HonoRoute } from './hono-route.js';
import { permitRouteOf } from './permit-middleware.js';

/**
 * Hono's mark on a handler it wrapped when it mounted an application that has an error handler of its own
 * (`app.route(path, child)` after `child.onError(…)`): the wrapped handler.
 */
const COMPOSED_HANDLER = '__COMPOSED_HANDLER';

/** The handler a route holds, through the wrappers Hono puts around the handlers of mounted applications. */
function unwrap(handler: unknown): unknown {
  let current = handler;
  for (let depth = 0; typeof current === 'function' && COMPOSED_HANDLER in current && depth < 100; depth++)
    current = (current as unknown as Record<string, unknown>)[COMPOSED_HANDLER];
  return current;
}

function isRoute(value: unknown): value is HonoRoute & { readonly handler: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const { method, path, basePath } = value as Record<string, unknown>;
  return typeof method === 'string' && typeof path === 'string' && typeof basePath === 'string';
}

/**
 * Checks, at start, every route of `app` — the routes of the applications mounted on it with `app.route()`
 * included — that holds a `permit({ action })` middleware: which path parameter is the record's id, by the rules
 * the middleware applies to each request (`id` only as the last parameter of the route's own path; an explicit
 * `resourceIdParam` must be a parameter of the route or of the path it was mounted under; a route whose own path
 * ends in a wildcard must name its parameter or opt out with `null`). Throws a PermissionsUsageError listing every
 * ambiguous route, so the server does not start with one. Call it after every route is registered (and every
 * application mounted), before serving.
 *
 * @example
 * ```ts
 * app.get('/documents/:id', permit({ action: 'read' }), readDocument);
 * checkPermitRoutes(app); // throws for app.get('/users/:id/documents/:docId', permit({ action: 'read' }), …)
 * serve({ fetch: app.fetch, port: 3000 });
 * ```
 */
export function checkPermitRoutes(app: { readonly routes: readonly unknown[] }): void {
  const routes: unknown = typeof app === 'object' && app !== null ? app.routes : undefined;
  if (!Array.isArray(routes)) throw new PermissionsUsageError('checkPermitRoutes(app): app must be a Hono application (its routes are app.routes).');
  const problems = new Set<string>();
  for (const route of routes) {
    if (!isRoute(route)) continue;
    const permit = permitRouteOf(unwrap(route.handler));
    if (permit === undefined) continue;
    const resolved = resolveHonoRoute(route, permit.resourceIdParam);
    if (isResourceIdParamProblem(resolved.resourceId))
      problems.add(
        `${resolved.label} (permit({ action: ${JSON.stringify(permit.action)} }) on ${describePaths(resolved.paths)}) ${resolved.resourceId.problem}. ` +
          `Fix: ${resolved.resourceId.fix}`,
      );
  }
  if (problems.size > 0)
    throw new PermissionsUsageError(
      'Routes whose record id parameter is ambiguous; the server does not start, because a check without the right record id could grant access to ' +
        `the wrong record:\n${[...problems].map((problem) => `  - ${problem}`).join('\n')}`,
    );
}
