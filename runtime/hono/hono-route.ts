/**
 * Where a Hono route's record id comes from, by the integration kit's rules, read from the route as Hono keeps
 * it (`app.routes`, and the matched route of a request): its method, its full path, and the base path it was
 * mounted under (`app.route('/documents/:id', comments)`, `new Hono().basePath('/tenants/:tenantId')`), whose
 * parameters are the parent's and never the record's id by default.
 */
import { resolveRoute, type ResourceIdParamSetting, type ResourceIdRoute } from '../integration/index.js';
import { honoPathParams } from './hono-path-params.js';

/**
 * A route as Hono records it (hono's `RouterRoute`, as far as it is read here).
 *
 * @example
 * ```ts
 * const route: HonoRoute = app.routes[0]; // { method: 'GET', path: '/documents/:id', basePath: '/' }
 * ```
 */
export interface HonoRoute {
  readonly method: string;
  readonly path: string;
  readonly basePath: string;
}

/** The route's own part of its path, after the base path it was mounted under. */
function ownPath(route: HonoRoute): string {
  if (route.basePath === '/' || !route.path.startsWith(route.basePath)) return route.path;
  const rest = route.path.slice(route.basePath.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * Resolves where the record id of a request on `route` comes from, for a `permit()` set to `setting`. A route
 * whose own path ends in a wildcard (`app.use(permit(…))`, `/documents/*`) resolves to a problem unless
 * `setting` names a parameter or is `null`: the wildcard's segments may hold the record's id, and a check
 * without it would be a check on the whole resource.
 *
 * @example
 * ```ts
 * resolveHonoRoute({ method: 'GET', path: '/documents/:id', basePath: '/' }, undefined).resourceId;
 * // { kind: 'param', name: 'id', optional: false }
 * ```
 */
export function resolveHonoRoute(route: HonoRoute, setting: ResourceIdParamSetting): ResourceIdRoute {
  const label = `${route.method} ${route.path}`;
  const path = ownPath(route);
  const own = honoPathParams(path);
  const inheritedParams = path === route.path ? [] : honoPathParams(route.basePath).params.map((param) => param.name);
  if (setting === undefined && own.endsInWildcard)
    return {
      label,
      paths: [path],
      resourceId: {
        problem: "ends in a wildcard (*), whose path segments may hold the record's id but reach the check as no parameter",
        fix:
          "Put permit() in the route that names the record's id (app.get('/documents/:id', permit({ action }), handler)), set " +
          'resourceIdParam to a parameter before the wildcard, or opt out with resourceIdParam: null if this handler does not act on one record.',
      },
      declaredParams: new Set([...inheritedParams, ...own.params.map((param) => param.name)]),
    };
  const resolved = resolveRoute({ label, path, resourceIdParam: setting, inheritedParams, pathParams: (one) => honoPathParams(one).params });
  const { resourceId } = resolved;
  if (!('kind' in resourceId) || resourceId.kind !== 'param') return resolved;
  const { name } = resourceId;
  const ownCount = own.params.filter((param) => param.name === name).length;
  // Hono gives a name declared twice the value of its first segment: the check would read another record.
  if (inheritedParams.includes(name) && ownCount > 0)
    return twiceNamed(
      resolved,
      `names its record id :${name} as its parent path ${route.basePath} names one of its parameters, and Hono reads the parent's segment for that name`,
      '/documents/:documentId with /comments/:id',
    );
  if (ownCount > 1)
    return twiceNamed(
      resolved,
      `names its record id :${name} twice in its own path, and Hono reads the first segment for that name`,
      '/users/:userId/documents/:id',
    );
  return resolved;
}

/** `resolved`, refused: its record id's name is declared twice (`problem`), which renaming one (as in `example`) fixes. */
function twiceNamed(resolved: ResourceIdRoute, problem: string, example: string): ResourceIdRoute {
  return {
    ...resolved,
    resourceId: { problem, fix: `Rename one of the two parameters (${example}), so that the check reads the route's own segment.` },
  };
}
