/**
 * Where a route's record id comes from, for a router whose route paths are strings: in the syntax of Express 5
 * (path-to-regexp 8: `/documents/:id`, `/files{/:id}`) by default, or in a router's own syntax that its
 * integration reads (`pathParams`: Hono's `/documents/:id{[0-9]+}` and `/documents/:id?`, Fastify's `/files/:id?`
 * and `/files/*`).
 */
import {
  resolveResourceIdParam,
  type DeclaredParam,
  type ResolvedResourceIdParam,
  type ResourceIdParamProblem,
  type ResourceIdParamSetting,
} from './resource-id-param.js';
import type { ResourceIdRoute } from './request-resource-id.js';
import { routePathParams } from './route-path-params.js';

/**
 * What {@link resolveRoute} reads of a route.
 *
 * @example
 * ```ts
 * resolveRoute({ label: 'GET /users/:userId/documents/:id', path: request.routeOptions.url, resourceIdParam: undefined });
 * ```
 */
export interface RouteToResolve {
  /** The route, for messages: `GET /documents/:id`. */
  readonly label: string;
  /** The route's path as the router matched it (or its paths); anything else (a RegExp) cannot be read. */
  readonly path: unknown;
  /** The integration's setting: a parameter name, `null` for no record, or `undefined` for the default (`id` as the last parameter). */
  readonly resourceIdParam: ResourceIdParamSetting;
  /**
   * Parameters the request receives from outside the route's own path (a parent router's, with Express's
   * `mergeParams`): never taken as the id by default; a route without parameters of its own that receives some
   * must name the one it means, or `null`.
   */
  readonly inheritedParams?: readonly string[] | undefined;
  /**
   * Reads the parameters one of the route's paths declares, in order, for a router whose path syntax is not
   * Express's (Hono's `:id?` is optional, `:id{[0-9]+}` is `id`). Default: `routePathParams`.
   */
  readonly pathParams?: ((path: string) => readonly DeclaredParam[]) | undefined;
}

/**
 * Resolves where a route's record id comes from, once per route (at start, or on its first request): the
 * route for `rawResourceIdOf`. A route whose id is ambiguous resolves to a problem, which `rawResourceIdOf`
 * refuses (500) and a start-time check reports.
 *
 * @example
 * ```ts
 * const route = resolveRoute({ label: 'GET /documents/:id', path: '/documents/:id', resourceIdParam: undefined });
 * route.resourceId; // { kind: 'param', name: 'id', optional: false }
 * rawResourceIdOf(route, { id: '10' }); // '10'
 * ```
 */
export function resolveRoute(route: RouteToResolve): ResourceIdRoute {
  const { label, path, resourceIdParam: setting, inheritedParams = [], pathParams = routePathParams } = route;
  const paths = typeof path === 'string' ? [path] : Array.isArray(path) && path.every((one) => typeof one === 'string') ? path : undefined;
  if (paths === undefined) {
    const resourceId: ResolvedResourceIdParam | ResourceIdParamProblem =
      setting === null
        ? { kind: 'none' }
        : {
            problem: 'is a RegExp route, whose parameters cannot be read',
            fix: 'Give the route a string path (/documents/:id), or pass resourceIdParam: null if it acts on no single record.',
          };
    return { label, paths: [String(path)], resourceId, declaredParams: new Set(inheritedParams) };
  }
  const variants = paths.map((one) => pathParams(one));
  const own = new Set(variants.flat().map((param) => param.name));
  const fromParents = inheritedParams.filter((name) => !own.has(name));
  let resourceId: ResolvedResourceIdParam | ResourceIdParamProblem;
  if (typeof setting === 'string' && !own.has(setting) && fromParents.includes(setting)) resourceId = { kind: 'param', name: setting, optional: false };
  else if (setting === undefined && fromParents.length > 0 && own.size === 0) {
    const names = fromParents.map((name) => JSON.stringify(name)).join(', ');
    resourceId = {
      problem: `has no path parameter of its own, but receives ${names} from a parent router, which may or may not be the record's id`,
      fix: `Set resourceIdParam to the parameter that holds the record id (one of ${names}), or to null if the route acts on no single record.`,
    };
  } else resourceId = resolveResourceIdParam(variants, setting, setting === undefined ? 'default' : 'handler');
  return { label, paths, resourceId, declaredParams: new Set([...own, ...fromParents]) };
}
