/**
 * Reads the raw resource id of a request from its path parameters, as a route's resolution (made
 * at start) says — and refuses, rather than guesses, whenever the request does not look like the
 * route that was resolved.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { isResourceIdParamProblem, type ResolvedResourceIdParam, type ResourceIdParamProblem } from './resource-id-param.js';

/**
 * What a route's check knows about where its resource id comes from.
 *
 * @example
 * ```ts
 * const route: ResourceIdRoute = resolveRoute({ label: 'GET /documents/:id', path: '/documents/:id', resourceIdParam: undefined });
 * ```
 */
export interface ResourceIdRoute {
  /** The handler, for messages (`DocumentsController.read`, `GET /documents/:id`). */
  readonly label: string;
  readonly paths: readonly string[];
  readonly resourceId: ResolvedResourceIdParam | ResourceIdParamProblem;
  /** Every parameter the route's paths declare. */
  readonly declaredParams: ReadonlySet<string>;
}

/**
 * Formats a route's paths for a message: `"/users/:id/documents/:docId"`.
 *
 * @example
 * ```ts
 * describePaths(['/documents/:id']); // '"/documents/:id"'
 * ```
 */
export function describePaths(paths: readonly string[]): string {
  return paths.length === 0 ? '(no path)' : paths.map((path) => JSON.stringify(path)).join(', ');
}

/**
 * The raw resource id of a request (a path parameter's text), or `undefined` for a collection
 * check. Throws a PermissionsUsageError (the request fails closed, 500) when the route could not be
 * resolved, when the request carries a path parameter the route's paths do not declare (something
 * the check did not see at start, such as a prefix added elsewhere), when a required id parameter
 * is missing, or when its value is not a single string.
 *
 * @example
 * ```ts
 * const raw = rawResourceIdOf(route, request.params); // '10' for GET /documents/10
 * ```
 */
export function rawResourceIdOf(route: ResourceIdRoute, params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const where = route.resourceId;
  if (isResourceIdParamProblem(where))
    throw new PermissionsUsageError(
      `${route.label} (${describePaths(route.paths)}) ${where.problem}, so the permissions check cannot tell which record it is about. ${where.fix}`,
    );
  if (params !== undefined) {
    for (const name of Object.keys(params)) {
      if (!route.declaredParams.has(name)) {
        throw new PermissionsUsageError(
          `${route.label} received the path parameter ${JSON.stringify(name)}, which its paths ` +
            `${describePaths(route.paths)} do not declare; the permissions check refuses a request whose resource id it ` +
            `did not resolve at start. Declare the parameter on the route (or set resourceIdParam explicitly).`,
        );
      }
    }
  }
  if (where.kind === 'none') return undefined;
  const raw = params?.[where.name];
  if (raw === undefined) {
    if (where.optional) return undefined;
    throw new PermissionsUsageError(
      `${route.label} takes the resource id from path parameter ${JSON.stringify(where.name)}, but the request has ` +
        `none; the check is refused rather than run without a record id.`,
    );
  }
  if (typeof raw !== 'string')
    throw new PermissionsUsageError(
      `${route.label}: path parameter ${JSON.stringify(where.name)} is not a single value; the resource id must be one path segment.`,
    );
  return raw;
}
